#!/usr/bin/env bash
# Session 45, run hm: A = main (TileLang's warp a row at 2-4 packs a lane: .device/s45a-A/reduce_sum.py), B = this
# tree (WARP_ROW_MAX_PACKS = 8: 16-bit rows of 1032-2048 halves a warp a row at 5-8 packs a lane). Python only, so A is
# B's installed package with A's file copied over. (1) build; (2) bench reduce_sum both backends on rows-144x1280,
# 4080x1536, 4096x1024 A B A B; (3) the TileLang reduce_sum sweep, packed (B's warp a row) against block (A's kernel);
# (4) B's TileLang reduce_sum tests and fuzz; (5) memcheck on the warp-row cases; (6) ncu of our CUDA's 4080x1536
# fp16 / bf16 rows with SASS stalls (item 0j), in what is left.
source scripts/device_steps.sh
device_begin s45a 580
device_build
package_copy /tmp/A .device/s45a-A/reduce_sum.py
grep -c "WARP_ROW_MAX_PACKS = 8" /tmp/A/operator_runtime/tilelang/reduce_sum.py \
  "$(python -c 'import operator_runtime.tilelang.reduce_sum as m; print(m.__file__)')"
echo "== bench A B A B ($(date +%T), $(left) s left)"
for i in 1 2; do for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout $([ $i = 1 ] && echo 110 || echo 60) python -m operator_runtime bench \
    --op reduce_sum --backend nvidia tilelang --case rows-144x1280 rows-4080x1536 rows-4096x1024 \
    --out $W/bench-$v-$i > $W/bench-$v-$i.log 2>&1
  echo "bench $v $i rc=$? ($(date +%T))"; rm -f $W/bench-$v-$i/*.png; pack
done; done
echo "== sweep tilelang_reduce_sum, B ($(date +%T), $(left) s left)"
timeout 100 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --variants packed block --shapes 144x1280 1024x1280 4096x1280 16384x1280 144x1536 1024x1536 4080x1536 \
  16384x1536 144x2048 1024x2048 4096x2048 16384x2048 4096x1032 4096x1800 \
  > $W/tilelang_reduce_sum.csv 2> $W/tilelang_reduce_sum.err
echo "rc=$? ($(date +%T)), $(wc -l < $W/tilelang_reduce_sum.csv) lines"; pack
echo "== B: TileLang reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout 150 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k reduce_sum --backend tilelang \
  -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log; pack
echo "== B: memcheck, TileLang warp-row and lane-pack cases ($(date +%T), $(left) s left)"
timeout 70 compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest tests/ops/test_reduce_sum.py \
  -k "(warp-rows or lane-packs) and not float32" --backend tilelang -q -p no:cacheprovider -p no:benchmark \
  -p no:xdist > $W/memcheck-tilelang.log 2>&1
echo "rc=$?: $(grep -E 'passed|failed' $W/memcheck-tilelang.log | tail -1); $(grep -E 'ERROR SUMMARY' $W/memcheck-tilelang.log | tail -1)"; pack
if [ "$(left)" -gt 70 ]; then
  echo "== ncu, our CUDA rows-4080x1536 fp16 / bf16, SASS ($(date +%T), $(left) s left)"
  NCU_SASS=1 OUT=$W timeout $(( $(left) - 10 )) scripts/ncu_profile.sh "reduce-rows-4080x1536-(fp16|bf16)-ours" \
    > $W/ncu.log 2>&1; echo "rc=$?"; tail -5 $W/ncu.log
fi
echo "== end ($(date +%T))"; pack
