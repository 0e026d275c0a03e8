#!/usr/bin/env bash
# Run kv (session 65): lane_packs_after_wait's bound raised from one block an SM to 1.375 (181 blocks on the H200;
# run ku). Host code only: the kernels are main's. (1) the whole nvidia suite on the landed tree (the last whole run
# was kq, session 64, on a backed-out tree), memcheck and racecheck of reduce_sum's short / packed / lane cases beside;
# (2) the new bound against session 64's in one build: runs/s65-lane-after-wait-old-switch.patch (host only: ORT_LANE_OLD=1
# restores the old bound at create), 133-182 blocks, each shape both ways in one process, the dtypes and packs a lane that ku did not time (bf16; 2-4 packs).
source scripts/device_steps.sh
device_begin s65c 560
git apply docs/runs/s65-lane-after-wait-old-switch.patch && echo "switch applied"
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally nvidia 200 tests/ops tests/fuzz tests/harness tests/test_cuda_launch.py -m "not lowering" --backend nvidia -n 4
sanitize_wait  # before the sweeps: a sanitizer beside them would share the GPU with their timing
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_OLD --arms 1 0"
ROWS="1064 1120 1176 1232 1288 1344 1400 1448 1456"
timeout 70 python $SWEEP --rows $ROWS --lengths 512 768 1024 1040 1536 2048 --dtypes bfloat16 > $W/bf16.csv 2>&1
echo "bf16 rc=$? ($(date +%T))"; pack
timeout 50 python $SWEEP --rows $ROWS --lengths 512 768 1024 1288 --dtypes float16 > $W/fp16.csv 2>&1
echo "fp16 rc=$? ($(date +%T))"; pack
timeout 50 python $SWEEP --rows $ROWS --lengths 256 384 512 768 --dtypes float32 > $W/fp32.csv 2>&1
echo "fp32 rc=$? ($(date +%T))"; pack
sweep_summary bf16 fp16 fp32
echo "== end ($(date +%T))"; pack
