#!/usr/bin/env bash
# Run kr (session 64): AfterWait as separate instantiations (packed_rows / short_rows' AFTER_WAIT template argument,
# cuda::pdl_prologue_after_wait), every other kernel's PTX byte-identical to main's. The experiment switch
# (runs/s64-rs-after-wait-switch.patch: ORT_RS_TRIGGER=w, read at create) moves reduce_sum's short rows and lane
# rows onto the AfterWait instantiations wherever main's rule says Early; 0 is main's rule. One build times both.
# (1) reduce_sum tests + fuzz under w (the new instantiations) and under main's rule, memcheck and racecheck under w;
# (2) 0 against w over short rows (16-128 elements, 64-65536 rows) and lane rows (every fifth block count, 8-263);
# (3) the bench's small reduce_sum rows under 0 and w, twice.
source scripts/device_steps.sh
device_begin s64d 480
git apply docs/runs/s64-rs-after-wait-switch.patch && echo "switch applied"
device_build
export ORT_RS_TRIGGER=w
sanitize_start memcheck w tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck w tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally w 330 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
unset ORT_RS_TRIGGER
pytest_tally main 280 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 6
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_RS_TRIGGER --arms 0 w"
timeout 60 python $SWEEP --rows 64 256 1024 2048 4096 8192 12288 16384 24576 32768 65536 --lengths 16 32 64 128 \
  > $W/short.csv 2>&1; echo "short rc=$? ($(date +%T))"; pack
ROWS=$(python -c "print(' '.join(str(8 * b) for b in range(8, 264, 5)))")
timeout 70 python $SWEEP --rows $ROWS --lengths 1040 1536 2048 --dtypes float16 > $W/lane16.csv 2>&1
echo "lane16 rc=$? ($(date +%T))"; pack
timeout 40 python $SWEEP --rows $ROWS --lengths 768 --dtypes float32 > $W/lane32.csv 2>&1
echo "lane32 rc=$? ($(date +%T))"; pack
switch_twice bench ORT_RS_TRIGGER "0 w" 30 python -m operator_runtime bench --op reduce_sum --backend nvidia \
  --case 144x1280 4096x128 4096x1024 4080x1536 1008x2304 --out '$AB_OUT'
sanitize_wait
ab_summary bench > $W/bench-summary.txt; cat $W/bench-summary.txt
python - "$W" <<'PY'
import csv, sys
w = sys.argv[1]
for kind in ("short", "lane16", "lane32"):
    try:
        rows = [r for r in csv.DictReader(open(f"{w}/{kind}.csv")) if r.get("armw_us")]
    except OSError:
        continue
    print(f"== {kind}: dtype n rows, main us, after-wait us, main / after-wait")
    for r in rows:
        print(r["dtype"], r["n"], r["rows"], r["arm0_us"], r["armw_us"], r["best_over_main"])
PY
echo "== end ($(date +%T))"; pack
