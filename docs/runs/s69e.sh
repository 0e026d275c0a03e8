#!/usr/bin/env bash
# Run ls (session 69, the last device time): rows of 2 packs a lane after the wait past 2.375 blocks an SM, against
# main's early, over shared tensors (runs/s69-lane-wide-2-packs-switch.patch: ORT_LANE_WIDE=1 to three an SM; arm 2
# is main again, the control). Run lk read after the wait 1.05-1.14x faster at 357-392 blocks and 1-7 % slower at
# 322-350, each arm over its own tensors. lk's counts (every seventh of 308-399), fp16 / bf16 512 and fp32 256, twice.
source scripts/device_steps.sh
device_begin s69e ${SECONDS_BUDGET:-240}
git apply docs/runs/s69-lane-wide-2-packs-switch.patch && echo "switch applied"
device_build
ROWS=$(python -c "print(' '.join(str(8 * g) for g in range(308, 400, 7)))")
for i in 1 2; do
  { timeout 60 python docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WIDE --arms 0 1 2 --shared-inputs \
      --rows $ROWS --lengths 512 --dtypes float16 bfloat16
    timeout 40 python docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WIDE --arms 0 1 2 --shared-inputs \
      --rows $ROWS --lengths 256 --dtypes float32; } > $W/wide-$i.csv 2>&1
  echo "wide-$i rc=$? ($(date +%T))"; pack
done
echo "== end ($(date +%T))"; pack
