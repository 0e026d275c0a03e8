#!/usr/bin/env bash
# Session 49, run ic (short form, the device time nearly spent): main with the wide flat blocks landed. (1) build;
# (2) vector_add's tests and fuzz on nvidia and on tilelang side by side (-v: a cut run names what it finished).
source scripts/device_steps.sh
device_begin ic 160
device_build
echo "== vector_add tests on nvidia and tilelang ($(date +%T), $(left) s left)"
PIDS=()
for b in nvidia tilelang; do
  timeout $(($(left) - 8)) python -m pytest tests/ops/test_vector_add.py tests/fuzz -k "vector_add" --backend $b -n 7 \
    -m "not lowering" -v -p no:cacheprovider -p no:benchmark > $W/pytest-$b.log 2>&1 &
  PIDS+=($!)
done
wait "${PIDS[@]}"
for b in nvidia tilelang; do
  echo "$b: PASSED $(grep -c ' PASSED' $W/pytest-$b.log) FAILED $(grep -c ' FAILED' $W/pytest-$b.log); $(tail -1 $W/pytest-$b.log | cut -c1-150)"
done
echo "== end ($(date +%T))"; pack
