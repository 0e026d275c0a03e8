#!/usr/bin/env bash
# Session 54, run is: runs/s54a-prepared.sh (written in session 53) as it ran. A = main, built in the background; B =
# A + runs/s53-columns-fp32-pow2.patch + runs/s53-tilelang-columns-edge.patch. Both patches landed after this run.
source scripts/device_steps.sh
device_begin s54a 580
build_a
git apply docs/runs/s53-columns-fp32-pow2.patch docs/runs/s53-tilelang-columns-edge.patch && echo "patches applied"
device_build
wait_a
echo "== bench the column row A B A B, both backends ($(date +%T), $(left) s left)"
ab_twice cols 150 80 python -m operator_runtime bench --op reduce_sum --backend nvidia tilelang --peers compile \
  --case columns-32768x4096-dim0 --out '$AB_OUT'
ab_summary cols | tee $W/cols-summary.txt
echo "== TileLang at the edge shapes A B A B ($(date +%T), $(left) s left)"
ab_twice edge 150 60 python tests/bench/sweeps/softmax_lengths.py --backend tilelang --op reduce_sum --dim 0 \
  --dtypes bfloat16,float32 256x65536 512x81920 256x32768 384x49152 512x65536 4096x4096
for f in $W/edge-*.log; do echo "-- $f"; cat $f; done | cut -c1-120; pack
echo "== ncu: fp32 columns at 20 (A) and 16 (B) splits ($(date +%T), $(left) s left)"
PYTHONPATH="$A_DIR:$PYTHONPATH" OUT=$W/ncu-A timeout 60 scripts/ncu_profile.sh "reduce-columns-fp32-ours" > $W/ncu-A.log 2>&1
OUT=$W/ncu-B timeout 60 scripts/ncu_profile.sh "reduce-columns-fp32-ours" > $W/ncu-B.log 2>&1
tail -n 6 $W/ncu-A.log; tail -n 6 $W/ncu-B.log; pack
echo "== B: reduce_sum tests and fuzz on both backends; memcheck of the column cases ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
SANITIZE_BACKEND=tilelang sanitize_start memcheck rs-tl tests/ops/test_reduce_sum.py -k "columns or middle"
for b in nvidia tilelang; do
  pytest_tally $b-rs 20 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend $b -n 12 -m "not lowering"
done
sanitize_wait; pack
echo "== the 18 tests of tests/tilelang that run iq's bound cut ($(date +%T), $(left) s left)"
mapfile -t LEFT < docs/runs/s53b-left.txt
pytest_tally left 5 "${LEFT[@]}" --backend nvidia -n 6
echo "== end ($(date +%T))"; pack
