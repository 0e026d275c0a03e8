#!/usr/bin/env bash
# Session 60, run jv: prepared in session 59 (as s60a-prepared.sh), run with both prepared patches applied (one build
# serves runs jv and jw), each test run bounded at 110 s.
# As prepared in session 59: vector_add's row broadcast of 16384^2 through row_grid, the shape
# of Inductor's kernel (run ju, perf-notes session 59: Inductor one 16-byte pack a thread, 128 threads, 22 registers,
# 82.6 % achieved occupancy, 34.6 M instructions, 250.6 µs under ncu; our rows<bf16, 8, 2 packs> 64 registers, 41.7 %,
# 86.5 M, 256.0). runs/s60-va-row-grid-arms.patch adds the switch ORT_VA_BCAST, read at create: 1 = row_grid at one
# pack a thread (30 registers, bf16, ptxas on the CPU), 2 = row_grid at two (60: run dy's arm, 282 against 255 µs in
# bf16), for large plans of one outer dim and at most 65535 rows. About 6 min after a cold start.
source scripts/device_steps.sh
device_begin s60a 575
git apply docs/runs/s60-va-row-grid-arms.patch docs/runs/s60-reduce-sum-few-rows-switch.patch && echo "patches applied"
device_build
for v in 1 2; do
  ORT_VA_BCAST=$v pytest_tally va-arm$v $(( $(left) - 110 )) tests/ops/test_vector_add.py tests/fuzz -k vector_add --backend nvidia -n 8
done
# torch only beside (no compile; with compile each arm took over 45 s in run jt, two dtypes of three), each arm twice
switch_twice bcast ORT_VA_BCAST "0 1 2" 70 python -m operator_runtime bench --op vector_add --backend nvidia \
  --case row-broadcast-16384^2 --out '$AB_OUT'
ab_summary bcast | sort -k2,3 -k1 | tee $W/bcast-summary.txt; pack
# the winner beside Inductor in one process, if time is left (read the arms above first; 1 is the guess)
[ "$(left)" -gt 100 ] && ORT_VA_BCAST=1 timeout $(( $(left) - 10 )) python -m operator_runtime bench --op vector_add \
  --backend nvidia --peers compile --case row-broadcast-16384^2 --out $W/bcastc-1 > $W/bcastc-1.log 2>&1
ab_summary bcastc; echo "== end ($(date +%T))"; pack
