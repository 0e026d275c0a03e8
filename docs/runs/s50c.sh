#!/usr/bin/env bash
# Session 50, run ie: the TileLang suite (tests/ops, tests/tilelang, tests/fuzz on tilelang), -v, on the tree of runs
# ic and id; the tests that .device/s50-done/*.log (an earlier cut run's logs) passed or skipped are left out.
source scripts/device_steps.sh
device_begin ${RUN:-ie} 575
device_build
deselect_finished .device/s50-done/*.log
echo "== tilelang suite ($(date +%T), $(left) s left; ${#DESELECT[@]} deselect words from earlier runs)"
timeout $(( $(left) - 10 )) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 15 -v \
  -p no:cacheprovider -p no:benchmark -m "not lowering" "${DESELECT[@]}" > $W/pytest-tilelang.log 2>&1
echo "rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' $W/pytest-tilelang.log) SKIPPED $(grep -c ' SKIPPED' $W/pytest-tilelang.log) FAILED $(grep -c ' FAILED' $W/pytest-tilelang.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log | cut -c1-200
echo "== end ($(date +%T))"; pack
