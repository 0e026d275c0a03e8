#!/usr/bin/env bash
# The whole nvidia suite under both sanitizers, one part a call: `bash docs/runs/s66-sanitize-suite.sh PART` runs
# device_steps.sh's `sanitize_suite PART` (1: memcheck over all of tests/ops and tests/fuzz, racecheck over all but
# softmax fp32 and fp16; 2 and 3: racecheck over softmax fp16 and fp32) at the tree's code; the tar is
# s66-sanitize-PART. Session 66 ran part 1 as run ky and part 2, as sanitize_suite then was (fp32 and fp16 in eight
# shards by form), as run kz; runs la and lb (s66c.sh) finished what kz's bound cut; run lc ran part 2 dealt into
# sixteen shards under SECONDS_BUDGET=250 (the script's bound; 585 by default) to read the pace (at 9fbf93a, as
# s66d.sh). Session 67's run lj ran part 1 as session 66 had rebalanced it (fp16's out and rounds forms added), under
# SECONDS_BUDGET=470 at dd8dac1: its softmax racecheck shards were cut, so the parts became three.
source scripts/device_steps.sh
device_begin "s66-sanitize-$1" "${SECONDS_BUDGET:-585}"
device_build
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== sanitizer shards, part $1 ($(date +%T), $(left) s left)"
sanitize_suite "$1"
echo "${#SANITIZE_PIDS[@]} shards started ($(date +%T)); $(cat $W/spread/* 2>/dev/null | wc -l) tests dealt"
sanitize_wait
grep -h " FAILED" $W/memcheck*.log $W/racecheck*.log 2>/dev/null | sort | uniq -c | head
echo "== end ($(date +%T))"; pack
