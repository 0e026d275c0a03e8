#!/usr/bin/env bash
# Prepared in session 43, not yet run (perf-notes items 0g and 0h); copy it to .device/ (carry .device and .whl),
# run under `timeout 590`. One gpu_check.sh call (~360 s; it packs $OUT into logs.tar after each step):
# (1) ncu of reduce_sum rows-4096x1024 fp16 on both backends (our CUDA 3.96 us against TileLang's warp a row 3.31 in
# run hg's bench) and of TileLang's softmax at 2048x1024 and 4096x1024 fp16, a warp a row (`warp`, 4 packs a lane)
# against the one-pass kernel the library runs there (`library`): the warp lost 14-20 % at 2048 rows and won 5-6 %
# at 4096 (runs hg, hh); (2) the softmax sweep's `warp` beside the library at 1024-8192 rows of 520-1024 halves;
# (3) reduce_sum_trigger.cu: our CUDA row kernel at those rows under each PDL trigger (it ignores SWEEP_ARGS, which
# are the softmax sweep's). Predictions go into perf-notes before the run.
NCU_FILTER="(reduce-rows-4096x1024-fp16|softmax-(2048|4096)x1024-fp16-tilelang)" BACKENDS="" SWEEP_TIMEOUT=200 \
  SWEEPS="tilelang_softmax_cluster reduce_sum_trigger" \
  SWEEP_ARGS="--dtypes float16 --shapes 1024x1024 2048x1024 3072x1024 4096x1024 8192x1024 2048x768 8192x768 2048x520" \
  scripts/gpu_check.sh --ncu --sweep --pack-logs
