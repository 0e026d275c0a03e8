#!/usr/bin/env bash
# Session 49, run ia: (1) build main plus the experiment switch ORT_VA_FLAT_BLOCK (runs/s49a-flat-block-switch.patch) (vector_add's flat kernel, large
# plans: threads a block, read at create); (2) the bench's contiguous vector_add rows against torch, arms 128 / 512 /
# 1024 threads, twice; (3) racecheck over the four fp32 many-rounds softmax tests run hy's bound cut, beside the
# TileLang suite plain.
source scripts/device_steps.sh
device_begin ia 575
device_build
for i in 1 2; do
  for blk in 128 512 1024; do
    ORT_VA_FLAT_BLOCK=$blk timeout $([ $i = 1 ] && echo 70 || echo 50) python -m operator_runtime bench --op vector_add \
      --backend nvidia --case flat-2^28 4096x4096 1008x2304 --out $W/va-$blk-$i > $W/va-$blk-$i.log 2>&1
    echo "va $blk $i rc=$? ($(date +%T))"; rm -f $W/va-$blk-$i/*.png
  done
  pack
done
W=$W python - <<'PY'
import json, glob, os
w = os.environ.get("W", "/tmp/w")
for f in sorted(glob.glob(f"{w}/va-*/bench.rows.jsonl")):
    arm = f.split("/")[-2]
    for line in open(f):
        r = json.loads(line)
        print(f"{arm:10s} {r['case']:12s} {r['dtype']:9s} ours {r['us_median']:8.2f} torch {r['torch_us']:8.2f} "
              f"x{r['torch_us'] / r['us_median']:.4f}")
PY
echo "== racecheck, the four tests hy did not reach, beside the TileLang suite ($(date +%T), $(left) s left)"
for k in 8 16; do
  sanitize_start racecheck softmax-f32-rounds-$k tests/ops/test_softmax.py \
    -k "long_rows_over_many_rounds and contiguous-$k- and float32"
done
timeout $(($(left) - 25)) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 14 -m "not lowering" \
  -q -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log | cut -c1-200
echo "passed dots: $(tr -cd '.' < $W/pytest-tilelang.log | wc -c), F: $(tr -cd 'F' < $W/pytest-tilelang.log | wc -c)"; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
