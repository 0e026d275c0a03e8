#!/usr/bin/env bash
# Session 53, run ir: the column split rule. A = main, built in the background; B = A + runs/s53-columns-steps.patch
# (pieces of whole LANES x UNROLL row steps, and no split where the rows are under 1280 x the share of a wave the
# unsplit grid fills). (1) both builds; (2) the column sweep's shape mode from each tree, A B A B; (3) the bench's
# column row A B A B with Inductor beside; (4) the library at edge shapes, A B A B (softmax_lengths.py --dim 0);
# (5) B's reduce_sum tests and fuzz on nvidia, memcheck and racecheck of the column cases beside them. (A refused
# start cost 121 s first, so the 18 tests of tests/tilelang that run iq's bound cut were left out.)
source scripts/device_steps.sh
device_begin s53c 330
build_a
git apply .device/s53-columns-steps.patch && echo "patch applied"
device_build
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -I/tmp/srcA/src/cpp /tmp/srcA/tests/bench/sweeps/reduce_sum_columns.cu \
  -o build/sweeps/cols-A &
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/cols-B
wait $!
echo "== sweeps A B A B ($(date +%T), $(left) s left)"
for i in 1 2; do for v in A B; do
  timeout 30 build/sweeps/cols-$v 32768x4096 4096x4096 65536x1024 2048x16384 > $W/sweep-$v-$i.csv; echo "$v $i rc=$?"
done; done; pack
wait_a
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice cols 80 60 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
  --case columns-32768x4096-dim0 --out '$AB_OUT'
ab_summary cols | tee $W/cols-summary.txt
echo "== edge shapes A B A B ($(date +%T), $(left) s left)"
ab_twice edge 30 25 python tests/bench/sweeps/softmax_lengths.py --op reduce_sum --dim 0 --dtypes bfloat16,float32 \
  256x65536 512x81920 384x49152 512x65536 256x32768 4096x4096
for f in $W/edge-*.log; do echo "-- $f"; cat $f; done | cut -c1-120; pack
echo "== B: reduce_sum tests and fuzz; sanitizers on the column cases ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
timeout $(($(left) - 15)) python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia \
  -n 12 -v -m "not lowering" -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia-rs.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-nvidia-rs.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia-rs.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia-rs.log | head; tail -1 $W/pytest-nvidia-rs.log | cut -c1-200; pack
sanitize_wait; pack
echo "== end ($(date +%T))"; pack
