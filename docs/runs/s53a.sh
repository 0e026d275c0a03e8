#!/usr/bin/env bash
# Session 53, run ip (from runs/s53a-prepared.sh): (1) build main; (2) the column sweep in its shape mode (the
# library's arm only) at the bench's 32768x4096 and three neighbours, which times the power-of-two split count beside
# one wave (perf-notes session 53, item 1), then the edge grid of 16-bit and fp32 columns whose unsplit grid fills a
# fifth to half of a wave (item 2); (3) the whole bench from one build, part 1: reduce_sum, softmax, copy on both
# backends with torch, torch.compile and Liger.
source scripts/device_steps.sh
device_begin s53a 580
device_build
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns
echo "== sweep: bench shape and neighbours ($(date +%T), $(left) s left)"
timeout 60 build/sweeps/reduce_sum_columns 32768x4096 4096x4096 65536x1024 2048x16384 \
  > $W/columns-splits.csv 2> $W/columns-splits.err
echo "rc=$? rows=$(wc -l < $W/columns-splits.csv)"; grep -E "^float,32768" $W/columns-splits.csv
edge=()
for rows in 256 384 512 768 1024 1536 2048; do for cols in 32768 49152 65536 98304; do edge+=("${rows}x${cols}"); done; done
echo "== sweep: edge grid, ${#edge[@]} shapes ($(date +%T), $(left) s left)"
timeout 120 build/sweeps/reduce_sum_columns "${edge[@]}" 256x81920 512x81920 > $W/columns-edge.csv 2> $W/columns-edge.err
echo "rc=$? rows=$(wc -l < $W/columns-edge.csv)"; pack
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 150 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
pack
bench_ops reduce_sum softmax copy
echo "== end ($(date +%T))"; pack
