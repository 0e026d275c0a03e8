#!/usr/bin/env bash
# Prepared in session 55: part 2 of device_steps.sh's sanitize_suite (racecheck over softmax's fp32 and fp16 shards,
# six: dtype x form), the part of the whole nvidia suite that runs/s56b-prepared.sh leaves; the same tree.
source scripts/device_steps.sh
device_begin s56c 570
device_build
echo "== racecheck shards, part 2 ($(date +%T), $(left) s left)"
sanitize_suite 2
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
