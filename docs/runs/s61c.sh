#!/usr/bin/env bash
# Run kc (session 61), made from session 60's s61c.sh: the native-pairs arms in the second order (C B A; run
# kb ran A B C), A = this tree without runs/s61-va-native-pairs.patch, built into /tmp/A beside. Then, with the bf16
# rule on (ORT_VA_BF16=1, C): memcheck and racecheck of vector_add's tests, and of TileLang's new reduce_sum cases
# (tl_sum.few_rows_one_pass_shape) beside them; the bf16 plans the rule moves (row broadcasts, strided slices, flat
# sums) at 0 and 1; the row broadcast and flat 2^28 beside torch.compile.
source scripts/device_steps.sh
device_begin s61c 575
build_a
git apply docs/runs/s61-va-native-pairs.patch && echo "patch applied"
device_build
wait_a
CASES="flat-2^28 4096x4096 row-broadcast-16384^2"
ORT_VA_BF16=1 timeout 70 python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES \
  --out $W/arms-C-2 > $W/arms-C-2.log 2>&1; echo "C 2 rc=$? ($(date +%T))"; pack
timeout 70 python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES --out $W/arms-B-2 \
  > $W/arms-B-2.log 2>&1; echo "B 2 rc=$? ($(date +%T))"; pack
PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 70 python -m operator_runtime bench --op vector_add --backend nvidia \
  --case $CASES --out $W/arms-A-2 > $W/arms-A-2.log 2>&1; echo "A 2 rc=$? ($(date +%T))"; pack
ab_summary arms | sort -k2,3 -k1
export ORT_VA_BF16=1
sanitize_start memcheck va tests/ops/test_vector_add.py
sanitize_start racecheck va tests/ops/test_vector_add.py
SANITIZE_BACKEND=tilelang sanitize_start memcheck tl-sum tests/ops/test_reduce_sum.py -k "few-one-pass"
sanitize_wait
timeout 100 python docs/runs/s60-va-row-grid-neighbours.py --switch ORT_VA_BF16 --old 0 --new 1 --dtypes bfloat16 \
  --flat > $W/neighbours.csv 2> $W/neighbours.err; echo "neighbours rc=$? ($(date +%T))"; cat $W/neighbours.csv; pack
timeout $(( $(left) - 5 )) python -m operator_runtime bench --op vector_add --backend nvidia --peers compile \
  --case flat-2^28 row-broadcast-16384^2 --out $W/winner-C > $W/winner-C.log 2>&1; echo "winner rc=$? ($(date +%T))"
ab_summary winner; rm -f $W/*/*.png; echo "== end ($(date +%T))"; pack
