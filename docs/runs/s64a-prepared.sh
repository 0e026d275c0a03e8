#!/usr/bin/env bash
# Run as ko in session 64 (runs/tests-h200-2026-12-04-ko-ks.md; data reduce-sum-lane-trigger-window-h200-2026-12-04-ko.csv).
# Prepared in session 63 (CPU only; not yet run). Session 63's runs kn / kn2 found our CUDA packed_rows, a warp a row at
# 5-8 packs a lane, 1.07-1.62x faster with its PDL trigger at exit than with the rule's early trigger at 1008-1320
# rows (about one block an SM), and 13-24 % slower at 264-528 rows. This sweeps the window before any rule is written:
# the experiment switch ORT_LANE_TRIGGER (runs/s63-rs-lane-trigger-switch.patch: x = exit, read at create) against
# the rule (0), over 5-8 packs a lane (16-bit 1040-2048 halves, fp32 520-1024) and, as controls, 3-4 packs (768 and
# 1024 halves, where session 46's run hp found exit slower), at 400-1800 rows; every shape twice (each repeat times the
# two arms A B B A in one process, as the bench times: prepared calls replayed in a CUDA graph, inputs rotated out of
# L2). About 4 min after a cold start. Write the predictions into perf-notes before the call.
source scripts/device_steps.sh
device_begin s64a 560
git apply docs/runs/s63-rs-lane-trigger-switch.patch && echo "switch applied"
device_build
ROWS="400 528 660 792 924 1008 1056 1188 1320 1452 1584 1800"
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_TRIGGER --arms 0 x --rows $ROWS"
for rep in 1 2; do
  timeout 120 python $SWEEP --lengths 768 1024 1040 1288 1536 1800 2048 --dtypes float16 bfloat16 \
    > $W/window16-$rep.csv 2>&1; echo "16-bit $rep rc=$? ($(date +%T)), $(wc -l < $W/window16-$rep.csv) lines"; pack
  timeout 60 python $SWEEP --lengths 520 640 768 900 1024 --dtypes float32 > $W/window32-$rep.csv 2>&1
  echo "fp32 $rep rc=$? ($(date +%T)), $(wc -l < $W/window32-$rep.csv) lines"; pack
done
# Each shape's exit / rule ratio in both repeats, the cells where the two repeats agree on the sign marked
python - "$W" <<'PY'
import csv, sys
w = sys.argv[1]
for kind in ("window16", "window32"):
    reps = [{(r["dtype"], r["n"], r["rows"]): float(r["arm0_us"]) / float(r["armx_us"])
             for r in csv.DictReader(open(f"{w}/{kind}-{i}.csv")) if r.get("armx_us")} for i in (1, 2)]
    print(f"== {kind}: dtype n rows, rule / exit in repeat 1 and 2, the faster where both agree by 3 %")
    for key in sorted(reps[0], key=lambda k: (k[0], int(k[1]), int(k[2]))):
        a, b = reps[0][key], reps[1].get(key, float("nan"))
        print(*key, f"{a:.3f}", f"{b:.3f}", "exit" if min(a, b) > 1.03 else "rule" if max(a, b) < 0.97 else "-")
PY
echo "== end ($(date +%T))"; pack
