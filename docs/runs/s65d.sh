#!/usr/bin/env bash
# Run kw (session 65): why do readings of reduce_sum rows-4096x128 fp32 (short_rows, 512 blocks, 0.49 waves) with the
# PDL trigger after the wait disagree? Run kt's B (main's runtime branch, every kernel after the wait; bench of every
# op's rows of 64 MiB or less) read 1.21 -> 1.08 us; runs kr and ku (short_rows' AFTER_WAIT instantiation under a
# switch; bench of five reduce_sum cases) read 1.19 -> 1.39-1.43; ku's sweep 1.275 -> 1.142. The SASS of the two
# after-wait kernels differs by one predicate on the trigger (checked on the CPU). One build with
# runs/s64-rs-after-wait-switch-2.patch, ORT_RS_TRIGGER 0 / w, the same case timed in three contexts: (1) the bench of
# that case alone, (2) the bench of every op's rows of 64 MiB or less (kt's context), (3) the sweep (ku's).
source scripts/device_steps.sh
device_begin s65d 540
git apply docs/runs/s64-rs-after-wait-switch-2.patch && echo "switch applied"
device_build
switch_twice alone ORT_RS_TRIGGER "0 w" 30 python -m operator_runtime bench --op reduce_sum --backend nvidia \
  --case 4096x128 --out '$AB_OUT'
switch_twice all ORT_RS_TRIGGER "0 w" 90 python -m operator_runtime bench --backend nvidia --max-mib 64 --out '$AB_OUT'
timeout 40 python docs/runs/s58-few-rows-sweep.py --switch ORT_RS_TRIGGER --arms 0 w --rows 4096 \
  --lengths 128 --dtypes float32 float16 > $W/sweep.csv 2>&1
echo "sweep rc=$? ($(date +%T))"; cat $W/sweep.csv; pack
for n in alone all; do ab_summary $n | grep -E "4096x128 |4096x1024|144x1280" > $W/$n-summary.txt; cat $W/$n-summary.txt; done
echo "== end ($(date +%T))"; pack
