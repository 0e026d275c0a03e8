#!/usr/bin/env bash
# Run ka (session 61). Prepared in session 60 as s61a.sh: run jz's sweep, lost with its machine. Run jy put TileLang's
# reduce_sum 1008x2304 fp16 at 0.785x our CUDA (bf16 0.821x): the CUDA backend's rows of 288-479 packs at 200-2016
# rows now run a block of 256 a row, while TileLang's 16-bit rows of whole packs run packed_row_shape's pass (2304
# halves: 32 threads x 3 packs, three passes; one warp a row) or masked_row_shape's (128 x 1 or 2). The sweep times the
# masked packed kernel at 128 threads x 1-4 packs a pass (mTxP, tests/bench/sweeps/tilelang_reduce_sum.py; each
# lowers and compiles on the CPU without spills, 40-63 registers) beside the library's choice, over the lengths and
# row counts of the CUDA rule, then our CUDA at the same shapes. About 4-6 min after a cold start (TileLang compiles).
source scripts/device_steps.sh
device_begin s61a 560
device_build
SHAPES="1008x2304 264x2304 2016x2304 1008x2560 1008x2816 1008x3072 528x3584 1008x3584 1008x3832"
timeout $(( $(left) - 60 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes $SHAPES --variants packed m128x1 m128x2 m128x3 m128x4 > $W/tl-masked.csv 2> $W/tl-masked.err
echo "tilelang sweep rc=$? ($(date +%T)), $(wc -l < $W/tl-masked.csv) lines"; tail -3 $W/tl-masked.err | cut -c1-200; pack
# our CUDA at the same shapes (one arm, main: the few-rows sweep times it as the bench does)
timeout $(( $(left) - 5 )) python docs/runs/s58-few-rows-sweep.py --arms 0 0 --lengths 2304 2560 2816 3072 3584 3832 \
  --rows 264 528 1008 2016 --dtypes float16 bfloat16 > $W/cuda.csv 2> $W/cuda.err
echo "cuda sweep rc=$? ($(date +%T)), $(wc -l < $W/cuda.csv) lines"; tail -2 $W/cuda.err
echo "== end ($(date +%T))"; pack
