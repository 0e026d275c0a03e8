#!/usr/bin/env bash
# Prepared in session 42, not yet run (perf-notes item 0b); copy it to .device/ (carry .device and .whl), run under
# `timeout 590`. One gpu_check.sh call (~300 s): the TileLang reduce_sum sweep's row variants, with `warp` (a warp a
# row, 2-4 packs a lane) beside the library's packed row kernel and the element-wise chunks, at 16-bit rows of 512,
# 768 and 1024 halves from 4096 to 131072 rows. No test suite (no library code path changes).
BACKENDS="" SWEEP_TIMEOUT=400 SWEEPS=tilelang_reduce_sum \
  SWEEP_ARGS="--only rows --dtypes float16 bfloat16 --shapes 4096x1024 16384x1024 131072x1024 4096x512 16384x512 131072x512 16384x768" \
  scripts/gpu_check.sh --sweep --pack-logs
