#!/usr/bin/env bash
# Session 43, run hh: the landed tree after run hg (softmax's warp rows narrowed to grids of at least an 8-row block
# an SM and to rows whose one-pass block is wider than a warp: softmax.warp_rows_packs; new cases at 1100 rows).
# (1) build; (2) the TileLang softmax and reduce_sum tests and fuzz, 16-bit (no fp32 kernel moved), bounded by what
# is left of the call; (3) memcheck on the warp rows' cases. One tar in $OUT after each step.
START=$(date +%s); R=$(realpath $OUT); W=/tmp/w; export HYPOTHESIS_PROFILE=ci
left() { echo $((START + 440 - $(date +%s))); }
mkdir -p $W
exec > >(tee $W/console.log) 2>&1
pack() { (cd /tmp && tar cf $R/s43d.tar w); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $W/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
echo "== TileLang 16-bit softmax and reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 45 )) python -m pytest tests/ops/test_softmax.py tests/ops/test_reduce_sum.py tests/fuzz \
  tests/tilelang -k "(softmax or reduce_sum) and not float32" --backend tilelang -n 15 -q -p no:cacheprovider \
  -p no:benchmark -m "not lowering" > $W/pytest.log 2>&1; echo "rc=$? ($(date +%T))"
grep -E "^(FAILED|ERROR)" $W/pytest.log | head; tail -1 $W/pytest.log; pack
echo "== memcheck, the warp rows on tilelang ($(date +%T), $(left) s left)"
timeout $(( $(left) - 3 )) compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest tests/ops/test_softmax.py \
  tests/ops/test_reduce_sum.py -k "warp-rows and not float32" --backend tilelang -v -p no:cacheprovider \
  -p no:benchmark -p no:xdist > $W/memcheck.log 2>&1
echo "memcheck: $(grep -cE ' PASSED' $W/memcheck.log) passed, $(grep -cE ' FAILED' $W/memcheck.log) failed; $(grep -E 'ERROR SUMMARY' $W/memcheck.log | tail -1)"
echo "== end ($(date +%T))"; pack
