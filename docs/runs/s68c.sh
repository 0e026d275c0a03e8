#!/usr/bin/env bash
# Session 68, run lm: run ll's bound with fp32 rows of 4 packs a lane back at 1.375 (they lost at 203, 210 and 245
# in ll). Host code only. reduce_sum's tests, fuzz and the rule's tests on nvidia, memcheck and racecheck of the
# lane / short / packed cases beside; then part 2 of the sanitizer suite (racecheck of softmax fp16 in eight
# shards), never timed before, under what is left of the call's bound.
source scripts/device_steps.sh
device_begin s68c ${SECONDS_BUDGET:-560}
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally rs 60 tests/ops/test_reduce_sum.py tests/fuzz/test_fuzz_ops.py tests/test_cuda_launch.py -k "reduce_sum or lane or after_wait" --backend nvidia -n 4
sanitize_wait
echo "== part 2 ($(date +%T), $(left) s left)"
sanitize_suite 2
sanitize_wait
echo "== end ($(date +%T))"; pack
