#!/usr/bin/env bash
# Runs la and lb (session 66): racecheck of what run kz left, one shard per list of test ids in .device/s66-left/.
# la: the 58 softmax tests kz's bound cut (each of kz's shards' -k collection less the ids its -v log passed: fp32 fn
# / out / rest split three ways each, the five fp32 rounds tests one a shard, fp16 out's two in one); lb: the 120
# tests of kz's fp16 "rest" shard (its log passed them all, but the bound cut the tool's summary at exit), dealt into
# 12 lists (`split -n r/12`). sanitize_spread in device_steps.sh now deals a suite's tests the same way.
source scripts/device_steps.sh
device_begin s66c ${SECONDS_BUDGET:-440}
device_build
echo "== racecheck of what kz left ($(date +%T), $(left) s left)"
for f in .device/s66-left/*; do sanitize_start racecheck "left-$(basename $f)" $(cat $f); done
echo "${#SANITIZE_PIDS[@]} shards started"
sanitize_wait
grep -h " FAILED" $W/racecheck*.log | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
