#!/usr/bin/env bash
# Run la (session 66): racecheck of the 58 softmax tests that run kz's bound cut (part 2 of sanitize_suite: fp32 fn /
# out / rest / rounds, fp16 out), one shard per list in .device/s66-left/ (each shard's test ids: its -k expression's
# collection less the ids kz's -v log passed; the lists split three ways, the rounds tests one a shard).
source scripts/device_steps.sh
device_begin s66c ${SECONDS_BUDGET:-440}
device_build
echo "== racecheck of what kz left ($(date +%T), $(left) s left)"
for f in .device/s66-left/*; do sanitize_start racecheck "left-$(basename $f)" $(cat $f); done
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
