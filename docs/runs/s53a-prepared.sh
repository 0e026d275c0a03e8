#!/usr/bin/env bash
# Prepared in session 52 for the next session (not run yet). Copy to .device/ and call it like runs/s52c.sh (carry
# .device and .whl; the TileLang cache tar is optional). (1) build; (2) the column sweep at 32768x4096 and its
# neighbours with the power-of-two split arm (does 16 splits close our fp32 gap to TileLang's 119.6 us?); (3) the
# whole bench from one build, part 1 (reduce_sum, softmax, copy: both backends, every peer), as session 51's run ii.
# Predictions belong in docs/perf-notes.md before the call.
source scripts/device_steps.sh
device_begin s53a 580
device_build
echo "== sweep reduce_sum_columns ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 90 build/sweeps/reduce_sum_columns > $W/reduce_sum_columns.csv 2> $W/reduce_sum_columns.err
echo "sweep rc=$? rows=$(wc -l < $W/reduce_sum_columns.csv)"; pack
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 150 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
pack
for op in reduce_sum softmax copy; do
  echo "== bench $op, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
  timeout $(( $(left) - 6 )) python -m operator_runtime bench --op $op --backend nvidia tilelang --peers liger compile \
    --out $W/$op > $W/bench-$op.log 2>&1
  echo "rc=$? rows=$(wc -l < $W/$op/bench.rows.jsonl)"; rm -f $W/$op/*.png
  grep -E "geomean|skipped|peer" $W/bench-$op.log | cut -c1-220 | head -4; pack
done
echo "== end ($(date +%T))"; pack
