#!/usr/bin/env bash
# Run kg (session 62): reduce_sum's packed_rows with its packs held as raw words until every load is issued
# (runs/s62-rs-packed-rows-raw-words.patch; ptxas on the CPU: fp16 6 packs a lane 36 -> 31 registers, 8 packs
# 43 -> 40). A = this tree without the patch (built into /tmp/A beside), B = with it. B's reduce_sum tests and fuzz on
# nvidia with memcheck of the test file beside them (two shards); then the rows of 1280-2048 halves (5-8 packs a
# lane) A B A B through the library (s58-few-rows-sweep.py, one arm a process), and the bench rows that run
# packed_rows (4080x1536: 6 packs; 144x1280: 5; 4096x1024: 4; 4096x128: 16 threads a row) A B A B.
source scripts/device_steps.sh
device_begin s62c 585
build_a
git apply docs/runs/s62-rs-packed-rows-raw-words.patch && echo "patch applied"
device_build
wait_a
sanitize_start memcheck rows tests/ops/test_reduce_sum.py -k rows
sanitize_start memcheck rest tests/ops/test_reduce_sum.py -k "not rows"
pytest_tally rs-nv 420 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
sanitize_wait
SWEEP="docs/runs/s58-few-rows-sweep.py --arms 0 --lengths 1280 1536 1792 2048 --rows 264 1008 2016 4080 8192 16384"
for i in 1 2; do
  PYTHONPATH="$A_DIR:$PYTHONPATH" timeout 100 python $SWEEP --dtypes float16 bfloat16 > $W/lanes-A-$i.csv 2>&1
  echo "lanes A $i rc=$? ($(date +%T))"
  timeout 100 python $SWEEP --dtypes float16 bfloat16 > $W/lanes-B-$i.csv 2>&1; echo "lanes B $i rc=$? ($(date +%T))"
  pack
done
ab_twice arms 60 60 python -m operator_runtime bench --op reduce_sum --backend nvidia \
  --case rows-4080x1536 rows-144x1280 rows-4096x1024 rows-4096x128 --out '$AB_OUT'
ab_summary arms | sort -k2,3 -k1
echo "== end ($(date +%T))"; pack
