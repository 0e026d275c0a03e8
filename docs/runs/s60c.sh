#!/usr/bin/env bash
# Session 60, run jx: the two rules from runs jv and jw (vector_add's large fp32 / fp16 plans of one outer dim through
# row_grid at two packs a thread; reduce_sum rows of 288-479 packs at 200-2016 rows a block of 256 a row), with
# runs/s60-rules-off-switch.patch (ORT_RULES_OFF=1: the old paths, read at create) so one build times both.
# (1) build; (2) vector_add and reduce_sum tests + fuzz, memcheck and racecheck of both ops' row tests beside;
# (3) the reduce_sum sweep, the rule against the old path, at and past the rule's edges; (4) vector_add's plans the
# rule moves (runs/s60-va-row-grid-neighbours.py); (5) the bench row beside torch.compile, the old path then the rule.
source scripts/device_steps.sh
device_begin s60c 575
git apply docs/runs/s60-rules-off-switch.patch && echo "patch applied"
device_build
for t in memcheck racecheck; do
  DEVICE_END=$((DEVICE_END - 330)) sanitize_start $t va tests/ops/test_vector_add.py
  DEVICE_END=$((DEVICE_END - 330)) sanitize_start $t rs-rows tests/ops/test_reduce_sum.py -k "rows and not columns"
done
pytest_tally rules $(( $(left) - 100 )) tests/ops/test_vector_add.py tests/ops/test_reduce_sum.py tests/fuzz \
  -k "vector_add or reduce_sum" --backend nvidia -n 6
sanitize_wait
ROWS="180 200 232 264 528 1008 2016 2048 2400"
timeout 100 python docs/runs/s58-few-rows-sweep.py --switch ORT_RULES_OFF --arms 1 0 --lengths 1024 1152 1216 1280 \
  1536 1792 1856 1916 --rows $ROWS --dtypes float32 > $W/rs-fp32.csv 2> $W/rs-fp32.err
echo "fp32 sweep rc=$? ($(date +%T)), $(wc -l < $W/rs-fp32.csv) lines"; tail -2 $W/rs-fp32.err; pack
timeout 130 python docs/runs/s58-few-rows-sweep.py --switch ORT_RULES_OFF --arms 1 0 --lengths 2304 2560 3072 3584 \
  3712 3832 --rows $ROWS --dtypes bfloat16 float16 > $W/rs-16.csv 2> $W/rs-16.err
echo "16-bit sweep rc=$? ($(date +%T)), $(wc -l < $W/rs-16.csv) lines"; tail -2 $W/rs-16.err; pack
timeout 120 python docs/runs/s60-va-row-grid-neighbours.py > $W/va-neighbours.csv 2> $W/va-neighbours.err
echo "va neighbours rc=$? ($(date +%T)), $(wc -l < $W/va-neighbours.csv) lines"; tail -2 $W/va-neighbours.err; pack
for v in 1 0; do
  [ "$(left)" -gt 75 ] || { echo "bench $v skipped: $(left) s left"; continue; }
  ORT_RULES_OFF=$v timeout $(( $(left) - 5 )) python -m operator_runtime bench --op vector_add --backend nvidia \
    --peers compile --case row-broadcast-16384^2 --out $W/bcastc-$v > $W/bcastc-$v.log 2>&1
  echo "bench off=$v rc=$? ($(date +%T))"; pack
done
ab_summary bcastc; echo "== end ($(date +%T))"; pack
