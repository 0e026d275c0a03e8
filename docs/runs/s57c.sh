#!/usr/bin/env bash
# Run jg (session 57): the fuzz tests beyond CI's profile on the GPU (HYPOTHESIS_PROFILE=gpu, 300 examples a test):
# nvidia under three new seeds and tilelang under one, four processes at once, bounded; then the rewritten
# plan-cache file on tilelang.
source scripts/device_steps.sh
device_begin s57c 420
device_build
export HYPOTHESIS_PROFILE=gpu
pids=()
for seed in 571 572 573; do
  (pytest_tally nvidia-$seed 20 tests/fuzz --backend nvidia -p no:xdist --hypothesis-seed=$seed > $W/tally-nvidia-$seed.txt) &
  pids+=($!)
done
(pytest_tally tilelang-574 20 tests/fuzz --backend tilelang -p no:xdist --hypothesis-seed=574 > $W/tally-tilelang-574.txt) &
pids+=($!)
python -m pytest tests/ops/test_plan_cache.py --backend tilelang -v -rs -p no:cacheprovider -p no:xdist > $W/plan-cache-tilelang.log 2>&1
tail -1 $W/plan-cache-tilelang.log
wait "${pids[@]}"  # by pid: a bare wait would wait for the console's tee
cat $W/tally-*.txt
echo "== end ($(date +%T))"; pack
