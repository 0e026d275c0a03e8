#!/usr/bin/env bash
# Session 41, run gv (copy to .device/s41b.sh; carry .device and .whl). One build of main + the experiment switch
# docs/runs/s41-softmax-held-shapes-switch.patch (ORT_S41_HELD, read at create: 16-bit held rows of <= 12288 as
# 1 = 512 x 3, 2 = 384 x 4; unset or 0 = main's 512 x 4):
# (1) the switch's tests on nvidia (rows 8200 / 12288 / 12296 / 16384, every form) for 0, 1, 2;
# (2) the length probe over 8200-12296 with 0 1 2 0 1 2 (one build, one call);
# (3) memcheck and racecheck with 1 and 2 on the held rows;
# (4) ncu of main's held kernel at 4096x8200 / 4096x12296 / 4096x16384, fp16 beside bf16 (bf16 ran 6-16 % behind
#     fp16 at the masked lengths in run gu's probe, level at 16384).
R=$(realpath $OUT); export HYPOTHESIS_PROFILE=ci
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s41b-b.tar b); }
echo "start $(date +%T)"
git apply docs/runs/s41-softmax-held-shapes-switch.patch && echo "switch applied"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230
K="rows-8200- or rows-12288- or rows-12296- or rows-16384- or held"
for h in 0 1 2; do
  ORT_S41_HELD=$h timeout 90 python -m pytest tests/ops/test_softmax.py -k "$K" --backend nvidia -n 15 -q \
    -p no:cacheprovider -p no:benchmark > $R/b/pytest-h$h.log 2>&1
  echo "tests h$h rc=$? $(tail -1 $R/b/pytest-h$h.log) ($(date +%T))"; grep -E "^(FAILED|ERROR)" $R/b/pytest-h$h.log | head -5
done; pack
P="4096x8200 4096x9216 4096x10240 4096x11264 4096x12288 4096x12296 8192x8200 8192x12288 4096x16384"
for i in 1 2; do for h in 0 1 2; do
  ORT_S41_HELD=$h timeout 60 python tests/bench/sweeps/softmax_lengths.py --variant h$h-$i $P \
    > $R/b/probe-h$h-$i.csv 2> $R/b/probe-h$h-$i.err; echo "probe h$h $i rc=$? ($(date +%T))"
done; done; pack
echo "== memcheck and racecheck, switch 1 and 2 ($(date +%T))"
K2="rows-8200- or rows-12288- or rows-12296-"
for h in 1 2; do for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  ORT_S41_HELD=$h timeout 150 compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_softmax.py -k "$K2" --backend nvidia -v -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $R/b/$tool-h$h.log 2>&1 &
done; done
for j in $(jobs -p); do wait $j; done
for h in 1 2; do for tool in memcheck racecheck; do
  echo "$tool h$h: $(grep -cE ' PASSED' $R/b/$tool-h$h.log) passed, $(grep -cE ' FAILED' $R/b/$tool-h$h.log) failed; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/b/$tool-h$h.log | tail -1)"
done; done; pack
echo "== ncu, main's held kernel ($(date +%T))"
cat > /tmp/one.py <<'PY'
import sys, torch, operator_runtime as ort
rows, n = map(int, sys.argv[1].split("x")); dt = getattr(torch, sys.argv[2])
x = torch.randn(rows, n, device="cuda", dtype=dt); y = torch.empty_like(x)
op = ort.prepare_softmax(x, -1, out=y, backend="nvidia"); op(); op(); torch.cuda.synchronize()
torch.cuda.profiler.start(); op(); torch.cuda.synchronize(); torch.cuda.profiler.stop()
PY
mkdir -p $R/b/ncu
for s in 4096x8200 4096x12296 4096x16384; do for d in float16 bfloat16; do
  [ $SECONDS -gt 540 ] && break
  ncu --profile-from-start off --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct --csv --page raw \
    python /tmp/one.py $s $d > $R/b/ncu/held-$s-$d.csv 2> $R/b/ncu/held-$s-$d.err; echo "ncu $s $d rc=$?"
done; done
python -m operator_runtime_testing.ncu_summary $R/b/ncu/*.csv > $R/b/ncu-summary.md 2>&1; cat $R/b/ncu-summary.md
pack; echo "== end ($(date +%T))"
