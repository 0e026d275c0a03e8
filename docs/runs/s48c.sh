#!/usr/bin/env bash
# Session 48, run hz: the same main. racecheck over the four fp32 many-rounds tests run hy's bound cut (two shards),
# beside the TileLang suite (tests/ops, tests/tilelang, tests/fuzz) plain, as far as the last of the session's device
# time goes.
source scripts/device_steps.sh
device_begin s48c 235
device_build
echo "== racecheck, the four tests hy did not reach, beside the TileLang suite ($(date +%T), $(left) s left)"
for k in 8 16; do
  sanitize_start racecheck softmax-f32-rounds-$k tests/ops/test_softmax.py \
    -k "long_rows_over_many_rounds and contiguous-$k- and float32"
done
timeout $(($(left) - 20)) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 13 -m "not lowering" \
  -q -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log | cut -c1-200
echo "passed dots: $(tr -cd '.' < $W/pytest-tilelang.log | wc -c), F: $(tr -cd 'F' < $W/pytest-tilelang.log | wc -c)"; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
