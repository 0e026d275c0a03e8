#!/usr/bin/env bash
# Session 46, run hp: this tree (B). TileLang's 2-4 packs a lane at exit over more than a quarter of the SMs' blocks
# and at most one an SM (item 0k, session 45's patch); our CUDA's packed_rows at a warp a row at exit in the same
# window (lane_packs_at_exit) and with_lane_packs folding its two runtime-to-template recursions. (1) build; (2) our
# CUDA's lane-packs sweep around the window, out of L2 and in the bench's context (l2), early / HalfWindow / at exit;
# (3) the TileLang reduce_sum sweep at the window's rows, the library (packed) against warp (at exit) and block;
# (4) nvidia and TileLang reduce_sum tests and fuzz; (5) nvidia reduce_sum under memcheck and racecheck.
source scripts/device_steps.sh
device_begin s46a 575
device_build
echo "== sweep reduce_sum_lane_packs window, out of L2 and l2 ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_lane_packs.cu -o /tmp/rslp &&
  for m in window "l2 window"; do timeout 60 /tmp/rslp $m > "$W/reduce_sum_lane_packs_${m// /_}.csv" \
    2>>$W/reduce_sum_lane_packs.err; echo "$m rc=$? ($(date +%T))"; done; pack
echo "== sweep tilelang_reduce_sum ($(date +%T), $(left) s left)"
timeout 80 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --variants packed warp block --shapes 1024x512 1024x1024 300x1024 2048x1024 1000x264 > $W/tilelang_reduce_sum.csv \
  2> $W/tilelang_reduce_sum.err; echo "rc=$? ($(date +%T))"; pack
echo "== nvidia and TileLang reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout 70 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k "reduce_sum" --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "nvidia rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
timeout 140 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k reduce_sum --backend tilelang \
  -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "tilelang rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log; pack
echo "== nvidia reduce_sum under memcheck and racecheck ($(date +%T), $(left) s left)"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  timeout $(( $(left) - 10 )) compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_reduce_sum.py --backend nvidia -q -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $W/$tool.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(grep -E '[0-9]+ passed' $W/$tool.log | tail -1 | cut -c1-80); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | tail -1)"
done
echo "== end ($(date +%T))"; pack
