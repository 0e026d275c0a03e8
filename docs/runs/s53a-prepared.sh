#!/usr/bin/env bash
# Prepared in session 52 for the next session (not run yet). Copy to .device/ and call it like runs/s52c.sh (carry
# .device and .whl; the TileLang cache tar is optional). (1) build; (2) the column sweep at 32768x4096 and its
# neighbours with the power-of-two split arm (does 16 splits close our fp32 gap to TileLang's 119.6 us?); (3) the
# whole bench from one build, part 1 (reduce_sum, softmax, copy: both backends, every peer), as session 51's run ii.
# Predictions belong in docs/perf-notes.md before the call.
source scripts/device_steps.sh
device_begin s53a 580
device_build
echo "== sweep reduce_sum_columns ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 90 build/sweeps/reduce_sum_columns > $W/reduce_sum_columns.csv 2> $W/reduce_sum_columns.err
echo "sweep rc=$? rows=$(wc -l < $W/reduce_sum_columns.csv)"; pack
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 150 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
pack
bench_ops reduce_sum softmax copy
echo "== end ($(date +%T))"; pack
