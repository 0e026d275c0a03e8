#!/usr/bin/env bash
# Run ky (session 66): part 1 of the whole nvidia suite under both sanitizers at main (device_steps.sh's
# sanitize_suite 1: memcheck over all of tests/ops and tests/fuzz, softmax in twelve shards; racecheck over all but
# softmax fp32 and fp16). The last whole-suite pass was session 56's (runs iz-jb); since then reduce_sum, vector_add
# and the shared headers (cuda_math.cuh, cuda_launch.cuh) changed, each checked on its own op's tests only.
source scripts/device_steps.sh
device_begin s66a 585
device_build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== sanitizer shards, part 1 ($(date +%T), $(left) s left)"
sanitize_suite 1
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/memcheck*.log $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
