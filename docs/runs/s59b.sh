#!/usr/bin/env bash
# Session 59, run js: the whole bench from one build of the tree run jr tested (TileLang kernels from run jr's cache,
# .device/tilelang-cache.tar.xz, which gpu_check.sh unpacks): every op on both backends with torch, torch.compile and
# Liger, one op a step, each bounded by the seconds left (a cut op keeps the rows it finished).
source scripts/device_steps.sh
device_begin s59b 578
device_build
bench_ops reduce_sum softmax copy vector_add
echo "== end ($(date +%T))"; pack
