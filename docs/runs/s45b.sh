#!/usr/bin/env bash
# Session 45, run hn: this tree (TileLang WARP_ROW_MAX_PACKS = 8, not landed). (1) build; (2) the TileLang reduce_sum
# sweep: packed (the library's warp a row, trigger early) against warp (the same kernel, trigger at exit) and block
# (the one-block-a-row kernel of main), 144-16384 rows of 1280 / 1536 / 2048 halves and more; (3) our CUDA's
# lane-packs sweep, long rows in the bench's context (l2), lane_packs (Early) against lane_packs_hw (AtExit at
# 4080x1536) for item 0j; (4) the whole nvidia suite in what is left.
source scripts/device_steps.sh
device_begin s45b 560
device_build
echo "== sweep tilelang_reduce_sum ($(date +%T), $(left) s left)"
timeout 170 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --variants packed warp block --shapes 144x1280 1024x1280 2048x1280 4096x1280 16384x1280 144x1536 1024x1536 \
  2048x1536 4080x1536 16384x1536 144x2048 1024x2048 4096x2048 16384x2048 1024x1032 4096x1032 4096x1800 \
  > $W/tilelang_reduce_sum.csv 2> $W/tilelang_reduce_sum.err
echo "rc=$? ($(date +%T)), $(wc -l < $W/tilelang_reduce_sum.csv) lines"; pack
echo "== sweep reduce_sum_lane_packs l2 long ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_lane_packs.cu -o /tmp/rslp &&
  timeout 110 /tmp/rslp l2 long > $W/reduce_sum_lane_packs_l2_long.csv 2>$W/reduce_sum_lane_packs.err; echo "rc=$?"; pack
echo "== nvidia suite and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 8 )) python -m pytest tests/ops tests/fuzz --backend nvidia -n 15 -q -p no:cacheprovider \
  -p no:benchmark -m "not lowering" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log
echo "== end ($(date +%T))"; pack
