#!/usr/bin/env bash
# Session 45, run ho: A = main (.device/s45c-A/: our CUDA's lane-pack grids always under ManyWaves; TileLang's warp a
# row at 2-4 packs a lane only), B = this tree (our CUDA: packed_rows at a warp a row triggers at exit where the next
# grid's blocks would not fit beside it, lane_packs_at_exit; TileLang: 5-8 packs a lane by warp_row_plan; plan()'s
# `vec` hoisted). (1) both builds; (2) bench reduce_sum both backends on rows-144x1280, 4080x1536, 4096x1024 A B A B;
# (3) B's nvidia and TileLang reduce_sum tests and fuzz; (4) B's nvidia reduce_sum under memcheck and racecheck;
# (5) in what is left, the TileLang sweep at 1024-2048 rows of 512-1024 halves (2-4 packs early: does the trigger
# cost there what it cost at 5-8 packs?), for the next session.
source scripts/device_steps.sh
device_begin s45c 575
mkdir -p /tmp/srcA && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcA
cp .device/s45c-A/short_rows_plan.cuh .device/s45c-A/reduce_sum_cuda.cu /tmp/srcA/src/cpp/ops/reduce_sum/nvidia/
cp .device/s45c-A/cuda_launch.cuh /tmp/srcA/src/cpp/core/
cp .device/s45c-A/reduce_sum.py .device/s45c-A/descriptors.py /tmp/srcA/src/operator_runtime/tilelang/
(cd /tmp/srcA && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON python -m pip install -q --no-build-isolation --no-deps \
  --target /tmp/A -Cbuild-dir=/tmp/buildA . > $W/build-A.log 2>&1; echo "build A rc=$? ($(date +%T))") & bA=$!
device_build
wait $bA
grep -c "warp_row_plan" /tmp/A/operator_runtime/tilelang/descriptors.py \
  "$(python -c 'import operator_runtime.tilelang.descriptors as m; print(m.__file__)')"
echo "== bench A B A B ($(date +%T), $(left) s left)"
for i in 1 2; do for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout $([ $i = 1 ] && echo 110 || echo 60) python -m operator_runtime bench \
    --op reduce_sum --backend nvidia tilelang --case rows-144x1280 rows-4080x1536 rows-4096x1024 \
    --out $W/bench-$v-$i > $W/bench-$v-$i.log 2>&1
  echo "bench $v $i rc=$? ($(date +%T))"; rm -f $W/bench-$v-$i/*.png; pack
done; done
echo "== B: nvidia and TileLang reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout 60 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k "reduce_sum" --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "nvidia rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
timeout 130 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz tests/tilelang -k reduce_sum --backend tilelang \
  -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "tilelang rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log; pack
echo "== B under memcheck and racecheck: nvidia reduce_sum ($(date +%T), $(left) s left)"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  timeout $(( $(left) - 50 )) compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_reduce_sum.py --backend nvidia -q -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $W/$tool.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(grep -E '[0-9]+ passed' $W/$tool.log | tail -1 | cut -c1-80); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | tail -1)"
done; pack
if [ "$(left)" -gt 40 ]; then
  echo "== sweep tilelang_reduce_sum, 2-4 packs ($(date +%T), $(left) s left)"
  timeout $(( $(left) - 8 )) python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 \
    --variants packed warp block --shapes 1024x512 1024x1024 2048x1024 1024x768 > $W/tilelang_reduce_sum.csv \
    2> $W/tilelang_reduce_sum.err; echo "rc=$?"
fi
echo "== end ($(date +%T))"; pack
