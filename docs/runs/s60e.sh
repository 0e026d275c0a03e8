#!/usr/bin/env bash
# Run jz (session 60, the device time left, ~270 s): run jy put TileLang's 1008x2304 fp16 at 0.785x our CUDA (the
# few-rows rule made ours 1.26x faster). TileLang's 16-bit row pass is 256 elements (2 a thread, 4-byte loads) for
# rows of 2049-4096; time the pass by chunk at the rule's shapes. Data for the next session; no library code changes.
source scripts/device_steps.sh
device_begin s60e 150
device_build
timeout $(( $(left) - 5 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes 1008x2304 264x2304 1008x3072 1008x3584 --variants 1024 2048 4096 packed > $W/tl-chunks.csv 2> $W/tl-chunks.err
echo "sweep rc=$? ($(date +%T))"; cat $W/tl-chunks.csv; tail -3 $W/tl-chunks.err | cut -c1-200
echo "== end ($(date +%T))"; pack
