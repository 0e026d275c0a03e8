#!/usr/bin/env bash
# Run jq (session 58, the device time left): the first step of runs/s59a-prepared.sh alone, TileLang's fp32 row pass
# by chunk at main over the lengths the prepared patch's bound (2049-3072) rests on. No library code changes with it.
source scripts/device_steps.sh
device_begin s58h 120
device_build
timeout $(( $(left) - 5 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float32 \
  --variants 1024 4096 packed --shapes 1008x2112 1008x2560 1008x3072 1008x3328 1008x3584 1008x4096 4080x2560 \
  4080x3072 > $W/tl-chunks.csv 2> $W/tl-chunks.err
echo "sweep rc=$? ($(date +%T))"; cat $W/tl-chunks.csv; tail -3 $W/tl-chunks.err | cut -c1-200
echo "== end ($(date +%T))"; pack
