#!/usr/bin/env bash
# Session 54, run it: the landed tree (main with run is's two rules). (1) build; (2) reduce_sum tests and fuzz on
# nvidia as landed; (3) the TileLang suite (tests/ops, tests/tilelang, tests/fuzz) with racecheck of the column and
# middle-dim cases on both backends beside it.
source scripts/device_steps.sh
device_begin s54b 570
device_build
pytest_tally nvidia-rs 20 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend nvidia -n 14 -m "not lowering"
echo "== TileLang suite, racecheck beside it ($(date +%T), $(left) s left)"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "columns or middle"
SANITIZE_BACKEND=tilelang sanitize_start racecheck rs-tl tests/ops/test_reduce_sum.py -k "columns or middle"
pytest_tally tilelang 20 tests/ops tests/tilelang tests/fuzz --backend tilelang -n 13 -m "not lowering"
sanitize_wait
echo "== end ($(date +%T))"; pack
