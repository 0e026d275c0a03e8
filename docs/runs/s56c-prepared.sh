#!/usr/bin/env bash
# Prepared in session 55 (the first half of session 48's runs/s48b.sh, run hy): racecheck over softmax's fp32 and fp16
# shards (six: dtype x form), the part of the whole nvidia suite that runs/s56b-prepared.sh leaves; the same tree.
source scripts/device_steps.sh
device_begin s56c 570
device_build
S=tests/ops/test_softmax.py
echo "== racecheck shards ($(date +%T), $(left) s left)"
for d in "f32:float32" "f16:float16 and not bfloat16"; do
  for f in "fn:functional" "out:out and not functional" "rest:not functional and not out"; do
    sanitize_start racecheck "softmax-${d%%:*}-${f%%:*}" $S -k "(${d#*:}) and (${f#*:})"
  done
done
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
