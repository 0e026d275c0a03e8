#!/usr/bin/env bash
# Session 54, run iu: the landed tree (as run it). (1) build; (2) the nvidia suite (every test directory but
# test_build.py, whose nvcc compiles run in CI), bounded by what is left of the session's device time.
source scripts/device_steps.sh
device_begin s54c 440
device_build
pytest_tally nvidia 10 tests --ignore tests/test_build.py --backend nvidia -n 15 -m "not lowering"
echo "== end ($(date +%T))"; pack
