#!/usr/bin/env bash
# Session 50, run ic: the whole bench from one build, part 1 (main as the session starts). (1) build; (2) TileLang's
# bench kernels compiled in parallel (warm_tilelang_cache.py), the cache saved to $OUT for the later calls; (3) bench
# softmax, then copy, both backends, torch, torch.compile and Liger; (4) vector_add's 2^27 + 5 test on tilelang.
source scripts/device_steps.sh
device_begin ic 575
device_build
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 200 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
tar -I "xz -T0" -cf "$R/tilelang-cache.tar.xz" -C "$TILELANG_CACHE_DIR" . && ls -l "$R/tilelang-cache.tar.xz"; pack
for op in softmax copy; do
  echo "== bench $op, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
  limit=$([ $op = softmax ] && echo $(( $(left) - 90 )) || echo $(( $(left) - 8 )))
  timeout $limit python -m operator_runtime bench --op $op --backend nvidia tilelang --peers liger compile \
    --out $W/$op > $W/bench-$op.log 2>&1
  echo "rc=$? rows=$(wc -l < $W/$op/bench.rows.jsonl)"; rm -f $W/$op/*.png
  grep -E "geomean|skipped|peer" $W/bench-$op.log | cut -c1-220 | head; pack
done
if [ $(left) -gt 45 ]; then
  echo "== vector_add's 2^27 + 5 row on tilelang ($(date +%T), $(left) s left)"
  timeout $(( $(left) - 5 )) python -m pytest tests/ops/test_vector_add.py -k many_waves --backend tilelang -v \
    -p no:cacheprovider -p no:benchmark -p no:xdist > $W/pytest-tilelang-va.log 2>&1
  echo "rc=$?"; grep -E "PASSED|FAILED|SKIPPED" $W/pytest-tilelang-va.log | cut -c1-160; tail -1 $W/pytest-tilelang-va.log
fi
echo "== end ($(date +%T))"; pack
