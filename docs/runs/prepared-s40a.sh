#!/usr/bin/env bash
# Prepared in session 39 for the next GPU call, not yet run (perf-notes items 0f, 2b and 0a(3)); copy it to
# .device/ and run it as every session's script (carry .device and .whl). One call, ~450 s:
# (1) vector_add with 16-bit packs added a pair at a time: B = main + docs/runs/s39-vector-add-pairs.patch, built
#     beside A (main); bench flat-2^28, 4096x4096 and row-broadcast on nvidia, A B A B; B's vector_add tests and
#     fuzz; memcheck on B's 16-bit vector_add tests;
# (2) what bounds softmax 32768x4096 halves: softmax_held_ceiling's chunk copies (256x2 is the registers kernel's
#     shape there) and softmax_configs at rows of 4096;
# (3) reduce_sum rows-1024x65536 by threads a row and splits (reduce_sum_splits).
R=$(realpath $OUT); export HYPOTHESIS_PROFILE=ci
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s40a-b.tar b); }
echo "start $(date +%T)"
mkdir -p /tmp/srcB && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcB
(cd /tmp/srcB && git apply docs/runs/s39-vector-add-pairs.patch && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON \
  python -m pip install -q --no-build-isolation --no-deps --target /tmp/B -Cbuild-dir=/tmp/buildB . > $R/b/build-B.log 2>&1
  echo "build B rc=$? ($(date +%T))") & bB=$!
mkdir -p build/sweeps
for s in softmax_held_ceiling softmax_configs reduce_sum_splits; do
  nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/$s.cu -o build/sweeps/$s > $R/b/nvcc-$s.log 2>&1 &
done
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build A rc=$? ($(date +%T))"
wait $bB; for j in $(jobs -p); do wait $j; done; echo "sweeps compiled ($(date +%T))"; ls build/sweeps
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230
for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH python -c "import operator_runtime as o; print('$v', o.__file__)"; done
for i in 1 2; do for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH timeout 60 python -m operator_runtime bench --op vector_add --backend nvidia \
    --case flat-2^28 4096x4096 row-broadcast --out $R/b/va-$v-$i > $R/b/va-$v-$i.log 2>&1
  echo "vector_add $v $i rc=$? ($(date +%T))"; grep -E "flat-2\^28" $R/b/va-$v-$i/bench.md | cut -c1-150
  rm -f $R/b/va-$v-$i/*.png
done; done; pack
echo "== B: vector_add tests and fuzz ($(date +%T))"
PYTHONPATH=/tmp/B:$PYTHONPATH timeout 90 python -m pytest tests/ops/test_vector_add.py tests/fuzz -k "vector_add or add" \
  --backend nvidia -n 15 -q -p no:cacheprovider -p no:benchmark > $R/b/pytest-B.log 2>&1
echo "rc=$?"; grep -E "^(FAILED|ERROR)" $R/b/pytest-B.log | head; tail -1 $R/b/pytest-B.log
PYTHONPATH=/tmp/B:$PYTHONPATH timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 python -m pytest \
  tests/ops/test_vector_add.py -k "float16 or bfloat16" --backend nvidia -q -p no:cacheprovider -p no:benchmark \
  -p no:xdist > $R/b/memcheck-B.log 2>&1
echo "memcheck B rc=$? ($(date +%T))"; grep -E "ERROR SUMMARY|passed|failed" $R/b/memcheck-B.log | tail -2; pack
echo "== sweeps ($(date +%T))"
timeout 90 build/sweeps/softmax_held_ceiling chunks > $R/b/held-chunks.csv 2>&1; echo "held chunks rc=$?"
timeout 90 build/sweeps/softmax_configs 0 4096 > $R/b/softmax-configs-4096.csv 2>&1; echo "configs rc=$?"
timeout 120 build/sweeps/reduce_sum_splits rows-1024x65536 8 > $R/b/rs-splits-1024x65536.csv 2>&1; echo "splits rc=$?"
wc -l $R/b/*.csv; pack
echo "== end ($(date +%T))"
