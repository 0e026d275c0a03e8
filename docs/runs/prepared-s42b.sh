#!/usr/bin/env bash
# Session 42, run hc: prepared-s42a.sh again, reordered after run hb lost its B data (the call's 8-file limit on
# $OUT, and the call's timeout before the last pack). Everything is written under /tmp/w and packed into ONE tar
# in $OUT after each step. A = main, B = A's installed package with docs/runs/s41-tilelang-softmax-masked-packs.patch
# and s41-tilelang-reduce-sum-masked-rows.patch applied to its Python files (no C++ change, so no second build).
# (1) bench softmax 4096x10000 on both backends with B (A's rows are run ha's and hb's probe); (2) the length probe
# on tilelang with B twice (hb has A's twice); (3) the row-sum probe A B; (4) B's softmax and reduce_sum tests and fuzz
# on tilelang, 16-bit only (the patches move no fp32 kernel; hb ran 92 % of all dtypes, 0 failures, before its
# timeout); (5) memcheck on B's moved rows on tilelang.
R=$(realpath $OUT); W=/tmp/w; export HYPOTHESIS_PROFILE=ci
mkdir -p $W
exec > >(tee $W/console.log) 2>&1
pack() { (cd /tmp && tar cf $R/s42b.tar w); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $W/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
SP=$(python -c "import operator_runtime, os; print(os.path.dirname(operator_runtime.__file__))")
mkdir -p /tmp/srcB /tmp/B && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcB
(cd /tmp/srcB && git apply docs/runs/s41-tilelang-softmax-masked-packs.patch && \
  git apply docs/runs/s41-tilelang-reduce-sum-masked-rows.patch) && cp -r $SP /tmp/B/ && \
  cp /tmp/srcB/src/operator_runtime/tilelang/*.py /tmp/B/operator_runtime/tilelang/ && echo "B ready"
cat > /tmp/rs_probe.py <<'PY'
import sys, torch, operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda
print("variant,dtype,rows,length,us,tbps", flush=True)
for name in ("float16", "bfloat16"):
    for shape in sys.argv[2:]:
        rows, n = map(int, shape.split("x")); dtype = getattr(torch, name); nbytes = rows * n * dtype.itemsize
        xs = [torch.randn(rows, n, device="cuda", dtype=dtype) for _ in range(rotation_count(nbytes))]
        ys = [torch.empty(rows, device="cuda", dtype=dtype) for _ in xs]
        ops = [ort.prepare_reduce_sum(x, -1, out=y, backend="tilelang") for x, y in zip(xs, ys)]
        ops[0](); torch.testing.assert_close(ys[0].float(), xs[0].float().sum(-1), atol=0.5, rtol=2e-2)
        us = time_cuda(ops).median_us
        print(f"{sys.argv[1]},{name},{rows},{n},{us:.2f},{nbytes / us * 1e-6:.3f}", flush=True)
PY
B="env PYTHONPATH=/tmp/B:$PYTHONPATH"
P="4096x1000 4096x6000 4096x8200 4096x10000 4096x12296 4096x16376 4096x4096 4096x16384"
$B timeout 90 python -m operator_runtime bench --op softmax --backend nvidia tilelang --case 4096x10000 \
  --out $W/sm-B > $W/sm-B.log 2>&1; echo "bench B rc=$? ($(date +%T))"; rm -f $W/sm-B/*.png
grep -h "4096x10000" $W/sm-B/bench.md; pack
for i in 1 2; do $B timeout 60 python tests/bench/sweeps/softmax_lengths.py --backend tilelang --variant B$i $P \
  > $W/probe-B-$i.csv 2> $W/probe-B-$i.err; echo "probe B $i rc=$? ($(date +%T))"; done; cat $W/probe-B-*.csv; pack
for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH timeout 45 python /tmp/rs_probe.py rs-$v 4096x1000 1100x3000 4096x10000 4096x4096 \
    > $W/rs-probe-$v.csv 2> $W/rs-probe-$v.err; echo "rs probe $v rc=$? ($(date +%T))"; done
cat $W/rs-probe-*.csv; pack
echo "== B: 16-bit softmax and reduce_sum tests and fuzz on tilelang ($(date +%T))"
(cd /tmp/srcB && PYTHONPATH=/tmp/B:$PYTHONPATH timeout 230 python -m pytest tests/ops/test_softmax.py \
  tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k "(softmax or reduce_sum) and not float32" \
  --backend tilelang -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" \
  > $W/pytest-B.log 2>&1); echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-B.log | head; tail -1 $W/pytest-B.log; pack
echo "== memcheck, B's moved rows on tilelang ($(date +%T))"
(cd /tmp/srcB && PYTHONPATH=/tmp/B:$PYTHONPATH timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 \
  python -m pytest tests/ops/test_softmax.py tests/ops/test_reduce_sum.py \
  -k "[rows-6000- or [rows-8200- or [rows-12296- or held-384 or [rows-float16 or [rows-bfloat16 or [rows-2k-to-4k-" \
  --backend tilelang -v -p no:cacheprovider -p no:benchmark -p no:xdist > $W/memcheck-B.log 2>&1)
echo "memcheck: $(grep -cE ' PASSED' $W/memcheck-B.log) passed, $(grep -cE ' FAILED' $W/memcheck-B.log) failed; $(grep -E 'ERROR SUMMARY' $W/memcheck-B.log | tail -1)"
echo "== end ($(date +%T))"; pack
