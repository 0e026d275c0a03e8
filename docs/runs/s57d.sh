#!/usr/bin/env bash
# Run jh (session 57): racecheck over the small-files shard with the rewritten plan-cache tests (run jf ran memcheck).
source scripts/device_steps.sh
device_begin s57d 240
device_build
small=$(ls tests/ops/test_*.py | grep -vE "test_(softmax|reduce_sum|copy|vector_add)\.py$" | tr '\n' ' ')
sanitize_start racecheck small $small
sanitize_wait
grep -h "SKIPPED\|FAILED" $W/racecheck-*.log | cut -c1-200 | sort | uniq -c
echo "== end ($(date +%T))"; pack
