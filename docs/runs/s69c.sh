#!/usr/bin/env bash
# Run lq (session 69): the landed whole-grids band (lane_packs_after_wait's resident argument) against the rule
# before it in one build (runs/s69-lane-whole-off-switch.patch: ORT_LANE_WHOLE_OFF=1 passes resident 0), every arm
# over shared tensors, at every count the band takes inside the window of eleven (dtype, length) kernels, nine of
# them not in run lp (16-bit rows of 2, 3, 5, 6 and 7 packs, bf16 8, fp32 2, 4 and 5), each with the count after it
# as a control, twice; then reduce_sum's tests, fuzz and the rule's tests on nvidia with memcheck and racecheck of the
# lane / short / packed cases beside. About 6 min after a cold start.
source scripts/device_steps.sh
device_begin s69c ${SECONDS_BUDGET:-585}
git apply docs/runs/s69-lane-whole-off-switch.patch && echo "switch applied"
device_build
rows() {  # RESIDENT TOP: 8 x each count of 23-TOP blocks the band takes, and the count after it
  python -c "
S, top = 132 * $1, $2
band = [g for g in range(23, top + 1) if 40 * (S % g) < g]
print(' '.join(str(8 * g) for g in sorted({n for g in band for n in (g, g + 1) if n <= top})))"
}
SWEEP="docs/runs/s58-few-rows-sweep.py --switch ORT_LANE_WHOLE_OFF --arms 0 1 --shared-inputs"
for i in 1 2; do
  { timeout 30 python $SWEEP --rows $(rows 8 313) --lengths 512 --dtypes float16
    timeout 30 python $SWEEP --rows $(rows 8 313) --lengths 256 --dtypes float32
    timeout 30 python $SWEEP --rows $(rows 8 247) --lengths 768 --dtypes float16
    timeout 30 python $SWEEP --rows $(rows 8 247) --lengths 1280 --dtypes bfloat16
    timeout 30 python $SWEEP --rows $(rows 8 181) --lengths 1536 --dtypes bfloat16
    timeout 30 python $SWEEP --rows $(rows 8 181) --lengths 512 640 --dtypes float32
    timeout 30 python $SWEEP --rows $(rows 6 181) --lengths 1792 --dtypes float16 bfloat16
    timeout 30 python $SWEEP --rows $(rows 5 181) --lengths 2048 --dtypes bfloat16; } > $W/band-$i.csv 2>&1
  echo "band-$i rc=$? ($(date +%T))"; pack
done
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally rs 60 tests/ops/test_reduce_sum.py tests/fuzz/test_fuzz_ops.py tests/test_cuda_launch.py -k "reduce_sum or lane or after_wait" --backend nvidia -n 4
sanitize_wait
echo "== end ($(date +%T))"; pack
