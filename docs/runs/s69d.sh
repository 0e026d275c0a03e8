#!/usr/bin/env bash
# Run lr (session 69): the band bounded at 1.625 blocks an SM (run lq: rows of 2 packs lost at 263-264 blocks).
# Host code only. reduce_sum's tests, fuzz and the rule's tests on nvidia; the landed band against the rule before it
# at 2-pack rows' 211 / 263 / 264 blocks once (runs/s69-lane-whole-off-switch.patch: now a tie at 263-264); then part
# 1 of the sanitizer suite (memcheck of every shard, racecheck of all but softmax fp32 and fp16) under what is left.
source scripts/device_steps.sh
device_begin s69d ${SECONDS_BUDGET:-560}
git apply docs/runs/s69-lane-whole-off-switch.patch && echo "switch applied"
device_build
timeout 30 python docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WHOLE_OFF --arms 0 1 --shared-inputs \
  --rows 1688 2104 2112 --lengths 512 --dtypes float16 > $W/bound.csv 2>&1
echo "bound rc=$? ($(date +%T))"; sweep_summary bound; pack
pytest_tally rs 30 tests/ops/test_reduce_sum.py tests/fuzz/test_fuzz_ops.py tests/test_cuda_launch.py -k "reduce_sum or lane or after_wait" --backend nvidia -n 8
echo "== part 1 ($(date +%T), $(left) s left)"
sanitize_suite 1
sanitize_wait
echo "== end ($(date +%T))"; pack
