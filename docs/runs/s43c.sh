#!/usr/bin/env bash
# Session 43, run hg: landing TileLang's one-pass kernel in blocks of at most 256 and a warp a row for 16-bit rows of
# 264-1024 (softmax and reduce_sum). B = the working tree (built), A = B's installed package with main's softmax.py,
# reduce_sum.py and descriptors.py (.device/s43c-A/). Everything under /tmp/w, one tar in $OUT after each step.
# (1) build; (2) compile A's and B's kernels for the bench rows and the probe in parallel (nothing timed);
# (3) bench B A on both backends; (4) the length probe (softmax, row sums) B A; (5) B's TileLang softmax and
# reduce_sum tests and fuzz, bounded by what is left of the call; (6) memcheck on the moved rows if time is left.
START=$(date +%s); R=$(realpath $OUT); W=/tmp/w; export HYPOTHESIS_PROFILE=ci
left() { echo $((START + 575 - $(date +%s))); }
mkdir -p $W
exec > >(tee $W/console.log) 2>&1
pack() { (cd /tmp && tar cf $R/s43c.tar w); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $W/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
SP=$(python -c "import operator_runtime, os; print(os.path.dirname(operator_runtime.__file__))")
mkdir -p /tmp/A && cp -r $SP /tmp/A/ && cp .device/s43c-A/*.py /tmp/A/operator_runtime/tilelang/ && echo "A ready"
PS="4096x264 4096x520 4096x768 4096x1000 4096x1024 16384x512 131072x512 131072x1024 256x1024 4096x8200 4096x12296 4096x16384"
PR="4096x264 4096x520 4096x768 4096x1000 4096x1024 16384x512 131072x512 131072x1024 256x1024"
CASES="--case 4096x1024 4096x10000 4096x16384 rows-4096x1024"
probe() { # build op label shapes...
  local pp=""; [ $1 = A ] && pp=/tmp/A:; local v=$1 op=$2 label=$3; shift 3
  PYTHONPATH=$pp$PYTHONPATH python tests/bench/sweeps/softmax_lengths.py --backend tilelang --op $op \
    --dtypes float16,bfloat16 --variant $label "$@"; }
export -f probe
echo "== compile ($(date +%T))"
(for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout 150 python scripts/warm_tilelang_cache.py --op softmax reduce_sum $CASES --jobs 4 \
    > $W/warm-$v.log 2>&1 & done
 { for v in A B; do for s in $PS; do echo "$v softmax $s"; done; for s in $PR; do echo "$v reduce_sum $s"; done; done; } |
   xargs -P 10 -L 1 bash -c 'timeout 150 bash -c "probe $0 $1 warm $2" > /dev/null 2>> /tmp/w/warm-probe.err'
 wait); echo "compiled ($(date +%T)); $(grep -c FAILED $W/warm-?.log) failed warm-ups"; tail -1 $W/warm-?.log; pack
bench() { local pp=""; [ $1 = A ] && pp=/tmp/A:
  for op in softmax reduce_sum; do
    PYTHONPATH=$pp$PYTHONPATH timeout 100 python -m operator_runtime bench --op $op --backend nvidia tilelang $CASES \
      --out $W/$op-$1$2 > $W/$op-$1$2.log 2>&1; echo "bench $op $1$2 rc=$? ($(date +%T))"; rm -f $W/$op-$1$2/*.png
  done; pack; }
bench B 1; bench A 1
for v in B A; do timeout 90 bash -c "probe $v softmax $v $PS" > $W/probe-sm-$v.csv 2> $W/probe-sm-$v.err
  echo "probe softmax $v rc=$? ($(date +%T))"; timeout 60 bash -c "probe $v reduce_sum $v $PR" > $W/probe-rs-$v.csv \
  2> $W/probe-rs-$v.err; echo "probe reduce_sum $v rc=$? ($(date +%T))"; pack; done
echo "== B: TileLang softmax and reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 70 )) python -m pytest tests/ops/test_softmax.py tests/ops/test_reduce_sum.py tests/fuzz \
  tests/tilelang -k "softmax or reduce_sum" --backend tilelang -n 15 -q -p no:cacheprovider -p no:benchmark \
  -m "not lowering" > $W/pytest-B.log 2>&1; echo "rc=$? ($(date +%T))"
grep -E "^(FAILED|ERROR)" $W/pytest-B.log | head; tail -1 $W/pytest-B.log; pack
echo "== memcheck, B's moved rows on tilelang ($(date +%T), $(left) s left)"
timeout $(( $(left) - 5 )) compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest tests/ops/test_softmax.py \
  tests/ops/test_reduce_sum.py -k "warp-rows or [rows-1024- or [rows-512- or [rows-8200- or [rows-16384-" \
  --backend tilelang -v -p no:cacheprovider -p no:benchmark -p no:xdist > $W/memcheck-B.log 2>&1
echo "memcheck: $(grep -cE ' PASSED' $W/memcheck-B.log) passed, $(grep -cE ' FAILED' $W/memcheck-B.log) failed; $(grep -E 'ERROR SUMMARY' $W/memcheck-B.log | tail -1)"
echo "== end ($(date +%T))"; pack
