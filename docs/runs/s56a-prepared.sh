#!/usr/bin/env bash
# Prepared in session 55 for the next session (CPU-checked only: the sweep's launch modes compile in
# tests/test_build.py; not run). Call it as runs/s55a.sh was called (carry .device and .whl). (1) build main; (2) the
# column sweep at 32768x4096 and at the edge shapes the library leaves unsplit under 35 % of the thread slots (an
# Early grid today; and 384x49152, a neighbour that splits), in the library's launch mode and with every launch
# AtExit, every launch Early, and no PDL, the four modes twice in turn (perf-notes session 55, "For the next session" 1: is the graph's +6 to +22 us at a count
# whose grid is Early and under a wave the trigger, and is bf16's missing overlap at 32 splits?). Predictions belong
# in docs/perf-notes.md before the call.
source scripts/device_steps.sh
device_begin s56a 400
device_build
# session 55 named the column kernel once (column_kernel in reduce_sum_cuda.cu) after its device time ran out: the PTX
# is byte-identical, the launch's host code is new; reduce_sum's column and middle-dim cases first
pytest_tally columns 5 tests/ops/test_reduce_sum.py -k "columns or middle" --backend nvidia -n 8
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns
shapes=(32768x4096 256x65536 512x81920 256x32768 384x49152)
for pass in 1 2; do
  for mode in "" atexit early nopdl; do
    echo "== sweep pass $pass, mode ${mode:-library} ($(date +%T), $(left) s left)"
    timeout 90 build/sweeps/reduce_sum_columns "${shapes[@]}" $mode > "$W/columns-${mode:-library}-$pass.csv" \
      2> "$W/columns-${mode:-library}-$pass.err"
    echo "rc=$? rows=$(wc -l < "$W/columns-${mode:-library}-$pass.csv")"
    grep -E "^(float32|float16|bfloat16),32768x4096" "$W/columns-${mode:-library}-$pass.csv"
    pack
  done
done
echo "== end ($(date +%T))"; pack
