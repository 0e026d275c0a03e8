#!/usr/bin/env bash
# Session 68, run ln: part 3 of the sanitizer suite (racecheck of softmax fp32 in eight shards), never timed before,
# at run lm's build (the last device time of the session).
source scripts/device_steps.sh
device_begin s68d ${SECONDS_BUDGET:-400}
device_build
sanitize_suite 3
sanitize_wait
echo "== end ($(date +%T))"; pack
