#!/usr/bin/env bash
# Prepared in session 62 (CPU only; not yet run). Softmax 4096x16384 halves with fewer bytes in flight an SM
# (tests/bench/sweeps/softmax_held_throttle.cu): online_held's body and a copy shaped like it, each thread's four loads
# issued in 1, 2 or 4 groups (each group's addresses tied to the previous group's data through a runtime zero; read in
# the SASS on the CPU with scripts/cpu_sass.sh: LDG, LOP3 of its first word with the zero, the next LDG's address),
# at three blocks an SM and (fp16) four. Every arm's output is compared with online_held's. Then, if an arm reaches
# 4.1 TB/s, the bench row beside it is the next call's work (a library change, tests, sanitizers). About 3 min after a
# cold start (one sweep build, 2 x 14 arms of ~70-130 us x 20+ launches x 8 replays).
source scripts/device_steps.sh
device_begin s63b 400
device_build
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_throttle.cu -o /tmp/throttle &&
  timeout $(( $(left) - 60 )) /tmp/throttle > $W/throttle.csv 2> $W/throttle.err
echo "sweep rc=$? ($(date +%T))"; head -5 $W/throttle.err; cat $W/throttle.csv; pack
timeout $(( $(left) - 10 )) python -m operator_runtime bench --op softmax --backend nvidia --peers liger \
  --case 4096x16384 --out $W/bench > $W/bench.log 2>&1; echo "bench rc=$? ($(date +%T))"; pack
echo "== end ($(date +%T))"; pack
