#!/usr/bin/env bash
# Session 48, run hz: the same main. racecheck over the four fp32 many-rounds tests run hy's bound cut, beside the
# TileLang suite (tests/ops, tests/tilelang, tests/fuzz) plain; then the nvidia tests outside tests/ops and fuzz
# (the sanitizer shards of runs hx and hy ran every test of tests/ops and tests/fuzz on nvidia).
source scripts/device_steps.sh
device_begin s48c 410
device_build
echo "== racecheck, the four tests hy did not reach, beside the TileLang suite ($(date +%T), $(left) s left)"
sanitize_start racecheck softmax-f32-rounds tests/ops/test_softmax.py \
  -k "long_rows_over_many_rounds and contiguous and float32 and (8 or 16)"
timeout $(($(left) - 90)) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 14 -m "not lowering" \
  -q -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log; pack
sanitize_wait
echo "== nvidia tests outside tests/ops and tests/fuzz ($(date +%T), $(left) s left)"
timeout $(($(left) - 5)) python -m pytest tests --ignore tests/ops --ignore tests/fuzz --backend nvidia -n 15 \
  -m "not lowering" -q -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia-rest.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rest.log | head; tail -1 $W/pytest-nvidia-rest.log
echo "== end ($(date +%T))"; pack
