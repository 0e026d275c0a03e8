#!/usr/bin/env bash
# Run ks (session 64): the landed rules (lane_packs_after_wait, packed_rows_after_wait) on the H200: reduce_sum tests +
# fuzz, memcheck and racecheck of the short / packed / lane cases (the new edge cases among them), the landed build
# over a few shapes inside and outside the windows (its numbers against run kr's 0 and w columns), and the bench's
# small reduce_sum rows (none is inside a window: each should read as kr's 0 arm).
source scripts/device_steps.sh
device_begin s64e 200
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally rs 120 tests/ops/test_reduce_sum.py tests/fuzz tests/test_cuda_launch.py -k "reduce_sum or after_wait or lane" --backend nvidia -n 6
SWEEP="docs/runs/s58-few-rows-sweep.py --arms 0"
timeout 25 python $SWEEP --rows 144 184 544 1064 --lengths 1040 --dtypes float16 > $W/lanes.csv 2>&1
timeout 25 python $SWEEP --rows 1024 12288 16384 32768 --lengths 32 --dtypes float32 bfloat16 > $W/packed.csv 2>&1
echo "sweeps ($(date +%T))"; cat $W/lanes.csv $W/packed.csv; pack
timeout 40 python -m operator_runtime bench --op reduce_sum --backend nvidia --case 144x1280 4096x128 4096x1024 \
  4080x1536 1008x2304 --out $W/bench > $W/bench.log 2>&1; echo "bench rc=$? ($(date +%T))"; pack
sanitize_wait
W=$W python - <<'PY'
import json, os
for line in open(f"{os.environ['W']}/bench/bench.rows.jsonl"):
    r = json.loads(line)
    print(r["case"], r["dtype"], r["us_median"], r["torch_us"])
PY
echo "== end ($(date +%T))"; pack
