#!/usr/bin/env bash
# Prepared in session 50 for the next session's first call (not run yet): A = main (built into /tmp/A in the
# background), B = main + runs/s50-rs-whole-batches.patch (reduce_sum's `whole_batches` kernel: Block rows of whole
# batches in 28-30 registers, four blocks of 512 (eight of 256) an SM where `contiguous` fits three (six)). (1) both builds; (2) the
# bench's long reduce_sum rows A B A B with Inductor beside (one-row-2^26 splits, so it is the control); (3) ncu of
# rows-1024x65536 fp32 in both arms and Inductor's (occupancy, waves, DRAM: the why, on this session's machine); (4)
# B's reduce_sum tests and fuzz on nvidia, memcheck and racecheck of B's whole-batches cases beside them.
# Copy to .device/ and call it like the session-50 scripts (carry .device and .whl).
source scripts/device_steps.sh
device_begin s51a 575
build_a
git apply docs/runs/s50-rs-whole-batches.patch && echo "patch applied"
device_build
wait_a
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice rs 170 140 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
  --case rows-1024x65536 rows-256x262144 rows-4096x16384 rows-4096x4096 rows-32768x4096 one-row-2^26 --out '$AB_OUT'
ab_summary rs
echo "== ncu: rows-1024x65536 fp32, A's contiguous, B's whole_batches and Inductor ($(date +%T), $(left) s left)"
PYTHONPATH="$A_DIR:$PYTHONPATH" OUT=$W/ncu-A timeout 60 scripts/ncu_profile.sh "reduce-rows-1024x65536-fp32-ours" \
  > $W/ncu-A.log 2>&1
OUT=$W/ncu-B timeout 100 scripts/ncu_profile.sh "reduce-rows-1024x65536-fp32" > $W/ncu-B.log 2>&1
tail -6 $W/ncu-A.log $W/ncu-B.log | cut -c1-220; pack
echo "== B: reduce_sum tests and fuzz; sanitizers on the whole-batches cases ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k whole
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k whole
timeout $(($(left) - 25)) python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia \
  -n 12 -v -m "not lowering" -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia-rs.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-nvidia-rs.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia-rs.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rs.log | head; tail -1 $W/pytest-nvidia-rs.log | cut -c1-200; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
