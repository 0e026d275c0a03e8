#!/usr/bin/env bash
# Session 51, run ii: the whole bench from one build with whole_batches landed, part 1. (1) build; (2) TileLang's
# bench kernels (session 50's cache from .device/, topped up by warm_tilelang_cache.py: no TileLang code changed);
# (3) bench reduce_sum, softmax and copy, both backends, torch, torch.compile and Liger.
source scripts/device_steps.sh
device_begin ii 580
device_build
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
