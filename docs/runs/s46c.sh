#!/usr/bin/env bash
# Session 46, run hr: the whole bench from one build, part 1 (main as landed this session). (1) build; (2) TileLang's
# bench kernels compiled in parallel (warm_tilelang_cache.py), the cache saved to $OUT for part 2; (3) bench softmax,
# both backends, torch, torch.compile and Liger.
source scripts/device_steps.sh
device_begin s46c 570
device_build
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 200 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
tar -I "xz -T0" -cf "$R/tilelang-cache.tar.xz" -C "$TILELANG_CACHE_DIR" . && ls -l "$R/tilelang-cache.tar.xz"; pack
echo "== bench softmax, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
timeout $(( $(left) - 10 )) python -m operator_runtime bench --op softmax --backend nvidia tilelang --peers liger compile \
  --out $W/softmax > $W/bench-softmax.log 2>&1
echo "rc=$? rows=$(wc -l < $W/softmax/bench.rows.jsonl)"; rm -f $W/softmax/*.png; grep -E "geomean|skipped|peer" $W/bench-softmax.log | head
echo "== end ($(date +%T))"; pack
