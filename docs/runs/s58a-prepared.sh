#!/usr/bin/env bash
# Prepared in session 57 (not yet run): ncu of our 1008x2304 fp32 row sum beside Inductor's (perf-notes, session 57's
# next 2: the largest bench row where torch.compile leads, 4.58 against 4.28 µs in session 55's bench), with the
# per-instruction stall samples, then the summary tables. About 90 s after a cold start's build.
source scripts/device_steps.sh
device_begin s58a 300
device_build
OUT=$W/ncu NCU_SASS=1 timeout $(( $(left) - 10 )) scripts/ncu_profile.sh "reduce-rows-1008x2304-fp32-(ours|compile)$" \
  > $W/ncu.log 2>&1
echo "ncu rc=$?"
tail -12 $W/ncu.log
echo "== end ($(date +%T))"; pack
