#!/usr/bin/env bash
# Session 52, run in: (1) build the tree (TileLang column lanes, as run im); (2) the column-sum sweep from shape 6 on:
# the four shapes around the unsplit edge with an unsplit arm, and the element kernels; (3) ncu of the fp32 column row
# on both backends (TileLang's lanes ran 119.6 us against our CUDA's 121.8 in run im); (4) tests/tilelang on the GPU
# (the eager and backend tests, which run im did not run).
source scripts/device_steps.sh
device_begin in 400
device_build
echo "== sweep reduce_sum_columns from shape 6 ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 100 build/sweeps/reduce_sum_columns 6 > $W/reduce_sum_columns-6.csv 2> $W/reduce_sum_columns-6.err
echo "sweep rc=$? rows=$(wc -l < $W/reduce_sum_columns-6.csv)"; pack
echo "== ncu: columns fp32, ours and TileLang ($(date +%T), $(left) s left)"
OUT=$W/ncu timeout 90 scripts/ncu_profile.sh "reduce-columns-fp32-(ours|tilelang)" > $W/ncu.log 2>&1
tail -n 5 $W/ncu.log | cut -c1-250; pack
echo "== tests/tilelang on the GPU ($(date +%T), $(left) s left)"
timeout $(($(left) - 15)) python -m pytest tests/tilelang -n 12 -v -m "not lowering" -p no:cacheprovider \
  -p no:benchmark > $W/pytest-tilelang-dir.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-tilelang-dir.log) FAILED $(grep -c ' FAILED' $W/pytest-tilelang-dir.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-tilelang-dir.log | head; tail -1 $W/pytest-tilelang-dir.log | cut -c1-200
echo "== end ($(date +%T))"; pack
