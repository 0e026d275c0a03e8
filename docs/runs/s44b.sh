#!/usr/bin/env bash
# Session 44, run hj: A = main before session 44 (.device/s44b-A: reduce_sum's CUDA files and TileLang softmax.py),
# B = this tree (our CUDA's row sums of 33-128 packs as packed_rows, a warp a row of 2-4 packs a lane; TileLang's
# softmax a warp a row at 4 packs a lane from 2.5 blocks an SM). (1) builds; (2) the lane-packs sweep; (3) the
# bench's 4096x1024 rows, both ops, both backends, A B A B; (4) the row-sum probe A B; (5) B's tests; (6) B under
# memcheck and racecheck (nvidia reduce_sum).
source scripts/device_steps.sh
device_begin s44b 575
mkdir -p /tmp/srcA && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcA
cp .device/s44b-A/reduce_sum_cuda.cu .device/s44b-A/reduce_sum_kernels.cuh .device/s44b-A/short_rows_plan.cuh \
  /tmp/srcA/src/cpp/ops/reduce_sum/nvidia/ && cp .device/s44b-A/softmax.py /tmp/srcA/src/operator_runtime/tilelang/
(cd /tmp/srcA && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON python -m pip install -q --no-build-isolation --no-deps \
  --target /tmp/A -Cbuild-dir=/tmp/buildA . > $W/build-A.log 2>&1; echo "build A rc=$? ($(date +%T))") & bA=$!
device_build
wait $bA
grep -c lane_packs /tmp/srcA/src/cpp/ops/reduce_sum/nvidia/reduce_sum_cuda.cu src/cpp/ops/reduce_sum/nvidia/reduce_sum_cuda.cu
for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH python -c "import operator_runtime as o; print('$v', o.__file__)"; done
echo "== sweep reduce_sum_lane_packs ($(date +%T), $(left) s left)"
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_lane_packs.cu -o /tmp/rslp &&
  timeout 100 /tmp/rslp > $W/reduce_sum_lane_packs.csv 2>$W/reduce_sum_lane_packs.err; echo "rc=$?"; pack
echo "== bench 4096x1024, A B A B ($(date +%T), $(left) s left)"
for i in 1 2; do for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout 70 python -m operator_runtime bench --op reduce_sum softmax \
    --backend nvidia tilelang --case 4096x1024 --out $W/bench-$v-$i > $W/bench-$v-$i.log 2>&1
  echo "bench $v $i rc=$? ($(date +%T))"; rm -f $W/bench-$v-$i/*.png
done; done; pack
echo "== row-sum probe, nvidia, A B ($(date +%T), $(left) s left)"
for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout 45 python tests/bench/sweeps/softmax_lengths.py --op reduce_sum --variant $v \
    --dtypes float16,float32 256x1024 1024x512 4096x264 4096x512 4096x768 16384x1024 131072x512 4096x128 \
    > $W/probe-$v.csv 2>$W/probe-$v.err; echo "probe $v rc=$? ($(date +%T))"
done; pack
echo "== B: nvidia reduce_sum tests and fuzz; tilelang softmax warp rows ($(date +%T), $(left) s left)"
timeout 100 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k "reduce_sum" --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log
timeout 100 python -m pytest tests/ops/test_softmax.py tests/fuzz -k "softmax and (warp-rows or fuzz) and not float32" \
  --backend tilelang -n 15 -q -p no:cacheprovider -p no:benchmark -m "not lowering" > $W/pytest-tilelang.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-tilelang.log | head; tail -1 $W/pytest-tilelang.log; pack
echo "== B under memcheck and racecheck: nvidia reduce_sum ($(date +%T), $(left) s left)"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  timeout $(( $(left) - 5 )) compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_reduce_sum.py --backend nvidia -q -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $W/$tool.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(tail -3 $W/$tool.log | grep -E 'passed|failed' | tail -1); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | tail -1)"
done
echo "== end ($(date +%T))"; pack
