#!/usr/bin/env bash
# Prepared in session 66 (CPU only; not yet run): perf-notes session 66, "For the next session" item 2 (session 65's
# item 1). The switch runs/s66-lane-after-wait-wide-switch.patch (ORT_LANE_WIDE=1, read at create; host code only,
# not on main) sends packed_rows a warp a row after the wait wherever the rule says Early up to three blocks an SM
# (396 on the H200); 0 is main's rule, so at 182-396 blocks arm 1 is the only change. The sweep: 182-399 blocks
# (rows = 8 x blocks; every seventh count for 16-bit, every fourteenth for fp32) at five packs a lane (16-bit 1040 /
# 1152 / 1280, fp32 520 / 640) and fp32 1024 (ku's broad winner), each cell both arms in one process, in two contexts
# (after the bench of every op's rows of 64 MiB or less in the same process, and alone), each twice. About 8-9 min
# after a cold start; write the predictions into perf-notes first.
source scripts/device_steps.sh
device_begin s67a 585
git apply docs/runs/s66-lane-after-wait-wide-switch.patch && echo "switch applied"
device_build
rows() { python -c "print(' '.join(str(8 * b) for b in range(182, 400, $1)))"; }
L16="--switch ORT_LANE_WIDE --arms 0 1 --rows $(rows 7) --lengths 1040 1152 1280 --dtypes float16 bfloat16"
L32="--switch ORT_LANE_WIDE --arms 0 1 --rows $(rows 14) --lengths 520 640 1024 --dtypes float32"
for i in 1 2; do
  timeout 130 python docs/runs/s65e-context.py $W/bench16-$i -- $L16 > $W/after-bench16-$i.csv 2>$W/bench16-$i.log
  echo "after-bench16-$i rc=$? ($(date +%T))"
  timeout 75 python docs/runs/s65e-context.py $W/bench32-$i -- $L32 > $W/after-bench32-$i.csv 2>$W/bench32-$i.log
  echo "after-bench32-$i rc=$? ($(date +%T))"; rm -f $W/bench*-$i/*.png; pack
  timeout 80 python docs/runs/s58-few-rows-sweep.py $L16 > $W/alone16-$i.csv 2>&1
  echo "alone16-$i rc=$? ($(date +%T))"
  timeout 30 python docs/runs/s58-few-rows-sweep.py $L32 > $W/alone32-$i.csv 2>&1
  echo "alone32-$i rc=$? ($(date +%T))"; pack
done
sweep_summary after-bench16-1 after-bench16-2 alone16-1 alone16-2 after-bench32-1 after-bench32-2 alone32-1 alone32-2
echo "== end ($(date +%T))"; pack
