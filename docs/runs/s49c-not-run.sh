#!/usr/bin/env bash
# Session 49, run ic: main with the wide flat blocks landed (= run ib's B). (1) build; (2) vector_add's tests on
# tilelang (the new 2^27 + 5 test); (3) tests/ops and tests/fuzz on nvidia, -v, so that a cut run names what it
# finished (run ib's whole suite was cut 4 tests short, -q); (4) the TileLang suite in what is left.
source scripts/device_steps.sh
device_begin ic 285
device_build
echo "== vector_add on tilelang ($(date +%T), $(left) s left)"
timeout 70 python -m pytest tests/ops/test_vector_add.py --backend tilelang -n 15 -q -p no:cacheprovider \
  -p no:benchmark > $W/pytest-tilelang-va.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang-va.log | head; tail -1 $W/pytest-tilelang-va.log; pack
echo "== nvidia: tests/ops tests/fuzz ($(date +%T), $(left) s left)"
timeout 170 python -m pytest tests/ops tests/fuzz --backend nvidia -n 15 -m "not lowering" -v -p no:cacheprovider \
  -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "rc=$? PASSED $(grep -c ' PASSED' $W/pytest-nvidia.log) FAILED $(grep -c ' FAILED' $W/pytest-nvidia.log)"
grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log | cut -c1-200; pack
echo "== tilelang suite ($(date +%T), $(left) s left)"
timeout $(($(left) - 10)) python -m pytest tests/ops tests/tilelang tests/fuzz --backend tilelang -n 15 -m "not lowering" \
  -q -p no:cacheprovider -p no:benchmark > $W/pytest-tilelang.log 2>&1
echo "rc=$? passed dots: $(tr -cd '.' < $W/pytest-tilelang.log | wc -c)"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head
tail -1 $W/pytest-tilelang.log | cut -c1-200
echo "== end ($(date +%T))"; pack
