#!/usr/bin/env bash
# Prepared in session 68 (CPU only; not yet run): perf-notes session 68, "For the next session" item 2. Hypothesis:
# early beats "after the wait" for a lane-row grid exactly where the SMs' slots (SMs x resident blocks) hold a whole
# number of grids with less than an eighth of a grid left over, so that a chain of early-triggered grids tiles the
# slots (1056 slots at 8 blocks an SM: 175-176, 207-211, 257-264 blocks; at 6 an SM, fp16 rows of 6 packs, 113 and
# 196; at 5, fp16 rows of 8 packs, 161 and 217): every loss of "after the wait" inside a window in runs kr, kv, ku,
# lf, lg, lk and ll but fp32's at 203 and 245. The switch runs/s68-lane-tiles-switch.patch (ORT_LANE_TILES=1, read at
# create; host code only, not on main) keeps such grids early; arm 0 is main. Rows: every such count inside the
# landed window of each length and its two neighbours either side (where both arms are one launch: the sweep's
# floor), alone, twice. About 8 min after a cold start; write the predictions into perf-notes first.
source scripts/device_steps.sh
device_begin s69a 585
git apply docs/runs/s68-lane-tiles-switch.patch && echo "switch applied"
device_build
rows() {  # RESIDENT TOP: 8 x every count of 23-TOP blocks within two of a whole-grid count
  python -c "
S, top = 132 * $1, $2
tile = [g for g in range(23, top + 1) if 8 * (S % g) < g]
print(' '.join(str(8 * g) for g in sorted({n for g in tile for n in range(g - 2, g + 3) if 23 <= n <= top})))"
}
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_TILES --arms 0 1"
for i in 1 2; do
  timeout 120 python $SWEEP --rows $(rows 8 247) --lengths 1024 --dtypes float16 bfloat16 > $W/r8-4packs-$i.csv 2>&1
  echo "r8-4packs-$i rc=$? ($(date +%T))"; pack
  timeout 60 python $SWEEP --rows $(rows 8 247) --lengths 384 --dtypes float32 > $W/r8-fp32-3packs-$i.csv 2>&1
  echo "r8-fp32-3packs-$i rc=$? ($(date +%T))"; pack
  timeout 40 python $SWEEP --rows $(rows 6 181) --lengths 1536 --dtypes float16 > $W/r6-fp16-6packs-$i.csv 2>&1
  echo "r6-fp16-6packs-$i rc=$? ($(date +%T))"; pack
  timeout 40 python $SWEEP --rows $(rows 5 181) --lengths 2048 --dtypes float16 > $W/r5-fp16-8packs-$i.csv 2>&1
  echo "r5-fp16-8packs-$i rc=$? ($(date +%T))"; pack
done
sweep_summary r8-4packs-1 r8-4packs-2 r8-fp32-3packs-1 r8-fp32-3packs-2 r6-fp16-6packs-1 r6-fp16-6packs-2 \
  r5-fp16-8packs-1 r5-fp16-8packs-2
echo "== end ($(date +%T))"; pack
