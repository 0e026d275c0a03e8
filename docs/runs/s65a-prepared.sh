#!/usr/bin/env bash
# Run as it was in session 65 (run kt; results in perf-notes, "Session 65").
# Prepared in session 64 (CPU only; not yet run): perf-notes session 64, "For the next session" item 0. Run kp timed
# every Early trigger made AfterWait in a build whose prologue branched twice, which cost the tiny kernels 3-20 % (run
# kq), so its gains for copy tiny and vector_add 1008x2304 are unproven. This times it cleanly: A is main built
# beside; B is main with runs/s64-pdl-after-wait-everywhere.patch (the same one branch in the prologue, the trigger
# moved after the wait for every kernel that passes Early), so the two builds differ only in the trigger's place.
# The bench's rows of 64 MiB or less (37 of 85), every op, nvidia, A B A B; then each row's A / B. About 6 min after a
# cold start. Write the predictions into perf-notes before the call.
source scripts/device_steps.sh
device_begin s65a 560
build_a && sleep 3
git apply docs/runs/s64-pdl-after-wait-everywhere.patch && echo "B: every Early after the wait"
device_build
wait_a
ab_twice bench 150 120 python -m operator_runtime bench --backend nvidia --max-mib 64 --out '$AB_OUT'
ab_ratio bench
echo "== end ($(date +%T))"; pack
