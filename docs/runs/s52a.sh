#!/usr/bin/env bash
# Session 52, run il: column sums by strided_lanes. A = main (strided), built in the background; B = the tree
# (strided_lanes<T, VEC, 8, 8> for column sums of whole packs). (1) both builds; (2) the column-sum sweep (every
# lanes/unroll arm and the library's strided at one wave, half and twice, six shapes, three dtypes); (3) the bench's
# column row A B A B with Inductor beside; (4) ncu of the fp16 row: A, B, Inductor; (5) B's reduce_sum tests and fuzz
# on nvidia, memcheck and racecheck of the column cases beside them.
source scripts/device_steps.sh
device_begin il 580
build_a
git apply .device/s52-columns.patch && echo "patch applied"
device_build
echo "== sweep reduce_sum_columns ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 150 build/sweeps/reduce_sum_columns > $W/reduce_sum_columns.csv 2> $W/reduce_sum_columns.err
echo "sweep rc=$? rows=$(wc -l < $W/reduce_sum_columns.csv)"
(cuobjdump -sass build/sweeps/reduce_sum_columns 2>&1 | awk '/Function : .*strided_lanesINS_10bfloat16_tELi8ELi8ELi8E/{f=1;next} /Function : /{f=0} f' \
  | grep -E "LDG|FADD|BRA|BAR|STS|LDS" | head -80 > $W/sass-lanes-bf16-8-8.txt) ; echo "sass lines $(wc -l < $W/sass-lanes-bf16-8-8.txt)"
python - <<'PY'
import csv, os
rows = list(csv.DictReader(open(os.environ["W"] + "/reduce_sum_columns.csv")))
best = {}
for r in rows:
    k = (r["dtype"], r["shape"])
    lib = best.setdefault(k, {})
    lib[(r["arm"], r["splits"])] = float(r["us"])
for (dt, sh), d in best.items():
    (arm, sp), us = min(d.items(), key=lambda kv: kv[1])
    libs = [v for (a, s), v in d.items() if a == "strided"]
    l88 = [v for (a, s), v in d.items() if a == "lanes8_u8"]
    print(f"{dt:9s} {sh:12s} best {arm}@{sp} {us:8.2f}  strided best {min(libs):8.2f}  lanes8_u8 best {min(l88):8.2f}")
PY
pack
wait_a
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice cols 110 80 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
  --case columns-32768x4096-dim0 --out '$AB_OUT'
ab_summary cols | tee $W/cols-summary.txt
echo "== ncu: columns fp16, A, B and Inductor ($(date +%T), $(left) s left)"
PYTHONPATH="$A_DIR:$PYTHONPATH" OUT=$W/ncu-A timeout 50 scripts/ncu_profile.sh "reduce-columns-fp16-ours" > $W/ncu-A.log 2>&1
OUT=$W/ncu-B timeout 90 scripts/ncu_profile.sh "reduce-columns-fp16-(ours|compile)" > $W/ncu-B.log 2>&1
tail -n 6 $W/ncu-A.log $W/ncu-B.log | cut -c1-220; pack
echo "== B: reduce_sum tests and fuzz; sanitizers on the column cases ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
timeout $(($(left) - 25)) python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia \
  -n 12 -v -m "not lowering" -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia-rs.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-nvidia-rs.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia-rs.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rs.log | head; tail -1 $W/pytest-nvidia-rs.log | cut -c1-200; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
