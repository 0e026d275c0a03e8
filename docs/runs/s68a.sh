#!/usr/bin/env bash
# Run lk (session 68): perf-notes session 67, "For the next session": lane rows (packed_rows a warp a row) of 2-4
# packs a lane past 181 blocks, never timed after the wait. The switch runs/s68-lane-wide-switch.patch (ORT_LANE_WIDE=1,
# read at create; host code only, not on main) sends them after the wait wherever the rule says Early up to three
# blocks an SM (396 on the H200); 0 is main's rule. The sweep: 182-399 blocks (rows = 8 x blocks; every seventh
# count for 16-bit, every fourteenth for fp32) at 2 / 3 / 4 packs a lane (16-bit 512 / 768 / 1024, fp32 256 / 384 /
# 512), each cell both arms in one process, in two contexts (after the bench of every op's rows of 64 MiB or less
# in the same process, and alone), each twice: session 67's s67a-prepared.sh with other lengths (its run lf: 9 min).
source scripts/device_steps.sh
device_begin s68a 585
git apply docs/runs/s68-lane-wide-switch.patch && echo "switch applied"
device_build
rows() { python -c "print(' '.join(str(8 * b) for b in range(182, 400, $1)))"; }
L16="--switch ORT_LANE_WIDE --arms 0 1 --rows $(rows 7) --lengths 512 768 1024 --dtypes float16 bfloat16"
L32="--switch ORT_LANE_WIDE --arms 0 1 --rows $(rows 14) --lengths 256 384 512 --dtypes float32"
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
# every count near 203-210 and 245-259, where early's tilings won at 5 packs (run lf), as time allows
DENSE=$(python -c "print(' '.join(str(8 * b) for b in [*range(200, 213), *range(243, 261)]))")
for i in 1 2; do
  [ "$(left)" -gt 70 ] || break
  timeout $(($(left) - 40)) python docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WIDE --arms 0 1 --rows $DENSE \
    --lengths 512 1024 --dtypes float16 bfloat16 > $W/dense16-$i.csv 2>&1
  echo "dense16-$i rc=$? ($(date +%T))"; pack
done
sweep_summary after-bench16-1 after-bench16-2 alone16-1 alone16-2 after-bench32-1 after-bench32-2 alone32-1 alone32-2 dense16-1 dense16-2
echo "== end ($(date +%T))"; pack
