#!/usr/bin/env bash
# Prepared in session 58 (not yet run): TileLang's fp32 row pass of 4096 for rows of 2049-2560
# (runs/s59-tilelang-fp32-row-chunk.patch; perf-notes, session 58's next 1; runs jp and jq timed the chunks at main).
# The patch applied: the TileLang reduce_sum tests and lowering, memcheck of its row tests, and the bench rows beside
# our CUDA (1008x2304 fp32 reads 0.802x now). About 5 min after a cold start (TileLang compiles each kernel once; no
# kernel cache carried).
source scripts/device_steps.sh
device_begin s59a 560
git apply docs/runs/s59-tilelang-fp32-row-chunk.patch && echo "patch applied" && device_build
SANITIZE_BACKEND=tilelang sanitize_start memcheck tl-rows tests/ops/test_reduce_sum.py -k "float32 and rows"
pytest_tally tl-rs 150 tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k "reduce_sum or reduce_rows" \
  --backend tilelang -n 8
sanitize_wait
timeout $(( $(left) - 10 )) python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang \
  --case rows-1008x2304 rows-4080x1536 rows-4096x4096 --out $W/tl > $W/tl.log 2>&1
echo "bench rc=$? ($(date +%T))"; grep -E "tilelang|geomean" $W/tl.log | cut -c1-160 | tail -12
echo "== end ($(date +%T))"; pack
