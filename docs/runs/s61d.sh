#!/usr/bin/env bash
# Run kd (session 61): the landed tree (runs/s61-va-native-pairs.patch with bf16 on row_grid and flat's blocks of 1024,
# no switch; TileLang's few-rows rule): vector_add's tests and fuzz, memcheck and racecheck of its tests, and the bench
# rows the change moves beside torch.compile.
source scripts/device_steps.sh
device_begin s61d 330
device_build
pytest_tally va 200 tests/ops/test_vector_add.py tests/fuzz -k vector_add --backend nvidia -n 8
sanitize_pair tests/ops/test_vector_add.py
timeout $(( $(left) - 5 )) python -m operator_runtime bench --op vector_add --backend nvidia --peers compile \
  --case flat-2^28 4096x4096 row-broadcast-16384^2 --out $W/landed > $W/landed.log 2>&1; echo "bench rc=$? ($(date +%T))"
ab_summary landed; rm -f $W/*/*.png; echo "== end ($(date +%T))"; pack
