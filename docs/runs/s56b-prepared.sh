#!/usr/bin/env bash
# Prepared in session 55: the whole nvidia suite under both sanitizers at one build has not run since session 48 (runs
# hx, hy); each kernel changed since ran under both on its own op's tests. This call is part 1 of device_steps.sh's
# sanitize_suite (memcheck over all of tests/ops and tests/fuzz, softmax in nine shards; racecheck over all but
# softmax fp32 and fp16), all shards at once; runs/s56c-prepared.sh is part 2.
source scripts/device_steps.sh
device_begin s56b 570
device_build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== sanitizer shards, part 1 ($(date +%T), $(left) s left)"
sanitize_suite 1
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/memcheck*.log $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
