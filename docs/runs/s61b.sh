#!/usr/bin/env bash
# Run kb (session 61). First, TileLang's few-rows rule (tl_sum.few_rows_one_pass_shape, from run ka): its reduce_sum
# tests and fuzz on the GPU, then the sweep past its row bound (8 an SM: 1056 on 132 SMs) where ka measured only 1008
# and 2016 rows, and the lengths ka did not time (3328 and 3840 halves: a warp's 13 and 3 passes); `block` is the old
# path (packed_row_shape), `packed` the descriptor with the rule. Then session 60's prepared vector_add arms
# (runs/s61-va-native-pairs.patch, made from s61b.sh): A = this tree without the patch (built into /tmp/A
# beside), B = the patch, C = the patch with ORT_VA_BF16=1; the bit-for-bit check, the vector_add tests at both switch
# values, the arms A B C once. Last, reduce_sum's row 1008x2304 on both backends.
source scripts/device_steps.sh
device_begin s61b 575
build_a
git apply docs/runs/s61-va-native-pairs.patch && echo "patch applied"
device_build
wait_a
pytest_tally tl-sum 330 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend tilelang -n 8
SHAPES="1260x2304 1512x2304 1764x2304 1260x2816 1512x2816 1764x2816 1008x3328 1008x3840 264x3840"
timeout 90 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes $SHAPES --variants block packed m128x3 m128x4 > $W/tl-bound.csv 2> $W/tl-bound.err
echo "tilelang sweep rc=$? ($(date +%T)), $(wc -l < $W/tl-bound.csv) lines"; tail -3 $W/tl-bound.err | cut -c1-200; pack
timeout 60 python docs/runs/s61-native-pairs-check.py > $W/check.log 2>&1
echo "check rc=$? ($(date +%T)): $(grep -c ' ok$' $W/check.log) ok, $(grep -c MISMATCH $W/check.log) mismatched"; pack
for v in 0 1; do
  ORT_VA_BF16=$v pytest_tally va-bf16-$v $(( $(left) - 60 )) tests/ops/test_vector_add.py tests/fuzz -k vector_add \
    --backend nvidia -n 8
done
CASES="flat-2^28 4096x4096 row-broadcast-16384^2"
PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 60 python -m operator_runtime bench --op vector_add \
  --backend nvidia --case $CASES --out $W/arms-A-1 > $W/arms-A-1.log 2>&1; echo "A 1 rc=$? ($(date +%T))"; pack
timeout 60 python -m operator_runtime bench --op vector_add --backend nvidia --case $CASES \
  --out $W/arms-B-1 > $W/arms-B-1.log 2>&1; echo "B 1 rc=$? ($(date +%T))"; pack
ORT_VA_BF16=1 timeout 60 python -m operator_runtime bench --op vector_add --backend nvidia \
  --case $CASES --out $W/arms-C-1 > $W/arms-C-1.log 2>&1; echo "C 1 rc=$? ($(date +%T))"
ab_summary arms | sort -k2,3 -k1; pack
timeout $(( $(left) - 5 )) python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang \
  --case rows-1008x2304 --out $W/sum-row > $W/sum-row.log 2>&1; echo "sum row rc=$? ($(date +%T))"
rm -f $W/*/*.png; echo "== end ($(date +%T))"; pack
