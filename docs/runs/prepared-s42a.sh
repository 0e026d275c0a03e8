#!/usr/bin/env bash
# Prepared in session 41, not yet run (perf-notes item 3b); copy it to .device/ (carry .device and .whl). One call,
# ~450 s: A = main, B = A's installed package with docs/runs/s41-tilelang-softmax-masked-packs.patch and
# s41-tilelang-reduce-sum-masked-rows.patch applied to its Python files (TileLang's 16-bit softmax rows and row sums
# whose packs no power of two >= 32 divides: 16-byte packs with the last ones masked, instead of the element-wise
# kernels' 2-byte accesses; no C++ change, so no second build).
# (1) B's softmax and reduce_sum tests and fuzz on tilelang; (2) bench softmax 4096x10000 on both backends A B A B
# (torch beside); (3) the length probe on tilelang A B at softmax rows the patch moves (1000, 6000, 8200, 10000,
# 12296, 16376) and at 4096x4096 / 4096x16384 (unmoved controls), and row sums of 4096x1000 / 1100x3000 / 4096x10000
# halves A B; (4) memcheck on B's moved rows on tilelang.
R=$(realpath $OUT); export HYPOTHESIS_PROFILE=ci
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s42a-b.tar b); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
SP=$(python -c "import operator_runtime, os; print(os.path.dirname(operator_runtime.__file__))")
mkdir -p /tmp/srcB /tmp/B && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcB
(cd /tmp/srcB && git apply docs/runs/s41-tilelang-softmax-masked-packs.patch && \
  git apply docs/runs/s41-tilelang-reduce-sum-masked-rows.patch) && cp -r $SP /tmp/B/ && \
  cp /tmp/srcB/src/operator_runtime/tilelang/*.py /tmp/B/operator_runtime/tilelang/ && echo "B ready"
for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH python -c "import operator_runtime.tilelang.softmax as s; print('$v', s.__file__, s.packed_threads(10000, 'float16'))"; done
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
echo "== B: softmax tests and fuzz on tilelang ($(date +%T))"
(cd /tmp/srcB && PYTHONPATH=/tmp/B:$PYTHONPATH timeout 220 python -m pytest tests/ops/test_softmax.py \
  tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k "softmax or reduce_sum" --backend tilelang -n 15 -q \
  -p no:cacheprovider -p no:benchmark -m "not lowering" \
  > $R/b/pytest-B.log 2>&1); echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $R/b/pytest-B.log | head; tail -1 $R/b/pytest-B.log; pack
P="4096x1000 4096x6000 4096x8200 4096x10000 4096x12296 4096x16376 4096x4096 4096x16384"
for i in 1 2; do for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH timeout 90 python -m operator_runtime bench --op softmax --backend nvidia tilelang \
    --case 4096x10000 --out $R/b/sm-$v-$i > $R/b/sm-$v-$i.log 2>&1; echo "bench $v $i rc=$? ($(date +%T))"
  rm -f $R/b/sm-$v-$i/*.png
  PYTHONPATH=$pp$PYTHONPATH timeout 90 python tests/bench/sweeps/softmax_lengths.py --backend tilelang \
    --variant $v$i $P > $R/b/probe-$v-$i.csv 2> $R/b/probe-$v-$i.err; echo "probe $v $i rc=$?"
  PYTHONPATH=$pp$PYTHONPATH timeout 60 python /tmp/rs_probe.py rs-$v$i 4096x1000 1100x3000 4096x10000 4096x4096 \
    > $R/b/rs-probe-$v-$i.csv 2> $R/b/rs-probe-$v-$i.err; echo "rs probe $v $i rc=$?"
done; done; pack
grep -h "4096x10000" $R/b/sm-?-?/bench.md; cat $R/b/probe-*.csv $R/b/rs-probe-*.csv | grep -v variant
echo "== memcheck, B's moved rows on tilelang ($(date +%T))"
(cd /tmp/srcB && PYTHONPATH=/tmp/B:$PYTHONPATH timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
  python -m pytest tests/ops/test_softmax.py tests/ops/test_reduce_sum.py \
  -k "[rows-6000- or [rows-8200- or [rows-12296- or held-384 or [rows-float16 or [rows-bfloat16 or [rows-2k-to-4k-" \
  --backend tilelang -v -p no:cacheprovider -p no:benchmark -p no:xdist > $R/b/memcheck-B.log 2>&1)
echo "memcheck: $(grep -cE ' PASSED' $R/b/memcheck-B.log) passed, $(grep -cE ' FAILED' $R/b/memcheck-B.log) failed; $(grep -E 'ERROR SUMMARY' $R/b/memcheck-B.log | tail -1)"
pack; echo "== end ($(date +%T))"
