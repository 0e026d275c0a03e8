#!/usr/bin/env bash
# Session 42, run hd: TileLang's split softmax pair on parts of whole packs that are not whole 4096-element steps
# (rows past 16384 such as 20000, 24000, 40000, 100000, 200000), masked last step (B = the working tree, built)
# against the element-wise pair (A = B's installed package with main's softmax.py and descriptors.py, carried in
# .device/s42c-A/). Everything under /tmp/w, one tar in $OUT after each step (the call returns 8 files).
# (1) the length probe on tilelang B A (first B: TileLang compiles); (2) B's softmax tests and fuzz on tilelang,
# every dtype; (3) memcheck on the moved rows; (4) the probe B A again.
R=$(realpath $OUT); W=/tmp/w; export HYPOTHESIS_PROFILE=ci
mkdir -p $W
exec > >(tee $W/console.log) 2>&1
pack() { (cd /tmp && tar cf $R/s42c.tar w); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $W/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
SP=$(python -c "import operator_runtime, os; print(os.path.dirname(operator_runtime.__file__))")
mkdir -p /tmp/A && cp -r $SP /tmp/A/ && cp .device/s42c-A/*.py /tmp/A/operator_runtime/tilelang/ && echo "A ready"
P="4096x16392 4096x20000 4096x24000 1024x40000 256x100000 256x200000 1024x65536"
probe() { # variant round timeout
  pp=""; [ $1 = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout $3 python tests/bench/sweeps/softmax_lengths.py --backend tilelang \
    --dtypes float16,bfloat16,float32 --variant $1$2 $P > $W/probe-$1-$2.csv 2> $W/probe-$1-$2.err
  echo "probe $1 $2 rc=$? ($(date +%T))"; pack; }
probe B 1 120; probe A 1 90; cat $W/probe-?-1.csv
echo "== B: softmax tests and fuzz on tilelang ($(date +%T))"
timeout 200 python -m pytest tests/ops/test_softmax.py tests/fuzz tests/tilelang -k softmax --backend tilelang -n 15 \
  -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-B.log 2>&1; echo "rc=$? ($(date +%T))"
grep -E "^(FAILED|ERROR)" $W/pytest-B.log | head; tail -1 $W/pytest-B.log; pack
echo "== memcheck, B's moved rows on tilelang ($(date +%T))"
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest tests/ops/test_softmax.py \
  -k "split-masked or [rows-24000- or [rows-40000-" --backend tilelang -v -p no:cacheprovider -p no:benchmark \
  -p no:xdist > $W/memcheck-B.log 2>&1
echo "memcheck: $(grep -cE ' PASSED' $W/memcheck-B.log) passed, $(grep -cE ' FAILED' $W/memcheck-B.log) failed; $(grep -E 'ERROR SUMMARY' $W/memcheck-B.log | tail -1)"
pack
probe B 2 45; probe A 2 45; cat $W/probe-?-2.csv
echo "== end ($(date +%T))"; pack
