#!/usr/bin/env bash
# Session 46, run hq: softmax 4096x16384 (and 1024x16384) halves through the TMA's bulk copies
# (tests/bench/sweeps/softmax_bulk.cu): online_held and held_copy against bulk_store / bulk_load / bulk_both, each
# checked bit for bit against online_held first. No library build: the sweep includes the kernels' headers.
source scripts/device_steps.sh
device_begin s46b 200
echo "== sweep softmax_bulk ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp -Xptxas -v tests/bench/sweeps/softmax_bulk.cu -o /tmp/softmax_bulk \
  > $W/softmax_bulk.ptxas 2>&1 && timeout 150 /tmp/softmax_bulk > $W/softmax_bulk.csv 2> $W/softmax_bulk.err
echo "rc=$? ($(date +%T))"; cat $W/softmax_bulk.csv
echo "== end ($(date +%T))"; pack
