#!/usr/bin/env bash
# Run kp (session 64). Run ko found packed_rows a warp a row (5-8 packs a lane, 50-225 blocks) erratic under the early
# trigger (the rule's: 1.7x slower than at exit at 660x1288 bf16, 1.1-1.25x faster at 528 / 1056 rows) and smooth at
# exit. The guess: Early triggers before the wait, so every following grid of the chain is launched at once and its
# blocks pile into whatever slots are free (up to 5-8 an SM), unevenly; a grid lasts as long as its most loaded SM.
# Trigger::AfterWait (runs/s64-trigger-after-wait.patch, not on main) triggers after the wait: one grid waits behind
# the running one, no more. (1) packed_rows' three triggers (ORT_LANE_TRIGGER 0 = the rule, x = exit, w = after the
# wait) at every third block count from 8 to 263, five lengths; (2) the rule's 4-8 blocks an SM region; (3) the
# bench's small rows with every Early launch of the library turned AfterWait (ORT_PDL_AFTER_WAIT=1) against main's.
source scripts/device_steps.sh
device_begin s64b 560
git apply docs/runs/s64-trigger-after-wait.patch && echo "patch applied"
device_build
ROWS=$(python -c "print(' '.join(str(8 * b) for b in range(8, 264, 3)))")
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_TRIGGER --arms 0 x w"
timeout 130 python $SWEEP --rows $ROWS --lengths 1040 1536 2048 --dtypes float16 > $W/dense16.csv 2>&1
echo "dense16 rc=$? ($(date +%T)), $(wc -l < $W/dense16.csv) lines"; pack
timeout 50 python $SWEEP --rows $ROWS --lengths 768 --dtypes float32 > $W/dense32.csv 2>&1
echo "dense32 rc=$? ($(date +%T)), $(wc -l < $W/dense32.csv) lines"; pack
timeout 40 python $SWEEP --rows 2048 3072 4080 4096 6144 --lengths 1040 1536 2048 --dtypes float16 bfloat16 \
  > $W/rule16.csv 2>&1; echo "rule16 rc=$? ($(date +%T))"; pack
switch_twice aw ORT_PDL_AFTER_WAIT "0 1" 70 python -m operator_runtime bench --backend nvidia \
  --case 144x1280 4096x128 4096x1024 tiny 1008x2304 --out '$AB_OUT'
ab_summary aw > $W/aw-summary.txt; sort -k2,3 -k1 $W/aw-summary.txt | head -80
python - "$W" <<'PY'
import csv, sys
w = sys.argv[1]
for kind in ("dense16", "dense32", "rule16"):
    try:
        rows = list(csv.DictReader(open(f"{w}/{kind}.csv")))
    except OSError:
        continue
    print(f"== {kind}: dtype n rows blocks, rule / exit / after-wait us")
    for r in rows:
        if r.get("armw_us"):
            print(r["dtype"], r["n"], r["rows"], (int(r["rows"]) + 7) // 8, r["arm0_us"], r["armx_us"], r["armw_us"])
PY
echo "== end ($(date +%T))"; pack
