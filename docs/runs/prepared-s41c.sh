#!/usr/bin/env bash
# Session 41, run gw (copy to .device/s41c.sh; carry .device and .whl): main with 16-bit held rows of 8193-12288 as
# online_held 384 x 4. (1) softmax tests and fuzz on nvidia; (2) memcheck and racecheck on every held row's tests
# (8200 / 12288 / 12296 / 16384 and the -inf/NaN rows); (3) the length probe at run gv's shapes (should read gv's
# switch 2 up to 12288 and switch 0 beyond); (4) bench softmax on both backends with torch, torch.compile and Liger
# (TileLang's kernels from run gm's cache), to refresh the softmax rows of the targets table from one build.
R=$(realpath $OUT); export HYPOTHESIS_PROFILE=ci
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s41c-b.tar b); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build rc=$? ($(date +%T))"; grep "tilelang cache" $R/b/build.log
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
timeout 150 python -m pytest tests/ops/test_softmax.py tests/fuzz -k softmax --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $R/b/pytest.log 2>&1
echo "tests rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $R/b/pytest.log | head; tail -1 $R/b/pytest.log; pack
K="rows-8200- or rows-12288- or rows-12296- or rows-16384- or held"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  timeout 150 compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest tests/ops/test_softmax.py \
    -k "$K" --backend nvidia -v -p no:cacheprovider -p no:benchmark -p no:xdist > $R/b/$tool.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(grep -cE ' PASSED' $R/b/$tool.log) passed, $(grep -cE ' FAILED' $R/b/$tool.log) failed; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/b/$tool.log | tail -1)"
done; pack
P="4096x8200 4096x9216 4096x10240 4096x11264 4096x12288 4096x12296 8192x8200 8192x12288 4096x16384"
timeout 60 python tests/bench/sweeps/softmax_lengths.py --variant landed $P > $R/b/probe.csv 2> $R/b/probe.err
echo "probe rc=$? ($(date +%T))"; cat $R/b/probe.csv; pack
echo "== bench softmax, nvidia and tilelang, every peer ($(date +%T))"
timeout $((585 - SECONDS)) python -m operator_runtime bench --op softmax --backend nvidia tilelang \
  --peers liger compile --out $R/b/softmax > $R/b/bench-softmax.log 2>&1
echo "rc=$? rows=$(wc -l < $R/b/softmax/bench.rows.jsonl)"; grep -E "geomean|skipped|peer" $R/b/bench-softmax.log | head
rm -f $R/b/softmax/*.png; pack
echo "== end ($(date +%T))"
