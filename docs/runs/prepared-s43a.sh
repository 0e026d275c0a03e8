#!/usr/bin/env bash
# Prepared in session 42, not yet run (perf-notes item 3b, "Left"); copy it to .device/ (carry .device and .whl),
# run under `timeout 590`. One gpu_check.sh call (~550 s; it packs $OUT into logs.tar after each step):
# (1) the one-pass packed kernel's power-of-two block sizes beside the library's choice at the masked 16-bit rows
# and at 16384 (tests/bench/sweeps/tilelang_softmax_cluster.py's onepass_t<threads> variants, fp16; each variant is a
# TileLang compilation, ~20 in all); (2) the TileLang softmax suite and fuzz, every dtype, bounded at 300 s (run hd
# cut it at 200 s with 16 of its 1 048 tests not reached).
HYPOTHESIS_PROFILE=ci PYTEST_WORKERS=15 PYTEST_TIMEOUT=300 SWEEP_TIMEOUT=180 BACKENDS=tilelang \
  SWEEPS=tilelang_softmax_cluster \
  SWEEP_ARGS="--dtypes float16 --shapes 4096x6000 4096x8200 4096x10000 4096x12296 4096x16376 4096x16384" \
  scripts/gpu_check.sh --sweep --pack-logs --tests tests/ops/test_softmax.py tests/fuzz tests/tilelang -k softmax
