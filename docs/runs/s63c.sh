#!/usr/bin/env bash
# Session 63, run kk. (1) TileLang's few-rows bound past 20 rows an SM at 2816 halves (session 62 left it untimed):
# the one masked pass (m128x3) beside the old pass (block) at 2640-5280 rows, both halves, alone on the GPU.
# (2) The whole suite on both GPU backends at once (the tests time nothing; nvidia on 4 workers, TileLang, whose
# kernels compile on one core each, on 11), under the call's remaining time: a suite cut by it says how far it got.
source scripts/device_steps.sh
device_begin s63c 585
device_build
ROWS="2640 2904 3168 3696 4224 5280"
timeout 150 python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 bfloat16 \
  --shapes $(for r in $ROWS; do printf "%sx2816 " $r; done) --variants block m128x3 > $W/tl-2816.csv 2> $W/tl-2816.err
echo "tilelang 2816 sweep rc=$? ($(date +%T))"; tail -2 $W/tl-2816.err | cut -c1-200; cat $W/tl-2816.csv; pack
pytest_tally nv-all 12 tests/ops tests/fuzz tests/harness tests/test_cuda_launch.py -m "not lowering" --backend nvidia \
  -n 4 > $W/nv-all.tally 2>&1 &
NV=$!
pytest_tally tl-all 12 tests/ops tests/fuzz tests/tilelang tests/harness -m "not lowering" --backend tilelang \
  -n 11 > $W/tl-all.tally 2>&1 &
TL=$!
wait $NV $TL  # by pid: a bare wait would also wait for the console's tee
cat $W/nv-all.tally $W/tl-all.tally
echo "== end ($(date +%T))"; pack
