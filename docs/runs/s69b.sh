#!/usr/bin/env bash
# Run lp (session 69): run lo (runs/s69a-prepared.sh) read arms that were one launch up to 16 % apart, the same way
# in both passes; each arm ran over its own tensors. First a control: main against main (ORT_LANE_TILES=2 does
# nothing) at eleven of those cells, over separate tensors and over shared ones (s58-few-rows-sweep.py
# --shared-inputs). Then lo's sweep again with shared inputs, twice. About 7 min after a cold start.
source scripts/device_steps.sh
device_begin s69b 585
git apply docs/runs/s68-lane-tiles-switch.patch && echo "switch applied"
device_build
rows() {  # RESIDENT TOP: 8 x every count of 23-TOP blocks within two of a whole-grid count
  python -c "
S, top = 132 * $1, $2
tile = [g for g in range(23, top + 1) if 8 * (S % g) < g]
print(' '.join(str(8 * g) for g in sorted({n for g in tile for n in range(g - 2, g + 3) if 23 <= n <= top})))"
}
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_TILES"
for shared in "" "--shared-inputs"; do
  tag=control${shared:+-shared}
  { timeout 40 python $SWEEP --arms 0 2 $shared --rows 184 568 592 688 720 --lengths 1024 --dtypes float16
    timeout 30 python $SWEEP --arms 0 2 $shared --rows 1024 1176 1216 1416 --lengths 384 --dtypes float32
    timeout 30 python $SWEEP --arms 0 2 $shared --rows 424 544 --lengths 2048 --dtypes float16; } > $W/$tag.csv 2>&1
  echo "$tag rc=$? ($(date +%T))"; pack
done
SWEEP="$SWEEP --arms 0 1 --shared-inputs"
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
sweep_summary control control-shared
echo "== end ($(date +%T))"; pack
