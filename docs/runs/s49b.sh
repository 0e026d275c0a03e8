#!/usr/bin/env bash
# Session 49, run ib: A = main (built into /tmp/A in the background), B = main + runs/s49-flat-wide.patch (vector_add's
# flat kernel in blocks of 1024 for fp32 / fp16 rows of at least 32 waves). (1) both builds; (2) the flat-blocks
# sweep; (3) the bench's flat-2^28 and 4096x4096 vector_add rows, A B A B; (4) memcheck and racecheck of B's flat rows
# in the background, the whole nvidia suite on B.
source scripts/device_steps.sh
device_begin ib 575
build_a
git apply .device/s49-flat-wide.patch && echo "patch applied"
device_build
wait_a
echo "== sweep vector_add_flat_blocks ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/vector_add_flat_blocks.cu -o /tmp/vafb &&
  timeout 120 /tmp/vafb > $W/vector_add_flat_blocks.csv 2> $W/vector_add_flat_blocks.err
echo "sweep rc=$? rows=$(wc -l < $W/vector_add_flat_blocks.csv) ($(date +%T))"; pack
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice va 60 45 python -m operator_runtime bench --op vector_add --backend nvidia --case flat-2^28 4096x4096 \
  --out '$AB_OUT'
W=$W python - <<'PY'
import json, glob, os
w = os.environ["W"]
for f in sorted(glob.glob(f"{w}/va-*/bench.rows.jsonl")):
    arm = f.split("/")[-2]
    for line in open(f):
        r = json.loads(line)
        print(f"{arm:6s} {r['case']:10s} {r['dtype']:9s} ours {r['us_median']:8.2f} torch {r['torch_us']:8.2f} "
              f"x{r['torch_us'] / r['us_median']:.4f}")
PY
echo "== B: sanitizers on the flat rows, the whole nvidia suite ($(date +%T), $(left) s left)"
sanitize_start memcheck va-flat tests/ops/test_vector_add.py -k "many_waves or flat"
sanitize_start racecheck va-flat tests/ops/test_vector_add.py -k "many_waves or flat"
timeout $(($(left) - 25)) python -m pytest tests --backend nvidia -n 14 -m "not lowering" -q -p no:cacheprovider \
  -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log | cut -c1-200; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
