#!/usr/bin/env bash
# Session 60, run jw: prepared in session 59 (as s60b-prepared.sh), run with both prepared patches applied (the tree
# run jv built).
# As prepared in session 59: reduce_sum rows under 480 packs, a block a row (session 58's next 3).
# runs/s60-reduce-sum-few-rows-switch.patch adds ORT_REDUCE_FEW, read at create: 128 or 256 moves every Warp-path row
# whose outer dims coalesce and whose packs are aligned onto whole_batches + rest at that many threads a row (ptxas,
# CPU: 31-32 registers at 128, no spill). (1) reduce_sum tests + fuzz at both values; (2) the sweep (main, 128, 256;
# arms interleaved A B C C B A) over the lengths and row counts runs jl-jm left between their points: fp32 1024-1792,
# bf16 and fp16 2304-3584. About 3-5 min after a cold start (run jm: 90 shapes x 4 arms, its build and a test file in a 131 s call).
source scripts/device_steps.sh
device_begin s60b 560
git apply docs/runs/s60-va-row-grid-arms.patch docs/runs/s60-reduce-sum-few-rows-switch.patch && echo "patches applied"
device_build
for v in 128 256; do
  ORT_REDUCE_FEW=$v pytest_tally few$v 400 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 8
done
# session 59's two new cases (rows of 2049 and 2560, the ends of TileLang's fp32 pass of 4096), on TileLang too
pytest_tally tl-pass4096 380 tests/ops/test_reduce_sum.py -k "pass-4096" --backend tilelang -n 8
pytest_tally nv-pass4096 380 tests/ops/test_reduce_sum.py -k "pass-4096" --backend nvidia -n 8
ROWS="144 200 264 396 528 792 1008 2016 4080"
timeout $(( $(left) / 2 )) python docs/runs/s58-few-rows-sweep.py --arms 0 128 256 --lengths 1024 1280 1536 1792 \
  --rows $ROWS --dtypes float32 > $W/few-fp32.csv 2> $W/few-fp32.err
echo "fp32 sweep rc=$? ($(date +%T)), $(wc -l < $W/few-fp32.csv) lines"; tail -2 $W/few-fp32.err; pack
timeout $(( $(left) - 10 )) python docs/runs/s58-few-rows-sweep.py --arms 0 128 256 --lengths 2304 2560 2816 3072 3584 \
  --rows $ROWS --dtypes bfloat16 float16 > $W/few-bf16.csv 2> $W/few-bf16.err
echo "bf16 sweep rc=$? ($(date +%T)), $(wc -l < $W/few-bf16.csv) lines"; tail -2 $W/few-bf16.err
echo "== end ($(date +%T))"; pack
