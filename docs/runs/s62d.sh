#!/usr/bin/env bash
# Run kh (session 62): the benches of softmax and copy, both backends, every peer, from the tree run kf benched
# reduce_sum and vector_add from (no CUDA or TileLang change since; kg's patch was rejected), so the four ops' rows
# together are this session's whole bench.
source scripts/device_steps.sh
device_begin s62d 585
device_build
bench_ops copy softmax
echo "== end ($(date +%T))"; pack
