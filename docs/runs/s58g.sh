#!/usr/bin/env bash
# Run jp (session 58): TileLang's fp32 row sum at 1008x2304 ran 0.802x our CUDA after the block-a-row rule (run jo);
# its row pass (128 threads, `row_chunk` 1024 elements a pass: three passes at 2304) by chunk, at the rule's shapes.
# Data for the next session's TileLang change; no library code changes with it.
source scripts/device_steps.sh
device_begin s58g 250
device_build
timeout $(( $(left) - 10 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float32 \
  --shapes 1008x2304 264x2304 4080x2304 1008x4000 --variants 1024 2048 4096 packed > $W/tl-chunks.csv 2> $W/tl-chunks.err
echo "sweep rc=$? ($(date +%T))"; cat $W/tl-chunks.csv; tail -3 $W/tl-chunks.err | cut -c1-200
echo "== end ($(date +%T))"; pack
