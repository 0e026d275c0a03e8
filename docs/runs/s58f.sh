#!/usr/bin/env bash
# Run jo (session 58): the rows run jn sped up on nvidia, with TileLang beside (the target: TileLang >= 0.8x our CUDA).
source scripts/device_steps.sh
device_begin s58f 330
device_build
timeout $(( $(left) - 15 )) python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang \
  --case rows-1008x2304 rows-4096x4096 rows-32768x4096 --out $W/tl > $W/tl.log 2>&1
echo "bench rc=$? ($(date +%T))"; rm -f $W/tl/*.png
W=$W python - <<'PY'
import json, os
rows = [json.loads(l) for l in open(f"{os.environ['W']}/tl/bench.rows.jsonl")]
by = {(r["case"], r["dtype"], r["backend"]): r for r in rows}
for (case, dtype, backend), r in sorted(by.items()):
    if backend != "tilelang": continue
    n = by.get((case, dtype, "nvidia"))
    print(f"{case:16s} {dtype:9s} tilelang {r['us_median']:7.2f} nvidia {n['us_median'] if n else 0:7.2f} "
          f"tilelang/nvidia speed {n['us_median'] / r['us_median'] if n else 0:.3f} torch {r['torch_us']:7.2f}")
PY
echo "== end ($(date +%T))"; pack
