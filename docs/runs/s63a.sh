#!/usr/bin/env bash
# Session 63, run ki. (1) session 62's corrected bit-for-bit ties (operator_runtime_testing.rounding: b a fraction of
# a's 16-bit ulp, 25 % exact ties) on both GPU backends; (2) session 62's prepared throttle sweep
# (tests/bench/sweeps/softmax_held_throttle.cu: online_held's body and a copy shaped like it with each thread's four
# loads in 1, 2 or 4 dependent groups, at three and four blocks an SM; every softmax arm's output compared byte for byte
# with online_held's); (3) the softmax 4096x16384 bench row with Liger, same build. About 5 min after a cold start.
source scripts/device_steps.sh
device_begin s63a 560
device_build
for b in nvidia tilelang; do
  timeout 150 python -m pytest tests/ops/test_vector_add.py -k bit_for_bit --backend $b -n 8 -p no:cacheprovider \
    > $W/ties-$b.log 2>&1; echo "ties $b rc=$? ($(date +%T)): $(tail -1 $W/ties-$b.log)"
done; pack
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_throttle.cu -o /tmp/throttle &&
  timeout $(( $(left) - 90 )) /tmp/throttle > $W/throttle.csv 2> $W/throttle.err
echo "sweep rc=$? ($(date +%T))"; head -5 $W/throttle.err; cat $W/throttle.csv; pack
timeout $(( $(left) - 10 )) python -m operator_runtime bench --op softmax --backend nvidia --peers liger \
  --case 4096x16384 --out $W/bench > $W/bench.log 2>&1; echo "bench rc=$? ($(date +%T))"
grep -E "4096x16384" $W/bench.log | head -20; pack
echo "== end ($(date +%T))"; pack
