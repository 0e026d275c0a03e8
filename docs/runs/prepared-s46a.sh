#!/usr/bin/env bash
# Prepared in session 45, not run (no device time was left): apply runs/s45-tilelang-2-4-packs-at-exit.patch first
# (git apply), copy this to .device/, run under `timeout 250` (carry .device and .whl). For the patched tree
# (TileLang's 2-4 packs a lane at exit where the grid is more than a quarter of the SMs' blocks and at most one an SM). (1) build; (2) the TileLang reduce_sum sweep at the rows the window moves and its
# edges, fp16 and bf16: packed (the library) against warp (at exit) and block; (3) the TileLang reduce_sum tests and fuzz.
source scripts/device_steps.sh
device_begin s45d 230
device_build
echo "== sweep tilelang_reduce_sum ($(date +%T), $(left) s left)"
timeout 75 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --variants packed warp block --shapes 1024x512 1024x1024 300x1024 2048x1024 1000x264 > $W/tilelang_reduce_sum.csv \
  2> $W/tilelang_reduce_sum.err; echo "rc=$? ($(date +%T))"; pack
echo "== TileLang reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 5 )) python -m pytest tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k reduce_sum \
  --backend tilelang -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "tilelang rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log
echo "== end ($(date +%T))"; pack
