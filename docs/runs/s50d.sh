#!/usr/bin/env bash
# Session 50, run if: the tests of run id's nvidia suite that its bound cut off (deselect_finished over id's -v log).
source scripts/device_steps.sh
device_begin if 300
device_build
deselect_finished .device/s50-nv-done/*.log
echo "== the rest of run id's nvidia suite ($(date +%T), $(left) s left; ${#DESELECT[@]} deselect words)"
timeout $(( $(left) - 8 )) python -m pytest tests --ignore tests/test_build.py --backend nvidia -n 15 -v \
  -p no:cacheprovider -p no:benchmark -m "not lowering" "${DESELECT[@]}" > $W/pytest-nvidia-rest.log 2>&1
echo "rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' $W/pytest-nvidia-rest.log) SKIPPED $(grep -c ' SKIPPED' $W/pytest-nvidia-rest.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia-rest.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rest.log | head; tail -1 $W/pytest-nvidia-rest.log | cut -c1-200
echo "== end ($(date +%T))"; pack
