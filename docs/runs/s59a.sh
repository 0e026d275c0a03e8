#!/usr/bin/env bash
# Session 59, run jr: session 58's prepared TileLang row pass (runs/s59-tilelang-fp32-row-chunk.patch, applied in the
# tree) and the block-a-row rule moved from create() into plan() (CUDA, no change meant). (1) build; (2) nvidia
# reduce_sum tests + fuzz with memcheck and racecheck of the row tests beside; TileLang's reduce_sum tests, fuzz and
# lowering, memcheck of its fp32 row tests; (3) the bench rows the patch is for, both backends; (4) warm TileLang's
# kernel cache for the whole bench and return it (tilelang-cache.tar.xz) for the whole-bench calls after this one.
source scripts/device_steps.sh
device_begin s59a 575
device_build
# the shards end 250 s before the script, whatever they finished (their logs say which tests)
DEVICE_END=$((DEVICE_END - 250)) sanitize_start memcheck rs-rows tests/ops/test_reduce_sum.py -k "rows and not columns"
DEVICE_END=$((DEVICE_END - 250)) sanitize_start racecheck rs-rows tests/ops/test_reduce_sum.py -k "rows and not columns"
DEVICE_END=$((DEVICE_END - 250)) SANITIZE_BACKEND=tilelang sanitize_start memcheck tl-rows tests/ops/test_reduce_sum.py \
  -k "float32 and rows"
pytest_tally rs 400 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
pytest_tally tl-rs 260 tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k "reduce_sum or reduce_rows" \
  --backend tilelang -n 8
sanitize_wait
echo "== bench rows ($(date +%T), $(left) s left)"
timeout 90 python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang \
  --case rows-1008x2304 rows-4080x1536 rows-4096x4096 --out $W/tl > $W/tl.log 2>&1
echo "bench rc=$? ($(date +%T))"; grep -E "rows-|geomean" $W/tl.log | cut -c1-200 | tail -14; pack
echo "== warm the TileLang cache, every op ($(date +%T), $(left) s left)"
timeout $(($(left) - 25)) python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1
echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
tar -I "xz -T0" -cf "$R/tilelang-cache.tar.xz" -C /tmp/tilelang-cache . && ls -l "$R/tilelang-cache.tar.xz"
echo "== end ($(date +%T))"; pack
