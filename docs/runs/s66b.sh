#!/usr/bin/env bash
# Run kz (session 66): part 2 of the whole nvidia suite under the sanitizers (sanitize_suite 2: racecheck over
# softmax's fp32 and fp16 shards, dtype x form, the long-row rounds tests in shards of their own), the tree of run ky.
source scripts/device_steps.sh
device_begin s66b 585
device_build
echo "== racecheck shards, part 2 ($(date +%T), $(left) s left)"
sanitize_suite 2
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
