#!/usr/bin/env bash
# Session 60, run jy: the landed rules (commit of run jx's code without its switch) through the bench: reduce_sum's
# every row on both backends beside torch.compile (16-bit 1008x2304 is inside the few-rows rule: does TileLang stay
# at >= 0.8x of it?), and vector_add's row broadcast on both backends beside torch.compile.
source scripts/device_steps.sh
device_begin s60d 560
device_build
bench_ops reduce_sum
echo "== vector_add row broadcast ($(date +%T), $(left) s left)"
timeout $(( $(left) - 6 )) python -m operator_runtime bench --op vector_add --backend nvidia tilelang --peers compile \
  --case row-broadcast-16384^2 --out $W/vector_add > $W/bench-vector_add.log 2>&1
echo "rc=$? rows=$(wc -l < $W/vector_add/bench.rows.jsonl)"; rm -f $W/vector_add/*.png
echo "== end ($(date +%T))"; pack
