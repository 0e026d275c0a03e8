#!/usr/bin/env bash
# Prepared in session 60 (CPU only; not yet run): vector_add's 16-bit packs added in hardware (add.f16x2 / add.bf16x2,
# runs/s61-va-native-pairs.patch), the way Inductor adds its bf16 row broadcast (run ju). ptxas on the CPU, the build's
# flags: bf16 row_grid<8, 2 packs> 60 -> 50 registers (10 blocks of 128 an SM instead of 8, as fp32 and fp16 already
# have), bf16 flat<8, 2> 56 -> 36, fp16 about the same (48 -> 50, 40 -> 38). ORT_VA_BF16=1 (read at create) also lets
# bf16 take row_grid on large plans and flat's blocks of 1024, which its registers kept it from. Arms: A = main (built
# into /tmp/A beside), B = the patch, C = the patch with ORT_VA_BF16=1. This call: build both, the bit-for-bit check
# against torch, the vector_add tests at both switch values, then A B C once; runs/s61c-prepared.sh (the next call,
# warm) runs C B A. The bench command has not run with these cases alone: the first arm gets the call's rest.
source scripts/device_steps.sh
device_begin s61b 575
build_a
git apply docs/runs/s61-va-native-pairs.patch && echo "patch applied"
device_build
wait_a
timeout 120 python docs/runs/s61-native-pairs-check.py > $W/check.log 2>&1
echo "check rc=$? ($(date +%T)): $(grep -c ' ok$' $W/check.log) ok, $(grep -c MISMATCH $W/check.log) mismatched"; pack
for v in 0 1; do
  ORT_VA_BF16=$v pytest_tally va-bf16-$v $(( $(left) - 90 )) tests/ops/test_vector_add.py tests/fuzz -k vector_add \
    --backend nvidia -n 8
done
CASES="flat-2^28 4096x4096 row-broadcast-16384^2"
PYTHONPATH="$A_DIR:$PYTHONPATH" timeout $(( $(left) - 10 )) python -m operator_runtime bench --op vector_add \
  --backend nvidia --case $CASES --out $W/arms-A-1 > $W/arms-A-1.log 2>&1; echo "A 1 rc=$? ($(date +%T))"; pack
timeout $(( $(left) - 10 )) python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES \
  --out $W/arms-B-1 > $W/arms-B-1.log 2>&1; echo "B 1 rc=$? ($(date +%T))"; pack
ORT_VA_BF16=1 timeout $(( $(left) - 5 )) python -m operator_runtime bench --op vector_add --backend nvidia \
  --case $CASES --out $W/arms-C-1 > $W/arms-C-1.log 2>&1; echo "C 1 rc=$? ($(date +%T))"
ab_summary arms | sort -k2,3 -k1; echo "== end ($(date +%T))"; pack
