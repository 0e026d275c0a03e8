#!/usr/bin/env bash
# Prepared in session 61 (CPU only; not yet run): TileLang's few-rows bound (tl_sum.FEW_ROWS_PER_SM = 8, landed from
# runs ka / kb). The sweep now offers `block` (the pass before the rule) at every 16-bit row of whole packs, so this
# times the rule's one pass (`packed` at <= 8 rows an SM, m128x3 / m128x4 past it) beside the old pass at the four
# lengths the rule takes (2304, 2816, 3328, 3840 halves: a warp's 3, 11, 13, 3 passes) from 528 to 2640 rows, both
# 16-bit dtypes; then the SASS of vector_add's flat<bf16, 8, 2, 1024> against fp16's (perf-notes, session 61, next 3).
# First, session 61's bit-for-bit vector_add test on nvidia and TileLang. About 4-5 min after a cold start (TileLang compiles every kernel: no cache).
source scripts/device_steps.sh
device_begin s62a 560
device_build
# session 61's bit-for-bit test (added after its last call): on both GPU backends first, a few seconds each
for b in nvidia tilelang; do
  pytest_tally exact-$b 400 tests/ops/test_vector_add.py -k bit_for_bit --backend $b -n 8
done
ROWS="528 1056 1320 1584 1848 2112 2640"
SHAPES=$(for n in 2304 2816 3328 3840; do for r in $ROWS; do printf "%sx%s " $r $n; done; done)
timeout $(( $(left) - 60 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes $SHAPES --variants packed block m128x3 m128x4 > $W/tl-bound.csv 2> $W/tl-bound.err
echo "tilelang sweep rc=$? ($(date +%T)), $(wc -l < $W/tl-bound.csv) lines"; tail -3 $W/tl-bound.err | cut -c1-200; pack
SO=$(python -c "import operator_runtime, glob, os; print(glob.glob(os.path.dirname(operator_runtime.__file__) + '/_C*.so')[0])")
cuobjdump -sass "$SO" > $W/va.sass 2>&1; echo "cuobjdump rc=$?"
for t in half bfloat16; do
  grep -n "Function : .*flat.*${t}.*Li8ELi2ELi1024E" $W/va.sass | head -2
done
echo "== end ($(date +%T))"; pack
