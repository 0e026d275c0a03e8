#!/usr/bin/env bash
# Session 59, run jt: vector_add's row broadcast of 16384^2 with the row vector held in registers (held_row, experiment
# switch ORT_VA_HELD read at create: rows a block; 0 = main's rows kernel). Torch.compile led this row in all three
# dtypes by 0.7-2.0 % in run js. (1) build; (2) correctness of held_row against torch at 3 and 16 rows a block
# (runs/s59-held-row-check.py) and vector_add's tests with the switch at 3; (3) the bench row with torch and
# torch.compile at 0, 4, 16 and 64 rows a block, each value in turn, twice.
source scripts/device_steps.sh
device_begin s59c 560
device_build
for v in 3 16; do ORT_VA_HELD=$v timeout 120 python docs/runs/s59-held-row-check.py > $W/check-$v.log 2>&1
  echo "check $v rc=$?"; grep -c ok $W/check-$v.log; grep MISMATCH $W/check-$v.log | head -3; done
ORT_VA_HELD=3 pytest_tally va-held3 330 tests/ops/test_vector_add.py tests/fuzz -k vector_add --backend nvidia -n 8
switch_twice held ORT_VA_HELD "0 4 16 64" 45 python -m operator_runtime bench --op vector_add --backend nvidia \
  --peers compile --case row-broadcast-16384^2 --out '$AB_OUT'
ab_summary held | sort -k2,3 -k1 | tee $W/held-summary.txt; pack
echo "== end ($(date +%T))"; pack
