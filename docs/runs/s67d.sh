#!/usr/bin/env bash
# Session 67, run lg: lane_packs_after_wait at 5 packs a lane raised to 1.875 blocks an SM (247 on the H200; run lf).
# Host code only: the kernels are main's. (1) the whole nvidia suite at this build, memcheck and racecheck of
# reduce_sum's short / packed / lane cases beside; (2) the landed bound against the one before it in one build
# (runs/s67-lane-narrow-switch.patch: ORT_LANE_NARROW=1 restores 1.375 at create), 182-252 blocks at 5 packs a lane,
# both ways in one process, the old bound's arm first. About 6 min after a cold start.
source scripts/device_steps.sh
device_begin s67d 570
git apply docs/runs/s67-lane-narrow-switch.patch && echo "switch applied"
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally nvidia 150 tests/ops tests/fuzz tests/harness tests/test_cuda_launch.py -m "not lowering" --backend nvidia -n 4
sanitize_wait  # before the sweep: a sanitizer beside it would share the GPU with its timing
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_NARROW --arms 1 0"
ROWS=$(python -c "print(' '.join(str(8 * b) for b in range(182, 253, 7)))")
timeout 70 python $SWEEP --rows $ROWS --lengths 1040 1152 1280 --dtypes float16 bfloat16 > $W/lanes16.csv 2>&1
echo "lanes16 rc=$? ($(date +%T))"; pack
timeout 40 python $SWEEP --rows $ROWS --lengths 520 640 --dtypes float32 > $W/lanes32.csv 2>&1
echo "lanes32 rc=$? ($(date +%T))"; pack
sweep_summary lanes16 lanes32
echo "== end ($(date +%T))"; pack
