#!/usr/bin/env bash
# Session 68, run ll: lane_packs_after_wait raised for rows of 2-4 packs a lane (run lk): 3-4 packs to 1.875 blocks
# an SM (247 on the H200), 2 packs to 2.375 (313). Host code only: the kernels are main's. (1) the whole nvidia
# suite at this build, memcheck and racecheck of reduce_sum's short / packed / lane cases beside; (2) the landed
# bound against the one before it in one build (runs/s68-lane-narrow-switch.patch: ORT_LANE_NARROW=1 restores 1.375
# at create for 2-4 packs), both ways in one process, the old bound's arm first: 182-315 blocks at 16-bit 512 and
# fp32 256 (2 packs), 182-252 at 16-bit 768 / 1024 and fp32 384 / 512. About 6-7 min after a cold start.
source scripts/device_steps.sh
device_begin s68b 570
git apply docs/runs/s68-lane-narrow-switch.patch && echo "switch applied"
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally nvidia 200 tests/ops tests/fuzz tests/harness tests/test_cuda_launch.py -m "not lowering" --backend nvidia -n 4
sanitize_wait  # before the sweep: a sanitizer beside it would share the GPU with its timing
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_NARROW --arms 1 0"
rows() { python -c "print(' '.join(str(8 * b) for b in range(182, $1, 7)))"; }
timeout 60 python $SWEEP --rows $(rows 316) --lengths 512 --dtypes float16 bfloat16 > $W/lanes2-16.csv 2>&1
echo "lanes2-16 rc=$? ($(date +%T))"; pack
timeout 30 python $SWEEP --rows $(rows 316) --lengths 256 --dtypes float32 > $W/lanes2-32.csv 2>&1
echo "lanes2-32 rc=$? ($(date +%T))"; pack
timeout 60 python $SWEEP --rows $(rows 253) --lengths 768 1024 --dtypes float16 bfloat16 > $W/lanes34-16.csv 2>&1
echo "lanes34-16 rc=$? ($(date +%T))"; pack
timeout 40 python $SWEEP --rows $(rows 253) --lengths 384 512 --dtypes float32 > $W/lanes34-32.csv 2>&1
echo "lanes34-32 rc=$? ($(date +%T))"; pack
sweep_summary lanes2-16 lanes2-32 lanes34-16 lanes34-32
echo "== end ($(date +%T))"; pack
