#!/usr/bin/env bash
# Session 44, run hi: prepared-s44a.sh (trigger sweep first) + the TileLang warp-rows softmax cases and memcheck.
NCU_FILTER="(reduce-rows-4096x1024-fp16|softmax-(2048|4096)x1024-fp16-tilelang)" BACKENDS="tilelang" SWEEP_TIMEOUT=170 \
  PYTEST_TIMEOUT=120 SANITIZE_TIMEOUT=100 SANITIZE_TOOLS=memcheck SANITIZE_BACKEND=tilelang SANITIZE_TESTS=tests/ops \
  SANITIZE_K="warp-rows and softmax" \
  SWEEPS="reduce_sum_trigger tilelang_softmax_cluster" \
  SWEEP_ARGS="--dtypes float16 --shapes 1024x1024 2048x1024 3072x1024 4096x1024 8192x1024 2048x768 8192x768 2048x520" \
  scripts/gpu_check.sh --ncu --sweep --sanitize --pack-logs --tests tests/ops -k "warp-rows and softmax"
