#!/usr/bin/env bash
# Session 55, run iw (as session 53 run iq): part 2 on the same tree. (1) build; (2) bench vector_add, both backends, every peer (GPU quiet);
# (3) the nvidia suite (every test directory but test_build.py), with memcheck and racecheck of reduce_sum's whole
# test file (every case, whole_batches and the rest) beside it.
source scripts/device_steps.sh
device_begin s55b 580
device_build
echo "== bench vector_add, nvidia and tilelang, every peer ($(date +%T), $(left) s left)"
timeout 240 python -m operator_runtime bench --op vector_add --backend nvidia tilelang --peers liger compile \
  --out $W/vector_add > $W/bench-vector_add.log 2>&1
echo "rc=$? rows=$(wc -l < $W/vector_add/bench.rows.jsonl)"; rm -f $W/vector_add/*.png
grep -E "geomean|skipped" $W/bench-vector_add.log | cut -c1-220 | head -4; pack
echo "== nvidia suite, sanitizers beside it ($(date +%T), $(left) s left)"
sanitize_start memcheck rs tests/ops/test_reduce_sum.py
sanitize_start racecheck rs tests/ops/test_reduce_sum.py
timeout $(( $(left) - 20 )) python -m pytest tests --ignore tests/test_build.py --backend nvidia -n 14 -v \
  -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T)) PASSED $(grep -c ' PASSED' $W/pytest-nvidia.log) SKIPPED $(grep -c ' SKIPPED' $W/pytest-nvidia.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log | cut -c1-200; pack
sanitize_wait
echo "== end ($(date +%T))"; pack
