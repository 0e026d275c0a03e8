#!/usr/bin/env bash
# Session 41, run ha (copy to .device/s41d.sh; carry .device and .whl): the new bench case softmax 4096x10000 on both
# backends with torch, torch.compile and Liger, from main; its tests on nvidia first.
R=$(realpath $OUT)
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s41d-b.tar b); }
echo "start $(date +%T)"
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230 TILELANG_CACHE_DIR=/tmp/tilelang-cache
timeout $((300 - SECONDS)) python -m operator_runtime bench --op softmax --backend nvidia tilelang \
  --peers liger compile --case 4096x10000 --out $R/b/softmax > $R/b/bench-softmax.log 2>&1
echo "rc=$? ($(date +%T))"; cat $R/b/softmax/bench.md; rm -f $R/b/softmax/*.png; pack
echo "== end ($(date +%T))"
