#!/usr/bin/env bash
# Run jn (session 58): the block-a-row rule for rows of >= 480 packs (runs/s58-block-row.patch, on main as it landed),
# A = main before it (038899c's src, the patch reversed and built in the background), B = the tree. The bench rows the
# rule takes (1008x2304 fp32, 4096x4096 and 32768x4096 halves) and their neighbours, A B A B with Inductor beside; then
# B's reduce_sum tests and fuzz, memcheck and racecheck of its row tests.
source scripts/device_steps.sh
device_begin s58e 560
git apply -R docs/runs/s58-block-row.patch && echo "A: patch reversed"
build_a
git apply docs/runs/s58-block-row.patch && echo "B: patch applied"
device_build
wait_a
ab_twice rs 150 75 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
  --case rows-1008x2304 rows-4096x4096 rows-32768x4096 rows-144x1280 rows-4080x1536 rows-4096x1024 --out '$AB_OUT'
ab_summary rs | tee $W/rs-summary.txt; pack
sanitize_start memcheck rows tests/ops/test_reduce_sum.py -k "rows and not columns"
sanitize_start racecheck rows tests/ops/test_reduce_sum.py -k "rows and not columns"
pytest_tally rs 25 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 8
sanitize_wait
echo "== end ($(date +%T))"; pack
