#!/usr/bin/env bash
# Run lc (session 66, the last ~350 s of device time): sanitize_suite part 2 as device_steps.sh now runs it (racecheck
# of softmax fp32 and fp16 dealt into eight shards each by sanitize_spread), under a bound shorter than the part
# needs, to read on the device how far sixteen shards get and whether the collection and dealing work there.
source scripts/device_steps.sh
device_begin s66d ${SECONDS_BUDGET:-270}
device_build
echo "== racecheck shards, part 2 dealt ($(date +%T), $(left) s left)"
sanitize_suite 2
echo "${#SANITIZE_PIDS[@]} shards started ($(date +%T)); $(cat $W/spread/* | wc -l) tests dealt"
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
