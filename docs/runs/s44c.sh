#!/usr/bin/env bash
# Session 44, run hk: the landed tree (our CUDA row sums of 33-128 packs as packed_rows; TileLang softmax a warp a
# row at 4 packs a lane from 2.5 blocks an SM). (1) build; (2) the lane-packs sweep's long rows (5-8 packs a lane, a
# candidate); (3) the nvidia suite and fuzz, every op; (4) memcheck on TileLang's 4-pack softmax cases; (5) the
# TileLang softmax and reduce_sum tests and fuzz, 16-bit, to the call's bound.
source scripts/device_steps.sh
device_begin s44c 560
device_build
echo "== sweep reduce_sum_lane_packs long ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_lane_packs.cu -o /tmp/rslp &&
  timeout 90 /tmp/rslp long > $W/reduce_sum_lane_packs_long.csv 2>$W/reduce_sum_lane_packs_long.err; echo "rc=$?"; pack
echo "== nvidia suite and fuzz ($(date +%T), $(left) s left)"
timeout 160 python -m pytest tests/ops tests/fuzz --backend nvidia -n 15 -q -p no:cacheprovider -p no:benchmark \
  -m "not lowering" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
echo "== memcheck, TileLang softmax 4 packs a lane ($(date +%T), $(left) s left)"
timeout 70 compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest tests/ops/test_softmax.py \
  -k "warp-rows-4-packs and not float32" --backend tilelang -q -p no:cacheprovider -p no:benchmark -p no:xdist \
  > $W/memcheck-tilelang.log 2>&1
echo "rc=$?: $(grep -E 'passed|failed' $W/memcheck-tilelang.log | tail -1); $(grep -E 'ERROR SUMMARY' $W/memcheck-tilelang.log | tail -1)"; pack
echo "== TileLang 16-bit softmax and reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 10 )) python -m pytest tests/ops/test_softmax.py tests/ops/test_reduce_sum.py tests/fuzz \
  tests/tilelang -k "(softmax or reduce_sum) and not float32" --backend tilelang -n 15 -q -p no:cacheprovider \
  -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log
echo "== end ($(date +%T))"; pack
