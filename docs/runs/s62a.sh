#!/usr/bin/env bash
# Run ke (session 62; prepared in session 61 as s62a-prepared.sh, trimmed before the call). TileLang's few-rows bound
# (tl_sum.FEW_ROWS_PER_SM = 8, landed from runs ka / kb): the rule's one masked pass (m128x3 at 2304 / 2816 halves,
# m128x4 at 3328 / 3840) beside the old pass (`block`: packed_row_shape's warp, 3 / 11 / 13 / 3 passes) from 1056 to
# 2640 rows, both 16-bit dtypes (the library's own `packed` is one of the two at every shape, so it is not timed again);
# then the SASS of vector_add's flat<bf16, 8, 2, 1024> against fp16's (perf-notes, session 61, next 3).
# First, session 61's bit-for-bit vector_add test (added after its last call) on nvidia and TileLang.
source scripts/device_steps.sh
device_begin s62a 560
device_build
for b in nvidia tilelang; do
  pytest_tally exact-$b 330 tests/ops/test_vector_add.py -k bit_for_bit --backend $b -n 8
done
ROWS="1056 1320 1584 1848 2112 2640"
shapes() { for n in "$@"; do for r in $ROWS; do printf "%sx%s " $r $n; done; done; }
for group in "2304 2816:m128x3" "3328 3840:m128x4"; do
  timeout $(( $(left) - 40 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
    --shapes $(shapes ${group%:*}) --variants block ${group#*:} >> $W/tl-bound.csv 2>> $W/tl-bound.err
  echo "tilelang sweep ${group} rc=$? ($(date +%T)), $(wc -l < $W/tl-bound.csv) lines"; tail -2 $W/tl-bound.err | cut -c1-200
  pack
done
SO=$(python -c "import operator_runtime, glob, os; print(glob.glob(os.path.dirname(operator_runtime.__file__) + '/_C*.so')[0])")
# Only the two functions: the whole dump (700 930 lines in run ke) put the call's tar over the 16 MiB a file comes back with
for t in half_t bfloat16_t; do
  cuobjdump -sass "$SO" | awk -v f="flat.*${t}ELi8ELi2ELi1024E" '/Function :/ {on = ($0 ~ f)} on' > $W/flat-$t.sass
  echo "cuobjdump $t rc=$? $(wc -l < $W/flat-$t.sass) lines"
done
echo "== end ($(date +%T))"; pack
