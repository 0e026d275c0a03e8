#!/usr/bin/env bash
# Session 63, run kl. TileLang's one masked pass at 2816 halves now runs to 40 rows an SM (ONE_PASS_ROWS_PER_SM, from
# run kk). (1) Alone on the GPU, past the bounds, for the next session: 2816 at 48-120 rows an SM, 3328 at 24-40;
# (2) TileLang's reduce_sum tests and fuzz with the new cases (rows-few-one-pass-forty, -eleven-past), memcheck of
# the few-one-pass cases, and the tests run kk's whole-suite call did not reach, at once.
source scripts/device_steps.sh
device_begin s63d 545
device_build
shapes() { local n=$1; shift; for r in "$@"; do printf "%sx%s " $r $n; done; }
timeout 120 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes $(shapes 2816 6336 7920 10560 15840) $(shapes 3328 3168 3960 5280) --variants block m128x3 m128x4 \
  > $W/tl-past.csv 2> $W/tl-past.err
echo "tilelang past-bound sweep rc=$? ($(date +%T))"; tail -2 $W/tl-past.err | cut -c1-200; cat $W/tl-past.csv; pack
SANITIZE_BACKEND=tilelang sanitize_start memcheck few tests/ops/test_reduce_sum.py -k few-one-pass
pytest_tally tl-rs 20 tests/ops/test_reduce_sum.py tests/fuzz -k reduce_sum --backend tilelang -n 8 > $W/tl-rs.tally 2>&1 &
RS=$!
pytest_tally tl-rest 20 tests/tilelang/test_eager_and_backend.py tests/ops/test_reduce_sum.py --backend tilelang -n 3 \
  -k "5x3000 or finishing_kernel_pays" > $W/tl-rest.tally 2>&1 &
REST=$!
wait $RS $REST  # by pid: a bare wait would also wait for the console's tee
cat $W/tl-rs.tally $W/tl-rest.tally
sanitize_wait
echo "== end ($(date +%T))"; pack
