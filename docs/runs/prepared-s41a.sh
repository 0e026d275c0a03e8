#!/usr/bin/env bash
# Prepared in session 40 for the next GPU call, not yet run (perf-notes item 2c); copy it to .device/ and run it
# as every session's script (carry .device and .whl). One call, ~480 s:
# (1) softmax_waves' shapes: online_held's body at 768 x 3, 640 x 4 and 384 x 6 beside the library's 512 x 4 at
#     4096x16384 halves (each twice, interleaved; the flat copy of the same bytes beside them);
# (2) B = main + docs/runs/s41-softmax-held-768x3.patch (16-bit rows of 8193-16384 held by 768 x 3, two blocks an
#     SM), built beside A (main): B's softmax tests and fuzz; bench 4096x16384 A B A B with Liger; the length probe
#     over 8193-16384 A B A B; memcheck and racecheck on B's held rows;
# (3) if the call has time left, ncu of vector_add 2^28 fp16 / bf16 (ours) and fp16 (torch) (item 0f).
R=$(realpath $OUT); export HYPOTHESIS_PROFILE=ci
mkdir -p $R/b
exec > >(tee $R/b/console.log) 2>&1
pack() { (cd $R && tar cf s41a-b.tar b); }
echo "start $(date +%T)"
mkdir -p /tmp/srcB && tar cf - --exclude=./build --exclude=./.git --exclude=./.device --exclude=./.whl . | tar xf - -C /tmp/srcB
(cd /tmp/srcB && git apply docs/runs/s41-softmax-held-768x3.patch && CMAKE_CUDA_ARCHITECTURES=90 ORT_CUDA=ON \
  python -m pip install -q --no-build-isolation --no-deps --target /tmp/B -Cbuild-dir=/tmp/buildB . > $R/b/build-B.log 2>&1
  echo "build B rc=$? ($(date +%T))") & bB=$!
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_waves.cu -o build/sweeps/softmax_waves \
  > $R/b/nvcc-softmax_waves.log 2>&1 & sw=$!
BACKENDS="" OUT=$R/a scripts/gpu_check.sh --pack-logs > $R/b/build.log 2>&1; echo "build A rc=$? ($(date +%T))"
wait $bB; wait $sw; echo "sweep compiled rc=$? ($(date +%T))"
export PYTHONPATH=/tmp/site:$PYTHONPATH PYTHONUNBUFFERED=1 COLUMNS=230
for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH python -c "import operator_runtime as o; print('$v', o.__file__)"; done
echo "== softmax_waves ($(date +%T))"
timeout 150 build/sweeps/softmax_waves > $R/b/softmax-waves.csv 2>&1; echo "rc=$? ($(date +%T))"
grep -E "held_768|held_640|held_384|library_512x4,|copy_same" $R/b/softmax-waves.csv; pack
echo "== B: softmax tests and fuzz on nvidia ($(date +%T))"
PYTHONPATH=/tmp/B:$PYTHONPATH timeout 150 python -m pytest tests/ops/test_softmax.py tests/fuzz -k softmax \
  --backend nvidia -n 15 -q -p no:cacheprovider -p no:benchmark > $R/b/pytest-B.log 2>&1
echo "rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $R/b/pytest-B.log | head; tail -1 $R/b/pytest-B.log; pack
P="4096x8200 4096x12296 4096x14336 4096x16384 8192x16384"
for i in 1 2; do for v in A B; do pp=""; [ $v = B ] && pp=/tmp/B:
  PYTHONPATH=$pp$PYTHONPATH timeout 60 python -m operator_runtime bench --op softmax --backend nvidia --peers liger \
    --case 4096x16384 --out $R/b/sm-$v-$i > $R/b/sm-$v-$i.log 2>&1
  echo "bench $v $i rc=$? ($(date +%T))"; rm -f $R/b/sm-$v-$i/*.png
  PYTHONPATH=$pp$PYTHONPATH timeout 60 python tests/bench/sweeps/softmax_lengths.py --variant $v$i $P \
    > $R/b/probe-$v-$i.csv 2> $R/b/probe-$v-$i.err; echo "probe $v $i rc=$?"
done; done; pack
echo "== B under memcheck and racecheck: held rows ($(date +%T))"
K="[rows-8193- or [rows-12296- or [rows-16384-"
for tool in memcheck racecheck; do
  ex=""; [ $tool = racecheck ] && ex="--kernel-name-exclude kns=native"
  PYTHONPATH=/tmp/B:$PYTHONPATH timeout 150 compute-sanitizer --tool $tool $ex --error-exitcode 9 python -m pytest \
    tests/ops/test_softmax.py -k "$K" --backend nvidia -v -p no:cacheprovider -p no:benchmark -p no:xdist \
    > $R/b/$tool-B.log 2>&1 &
done
for j in $(jobs -p); do wait $j; done
for tool in memcheck racecheck; do
  echo "$tool: $(grep -cE ' PASSED' $R/b/$tool-B.log) passed, $(grep -cE ' FAILED' $R/b/$tool-B.log) failed; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/b/$tool-B.log | tail -1)"
done; pack
# (3) if time is left: ncu of vector_add 2^28, ours (fp16, bf16) beside torch's fp16 (perf-notes item 0f)
if [ $SECONDS -lt 470 ]; then
  echo "== ncu vector_add flat-2^28 ($(date +%T))"
  OUT=$R/b timeout $((560 - SECONDS)) scripts/ncu_profile.sh "add-flat" > $R/b/ncu.log 2>&1; echo "ncu rc=$?"
  cat $R/b/ncu-summary.md 2>/dev/null | head -20; pack
fi
echo "== end ($(date +%T))"
