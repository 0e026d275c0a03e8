#!/usr/bin/env bash
# Run kf (session 62): the few-rows bound by the warp's passes (tl_sum.few_rows_one_pass_shape: 10 rows an SM at three
# passes, 20 at eleven or more; from run ke). TileLang's reduce_sum tests and fuzz with memcheck of the rule's cases
# beside them; the new cases on nvidia; the library's own choice (`packed`) beside the old pass (`block`) at the
# shapes the bound moved; then the benches of the two ops sessions 60-62 changed (reduce_sum, vector_add), both
# backends, every peer, from this one build.
source scripts/device_steps.sh
device_begin s62b 585
device_build
SANITIZE_BACKEND=tilelang sanitize_start memcheck tl tests/ops/test_reduce_sum.py -k few-one-pass
pytest_tally tl-reduce-sum 370 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend tilelang -n 8
sanitize_wait
pytest_tally nv-few 340 tests/ops/test_reduce_sum.py -k few-one-pass --backend nvidia -n 4
timeout $(( $(left) - 300 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes 1320x2304 1320x3840 1584x2816 2112x2816 2640x2816 1584x3328 2640x3328 --variants packed block \
  > $W/tl-bound-landed.csv 2> $W/tl-bound-landed.err
echo "sweep rc=$? ($(date +%T)), $(wc -l < $W/tl-bound-landed.csv) lines"; tail -2 $W/tl-bound-landed.err | cut -c1-200; pack
bench_ops reduce_sum vector_add
echo "== end ($(date +%T))"; pack
