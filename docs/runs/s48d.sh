#!/usr/bin/env bash
# Session 48, run hz (second form, after refused starts left 268 s of device time): the same main. racecheck over
# the four fp32 many-rounds tests run hy's bound cut, in two shards, and nothing else.
source scripts/device_steps.sh
device_begin s48d 165
device_build
echo "== racecheck, the four tests hy did not reach ($(date +%T), $(left) s left)"
for k in 8 16; do
  sanitize_start racecheck softmax-f32-rounds-$k tests/ops/test_softmax.py \
    -k "long_rows_over_many_rounds and contiguous-$k- and float32"
done
sanitize_wait
echo "== end ($(date +%T))"; pack
