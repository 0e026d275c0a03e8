#!/usr/bin/env bash
# Session 50, run id: the whole bench from one build, part 2 (the same tree as run ic; TileLang's kernels from ic's
# cache in .device/). (1) build; (2) bench reduce_sum and vector_add, both backends, every peer; (3) the nvidia
# suite (every test directory but test_build.py's nvcc compiles, which CI runs), -v so a cut run names what it ran.
source scripts/device_steps.sh
device_begin id 575
device_build
for opt in reduce_sum:140 vector_add:250; do
  op=${opt%:*}; echo "== bench $op, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
  timeout ${opt#*:} python -m operator_runtime bench --op $op --backend nvidia tilelang --peers liger compile \
    --out $W/$op > $W/bench-$op.log 2>&1
  echo "rc=$? rows=$(wc -l < $W/$op/bench.rows.jsonl)"; rm -f $W/$op/*.png
  grep -E "geomean|skipped" $W/bench-$op.log | cut -c1-220 | head -4; pack
done
echo "== nvidia suite ($(date +%T), $(left) s left)"
timeout $(( $(left) - 8 )) python -m pytest tests --ignore tests/test_build.py --backend nvidia -n 15 -v \
  -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' $W/pytest-nvidia.log) SKIPPED $(grep -c ' SKIPPED' $W/pytest-nvidia.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log | cut -c1-200
echo "== end ($(date +%T))"; pack
