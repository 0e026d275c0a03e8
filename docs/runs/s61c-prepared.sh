#!/usr/bin/env bash
# Prepared in session 60 (CPU only; not yet run): the second half of runs/s61b.sh, on the machine it left warm
# (A_DIR=/tmp/A from it; rebuilt here if missing): arms C B A, then, if time is left, the winner beside torch.compile.
source scripts/device_steps.sh
device_begin s61c 575
[ -d "$A_DIR/operator_runtime" ] || { build_a; A_REBUILT=1; }
git apply docs/runs/s61-va-native-pairs.patch && echo "patch applied"
device_build
[ -n "${A_REBUILT:-}" ] && wait_a
CASES="flat-2^28 4096x4096 row-broadcast-16384^2"
ORT_VA_BF16=1 timeout 150 python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES \
  --out $W/arms-C-2 > $W/arms-C-2.log 2>&1; echo "C 2 rc=$? ($(date +%T))"; pack
timeout 150 python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES --out $W/arms-B-2 \
  > $W/arms-B-2.log 2>&1; echo "B 2 rc=$? ($(date +%T))"; pack
PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 150 python -m operator_runtime bench --op vector_add --backend nvidia \
  --case $CASES --out $W/arms-A-2 > $W/arms-A-2.log 2>&1; echo "A 2 rc=$? ($(date +%T))"; pack
ab_summary arms | sort -k2,3 -k1
# read the arms first: C is the guess (bf16 through row_grid and flat's 1024, at 10 blocks an SM)
[ "$(left)" -gt 100 ] && ORT_VA_BF16=1 timeout $(( $(left) - 10 )) python -m operator_runtime bench --op vector_add \
  --backend nvidia --peers compile --case $CASES --out $W/winner-C > $W/winner-C.log 2>&1
ab_summary winner; echo "== end ($(date +%T))"; pack
