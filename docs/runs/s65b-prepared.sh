#!/usr/bin/env bash
# Run as it was in session 65 (run ku; results in perf-notes, "Session 65").
# Prepared in session 64 (CPU only; not yet run): perf-notes session 64, "For the next session" items 1-2. The switch
# runs/s64-rs-after-wait-switch-2.patch (ORT_RS_TRIGGER=w, read at create; not on main) gives reduce_sum's short_rows
# an AFTER_WAIT instantiation and sends it there up to two waves, and sends packed_rows a warp a row after the wait
# wherever the rule says Early (past one block an SM too); 0 is main's rule. One build times both, each shape in one
# process (the bench's timing). (1) reduce_sum tests + fuzz under w; (2) lane rows past one block an SM, 133-400
# blocks; (3) short_rows rows (fp32 rows of 100 / 128 elements, 16-bit of 100: not whole packs) at 0.12-3.9 waves;
# (4) the bench's small reduce_sum rows under 0 and w. About 5 min after a cold start; predictions into perf-notes first.
source scripts/device_steps.sh
device_begin s65b 560
git apply docs/runs/s64-rs-after-wait-switch-2.patch && echo "switch applied"
device_build
export ORT_RS_TRIGGER=w
pytest_tally w 420 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
unset ORT_RS_TRIGGER
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_RS_TRIGGER --arms 0 w"
ROWS=$(python -c "print(' '.join(str(8 * b) for b in range(133, 401, 7)))")
timeout 120 python $SWEEP --rows $ROWS --lengths 1040 1288 1536 2048 --dtypes float16 > $W/lanes16.csv 2>&1
echo "lanes16 rc=$? ($(date +%T))"; pack
timeout 60 python $SWEEP --rows $ROWS --lengths 768 1024 --dtypes float32 > $W/lanes32.csv 2>&1
echo "lanes32 rc=$? ($(date +%T))"; pack
SHORT="1024 2048 3072 4096 6144 8192 10240 12288 14336 16384 20480 24576 32768"
timeout 40 python $SWEEP --rows $SHORT --lengths 100 128 --dtypes float32 > $W/short32.csv 2>&1
timeout 40 python $SWEEP --rows $SHORT --lengths 100 --dtypes float16 bfloat16 > $W/short16.csv 2>&1
echo "short rc=$? ($(date +%T))"; pack
switch_twice bench ORT_RS_TRIGGER "0 w" 30 python -m operator_runtime bench --op reduce_sum --backend nvidia \
  --case 144x1280 4096x128 4096x1024 4080x1536 1008x2304 --out '$AB_OUT'
ab_summary bench > $W/bench-summary.txt; cat $W/bench-summary.txt
sweep_summary lanes16 lanes32 short32 short16
echo "== end ($(date +%T))"; pack
