#!/usr/bin/env bash
# Prepared in session 42, not yet run (perf-notes item 3b, "Left"); copy it to .device/ (carry .device and .whl). One
# call, ~480 s. (1) The TileLang softmax suite and fuzz on tilelang, every dtype, with a 300 s bound (run hd cut it at
# 200 s with 16 of 1 048 tests not reached); (2) the one-pass packed kernel's block sizes at the masked rows and at
# 16384 (tests/bench/sweeps/tilelang_softmax_cluster.py's onepass_t<threads> variants beside the library's choice),
# fp16 at every shape, bf16 at two. Everything under /tmp/w, one tar in $OUT after each step (8 files at most).
R=$(realpath $OUT); W=/tmp/w; export HYPOTHESIS_PROFILE=ci
mkdir -p $W
exec > >(tee $W/console.log) 2>&1
pack() { (cd /tmp && tar cf $R/s43a.tar w); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $W/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
echo "== softmax tests and fuzz on tilelang ($(date +%T))"
timeout 300 python -m pytest tests/ops/test_softmax.py tests/fuzz tests/tilelang -k softmax --backend tilelang -n 15 \
  -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest.log 2>&1; echo "rc=$? ($(date +%T))"
grep -E "^(FAILED|ERROR)" $W/pytest.log | head; tail -1 $W/pytest.log; pack
S=tests/bench/sweeps/tilelang_softmax_cluster.py
timeout 120 python $S --dtypes float16 --shapes 4096x8200 4096x10000 4096x12296 > $W/onepass-1.csv 2> $W/onepass-1.err
echo "sweep 1 rc=$? ($(date +%T))"; pack
timeout 90 python $S --dtypes float16 --shapes 4096x6000 4096x16376 4096x16384 > $W/onepass-2.csv 2> $W/onepass-2.err
echo "sweep 2 rc=$? ($(date +%T))"; pack
timeout 60 python $S --dtypes bfloat16 --shapes 4096x10000 4096x12296 --variants library onepass_t256 \
  > $W/onepass-3.csv 2> $W/onepass-3.err; echo "sweep 3 rc=$? ($(date +%T))"
cat $W/onepass-?.csv; echo "== end ($(date +%T))"; pack
