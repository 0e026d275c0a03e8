#!/usr/bin/env bash
# Session 51, run ik: the nvidia tests run ij's bound cut (deselect_finished over ij's log).
source scripts/device_steps.sh
device_begin ik 250
device_build
deselect_finished .device/s51-ij/pytest-nvidia.log
echo "deselected ${#DESELECT[@]} ($(date +%T), $(left) s left)"
timeout $(( $(left) - 8 )) python -m pytest tests --ignore tests/test_build.py --backend nvidia -n 15 -v \
  -p no:cacheprovider -p no:benchmark -m "not lowering" "${DESELECT[@]}" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' $W/pytest-nvidia.log) SKIPPED $(grep -c ' SKIPPED' $W/pytest-nvidia.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log | cut -c1-200
echo "== end ($(date +%T))"; pack
