#!/usr/bin/env bash
# Session 46, run hs: the whole bench from one build, part 2 (the same tree as run hr; TileLang's kernels from hr's
# cache in .device/). (1) build; (2) bench reduce_sum, vector_add and copy, both backends, every peer; (3) the whole
# nvidia suite and fuzz in what is left.
source scripts/device_steps.sh
device_begin s46d 575
device_build
for opt in reduce_sum:130 vector_add:240 copy:75; do
  op=${opt%:*}; echo "== bench $op, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
  timeout ${opt#*:} python -m operator_runtime bench --op $op --backend nvidia tilelang --peers liger compile \
    --out $W/$op > $W/bench-$op.log 2>&1
  echo "rc=$? rows=$(wc -l < $W/$op/bench.rows.jsonl)"; rm -f $W/$op/*.png; grep -E "geomean|skipped" $W/bench-$op.log | head -4
  pack
done
echo "== nvidia suite and fuzz ($(date +%T), $(left) s left)"
timeout $(( $(left) - 8 )) python -m pytest tests/ops tests/fuzz --backend nvidia -n 15 -q -p no:cacheprovider \
  -p no:benchmark -m "not lowering" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log
echo "== end ($(date +%T))"; pack
