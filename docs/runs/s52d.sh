#!/usr/bin/env bash
# Session 52, run io: column sums that are not whole packs move from `strided` (deleted) to strided_lanes<T, 1, 8, 8>.
# (1) build; (2) the nvidia reduce_sum tests and fuzz, memcheck and racecheck of the column cases beside them; (3) the
# column sweep's element shapes (index 10 on) at the library's kernel.
source scripts/device_steps.sh
device_begin io 230
device_build
echo "== nvidia reduce_sum tests and fuzz; sanitizers on the column cases ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "columns or middle or transposed or rank5 or strided"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "columns or middle or transposed or rank5 or strided"
timeout 100 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia \
  -n 12 -v -m "not lowering" -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia-rs.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-nvidia-rs.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia-rs.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rs.log | head; tail -1 $W/pytest-nvidia-rs.log | cut -c1-200; pack
echo "== sweep: element shapes ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 40 build/sweeps/reduce_sum_columns 10 > $W/reduce_sum_columns-10.csv 2> $W/reduce_sum_columns-10.err
echo "sweep rc=$?"; tail -n +2 $W/reduce_sum_columns-10.csv | grep -c elements; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
