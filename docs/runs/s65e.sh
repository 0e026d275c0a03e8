#!/usr/bin/env bash
# Run kx (session 65): kv's lane-window sweep again in a second context (after the bench of every op's rows of 64 MiB
# or less, in the same process: runs/s65e-context.py), and once more alone, so each cell has two contexts.
source scripts/device_steps.sh
device_begin s65e 400
git apply docs/runs/s65-lane-after-wait-old-switch.patch && echo "switch applied"
device_build
ARGS="--switch ORT_LANE_OLD --arms 1 0 --rows 1064 1120 1176 1232 1288 1344 1400 1448 1456"
timeout 150 python docs/runs/s65e-context.py $W/bench -- $ARGS --lengths 512 1040 1536 2048 --dtypes bfloat16 \
  float16 > $W/after-bench16.csv 2>$W/after-bench.log
echo "after-bench16 rc=$? ($(date +%T))"; rm -f $W/bench/*.png; pack
timeout 60 python docs/runs/s58-few-rows-sweep.py $ARGS --lengths 512 1040 1536 2048 --dtypes bfloat16 float16 \
  > $W/alone16.csv 2>&1
echo "alone16 rc=$? ($(date +%T))"; pack
sweep_summary after-bench16 alone16
echo "== end ($(date +%T))"; pack
