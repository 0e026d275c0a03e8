#!/usr/bin/env bash
# Prepared in session 55 (as session 48's runs/s48a.sh, run hx): the whole nvidia suite under both sanitizers at one
# build has not run since session 48; each kernel changed since ran under both on its own op's tests. This call:
# memcheck over all of tests/ops and tests/fuzz (softmax in nine shards, dtype x form), racecheck over everything but
# softmax's fp32 and fp16 shards (runs/s56c-prepared.sh takes those), all at once.
source scripts/device_steps.sh
device_begin s56b 570
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
