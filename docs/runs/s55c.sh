#!/usr/bin/env bash
# Session 55, run ix: the three tests/tilelang tests that run iw's bound cut from the nvidia suite (its log against
# pytest --collect-only), on the same tree.
source scripts/device_steps.sh
device_begin s55c 230
device_build
pytest_tally cut 5 "tests/tilelang/test_eager_and_backend.py::test_long_softmax_rows_in_a_cluster[163840-torch.bfloat16]" \
  "tests/tilelang/test_eager_and_backend.py::test_more_rows_than_grid_y_holds[vector_add-full]" \
  "tests/tilelang/test_eager_and_backend.py::test_more_rows_than_grid_y_holds[vector_add-row-broadcast]" \
  --backend nvidia -p no:xdist -m "not lowering"
echo "== end ($(date +%T))"; pack
