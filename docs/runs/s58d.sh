#!/usr/bin/env bash
# Ran on commit 33f43f6's tree (the switch is gone on main since 5099ba4; there ORT_REDUCE_FEW does nothing).
# Run jm (session 58): the few-rows sweep (runs/s58-few-rows-sweep.py: main's Warp-path kernels against a block a row
# with every pack at once, by rows, length and dtype), adds 128 threads a row (arm 14) and rows of 1536; the tests with arm 14.
source scripts/device_steps.sh
device_begin s58d 540
device_build
timeout $(( $(left) - 60 )) python docs/runs/s58-few-rows-sweep.py > $W/few-rows.csv 2> $W/few-rows.err
echo "sweep rc=$? ($(date +%T))"; tail -3 $W/few-rows.err; pack
ORT_REDUCE_FEW=14 pytest_tally few14 20 tests/ops/test_reduce_sum.py --backend nvidia -p no:xdist
echo "== end ($(date +%T))"; pack
