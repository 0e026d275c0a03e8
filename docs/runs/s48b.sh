#!/usr/bin/env bash
# Session 48, run hy: the same main. racecheck over softmax's fp32 and fp16 shards (six: dtype x form) and, beside
# them (CPU-bound compiles against GPU-bound checks), the TileLang suite plain; then the whole nvidia suite plain.
source scripts/device_steps.sh
device_begin s48b 570
device_build
S=tests/ops/test_softmax.py
echo "== racecheck shards ($(date +%T), $(left) s left)"
for d in "f32:float32" "f16:float16 and not bfloat16"; do
  for f in "fn:functional" "out:out and not functional" "rest:not functional and not out"; do
    sanitize_start racecheck "softmax-${d%%:*}-${f%%:*}" $S -k "(${d#*:}) and (${f#*:})"
  done
done
echo "== tilelang suite ($(date +%T), $(left) s left)"
timeout $(($(left) - 200)) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 8 -m "not lowering" \
  -q -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log
sanitize_wait
for f in $W/racecheck*.log; do echo "$(basename $f): $(grep -c ' PASSED' $f) PASSED, $(grep -c ' FAILED' $f) FAILED; $(tail -3 $f | grep -E 'passed|failed' | cut -c1-100)"; done
echo "== nvidia suite ($(date +%T), $(left) s left)"
timeout $(($(left) - 15)) python -m pytest tests --backend nvidia -n 15 -m "not lowering" -q -p no:cacheprovider \
  -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
echo "== end ($(date +%T))"; pack
