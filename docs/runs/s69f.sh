#!/usr/bin/env bash
# Run lt (prepared in session 69, not run: refused, too little device time left to start a machine). The 2-pack
# window past a third of the slots (353-396 blocks on the H200): run it on main with
# runs/s69-lane-2-packs-past-a-third.patch applied (host code only). The build adds runs/s69-lane-wide-2-packs-
# switch.patch (ORT_LANE_WIDE=1: after the wait to three an SM), so the arms tie where the rule waits (353-396) and
# differ at 350 (early); then reduce_sum's tests, fuzz and the rule's tests on nvidia.
source scripts/device_steps.sh
device_begin s69f ${SECONDS_BUDGET:-140}
git apply docs/runs/s69-lane-wide-2-packs-switch.patch && echo "switch applied"
device_build
timeout 20 python docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WIDE --arms 0 1 --shared-inputs \
  --rows 2800 2824 2856 3136 3168 3192 --lengths 512 --dtypes float16 > $W/check.csv 2>&1
echo "check rc=$? ($(date +%T))"; sweep_summary check; pack
pytest_tally rs 5 tests/ops/test_reduce_sum.py tests/fuzz/test_fuzz_ops.py tests/test_cuda_launch.py -k "reduce_sum or lane or after_wait" --backend nvidia -n 8
echo "== end ($(date +%T))"; pack
