#!/usr/bin/env bash
# Session 44, run hl: A = main after run hj (lane_packs_rows up to 4 packs: .device/s44d-A/short_rows_plan.cuh),
# B = this tree (up to 8). (1) builds; (2) bench reduce_sum nvidia on the rows 5-8 packs move (fp32 4096x1024,
# 4080x1536 and 144x1280 halves) A B A B; (3) B's nvidia reduce_sum tests and fuzz; (4) B under memcheck and racecheck.
source scripts/device_steps.sh
device_begin s44d 245
mkdir -p /tmp/srcA && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcA
cp .device/s44d-A/short_rows_plan.cuh /tmp/srcA/src/cpp/ops/reduce_sum/nvidia/
(cd /tmp/srcA && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON python -m pip install -q --no-build-isolation --no-deps \
  --target /tmp/A -Cbuild-dir=/tmp/buildA . > $W/build-A.log 2>&1; echo "build A rc=$? ($(date +%T))") & bA=$!
device_build
wait $bA
grep -c "kMaxLanePacks = 8" /tmp/srcA/src/cpp/ops/reduce_sum/nvidia/short_rows_plan.cuh src/cpp/ops/reduce_sum/nvidia/short_rows_plan.cuh
echo "== bench A B A B ($(date +%T), $(left) s left)"
for i in 1 2; do for v in A B; do pp=""; [ $v = A ] && pp=/tmp/A:
  PYTHONPATH=$pp$PYTHONPATH timeout 35 python -m operator_runtime bench --op reduce_sum --backend nvidia \
    --case rows-4096x1024 rows-4080x1536 rows-144x1280 --out $W/bench-$v-$i > $W/bench-$v-$i.log 2>&1
  echo "bench $v $i rc=$? ($(date +%T))"; rm -f $W/bench-$v-$i/*.png
done; done; pack
echo "== B: nvidia reduce_sum tests and fuzz ($(date +%T), $(left) s left)"
timeout 45 python -m pytest tests/ops/test_reduce_sum.py tests/fuzz -k "reduce_sum" --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
echo "== B under memcheck and racecheck: nvidia reduce_sum ($(date +%T), $(left) s left)"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  timeout $(( $(left) - 5 )) compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_reduce_sum.py --backend nvidia -q -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $W/$tool.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(grep -E '[0-9]+ passed' $W/$tool.log | tail -1 | cut -c1-80); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $W/$tool.log | tail -1)"
done
echo "== end ($(date +%T))"; pack
