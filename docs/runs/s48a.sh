#!/usr/bin/env bash
# Session 48, run hx: main at the session's start (no kernel change since session 47's runs). The whole nvidia
# tests/ops directory and the fuzz under compute-sanitizer memcheck (softmax in nine shards, dtype x form), and
# racecheck over everything but softmax's fp32 and fp16 shards (those follow in the next call), all at once.
source scripts/device_steps.sh
device_begin s48a 570
device_build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
S=tests/ops/test_softmax.py
SMALL="tests/ops/test_backend_choice.py tests/ops/test_lifecycle.py tests/ops/test_plan_cache.py tests/ops/test_prepared_graph.py"
echo "== sanitizer shards ($(date +%T), $(left) s left)"
for d in "f32:float32" "f16:float16 and not bfloat16" "bf16:not float32 and (bfloat16 or not float16)"; do
  for f in "fn:functional" "out:out and not functional" "rest:not functional and not out"; do
    sanitize_start memcheck "softmax-${d%%:*}-${f%%:*}" $S -k "(${d#*:}) and (${f#*:})"
    [ "${d%%:*}" = bf16 ] && sanitize_start racecheck "softmax-${d%%:*}-${f%%:*}" $S -k "(${d#*:}) and (${f#*:})"
  done
done
for tool in memcheck racecheck; do
  sanitize_start $tool reduce_sum tests/ops/test_reduce_sum.py
  sanitize_start $tool copy tests/ops/test_copy.py
  sanitize_start $tool vector_add tests/ops/test_vector_add.py
  sanitize_start $tool small $SMALL
  sanitize_start $tool fuzz tests/fuzz
done
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/memcheck*.log $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
