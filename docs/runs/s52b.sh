#!/usr/bin/env bash
# Session 52, run im: TileLang column sums by row lanes (reduce_columns_lanes_program). A = the installed tree with
# main's tilelang/reduce_sum.py and descriptors.py swapped in; B = the tree. (1) build; (2) the column-sum sweep again
# with an unsplit arm, four shapes around the unsplit edge and the element kernels (CUDA only); (3) bench the column row
# on both backends A B A B (our CUDA is the same in both arms: the TileLang ratio's denominator); (4) B's reduce_sum
# tests and fuzz on tilelang, memcheck of its column cases beside them.
source scripts/device_steps.sh
device_begin im 580
device_build
package_copy /tmp/A .device/s52-A/reduce_sum.py .device/s52-A/descriptors.py
echo "== sweep reduce_sum_columns ($(date +%T), $(left) s left)"
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns \
  && timeout 120 build/sweeps/reduce_sum_columns > $W/reduce_sum_columns.csv 2> $W/reduce_sum_columns.err
echo "sweep rc=$? rows=$(wc -l < $W/reduce_sum_columns.csv)"; pack
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice tcols 170 90 python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang \
  --case columns-32768x4096-dim0 --out '$AB_OUT'
NAME=tcols W=$W python - <<'PY' | tee $W/tcols-summary.txt
import glob, json, os
for f in sorted(glob.glob(f"{os.environ['W']}/{os.environ['NAME']}-*/bench.rows.jsonl")):
    rows = [json.loads(l) for l in open(f)]
    nv = {r['dtype']: r['us_median'] for r in rows if r['backend'] == 'nvidia'}
    for r in rows:
        if r['backend'] == 'tilelang':
            print(f"{f.split('/')[-2]:9s} {r['dtype']:9s} tilelang {r['us_median']:8.2f} nvidia {nv[r['dtype']]:8.2f} "
                  f"torch {r['torch_us']:8.2f} x{nv[r['dtype']] / r['us_median']:.3f} of ours, x{r['torch_us'] / r['us_median']:.3f} torch")
PY
pack
echo "== B: reduce_sum tests and fuzz on tilelang; memcheck of the column cases ($(date +%T), $(left) s left)"
SANITIZE_BACKEND=tilelang sanitize_start memcheck tl tests/ops/test_reduce_sum.py -k "columns or middle"
timeout $(($(left) - 25)) python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend tilelang \
  -n 12 -v -m "not lowering" -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang-rs.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-tilelang-rs.log) FAILED $(grep -c ' FAILED' $W/pytest-tilelang-rs.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-tilelang-rs.log | head; tail -1 $W/pytest-tilelang-rs.log | cut -c1-200; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
