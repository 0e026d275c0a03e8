#!/usr/bin/env bash
# Session 67, run lh: the lane bound of run lg cut back to 16-bit rows of 5 packs (fp32 keeps 1.375). Host code
# only. reduce_sum's tests and fuzz and the rule's tests on nvidia, memcheck and racecheck of the lane / short /
# packed cases beside. About 3 min after a cold start.
source scripts/device_steps.sh
device_begin s67e 300
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally rs 60 tests/ops/test_reduce_sum.py tests/fuzz/test_fuzz_ops.py tests/test_cuda_launch.py -k "reduce_sum or lane or after_wait" --backend nvidia -n 4
sanitize_wait
echo "== end ($(date +%T))"; pack
