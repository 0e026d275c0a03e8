#!/usr/bin/env bash
# Prepared in session 44, not yet run; copy it to .device/ (carry .device and .whl), run under `timeout 590`.
# (1) Same-run bench of both backends on every row session 44's CUDA change moved (perf-notes 0i: TileLang's
# rows-144x1280 halves are estimated at ~0.77x of our CUDA across runs); (2) the lane-packs sweep's long rows in the
# bench's context (`l2`), for item 0j (fp16 4080x1536 2 % slower in the bench, 1.15x faster out of L2); (3) ncu of
# our CUDA's 4080x1536 fp16 and bf16 rows. Predictions go into perf-notes before the run.
NCU_FILTER="reduce-rows-4080x1536-(fp16|bf16)-ours" BACKENDS="" SWEEP_TIMEOUT=120 SWEEPS="reduce_sum_lane_packs" \
  SWEEP_ARGS="l2 long" BENCH_TIMEOUT=200 \
  BENCH_ARGS="--op reduce_sum --backend nvidia tilelang --case rows-144x1280 rows-4080x1536 rows-4096x1024" \
  scripts/gpu_check.sh --sweep --bench --ncu --pack-logs
