#!/usr/bin/env bash
# The one GPU script: build, run the test suite on the GPU backends, optionally benchmark.
#   scripts/gpu_check.sh [--bench] [--sanitize] [--sweep] [--ncu] [--pack-logs] [--save-tilelang-cache]
#                        [--warm-tilelang] [--tests PYTEST_ARGS...]
#   (tests marked `lowering` are left out unless PYTEST_ARGS has -m)
#   --sweep: time every softmax configuration, every reduce_sum split count and the host cost of a launch
#            (tests/bench/sweeps/; SWEEPS="softmax_configs reduce_sum_splits launch_floor" picks; the TileLang
#            tile sizes (and, for 16-bit rows of 264-2048, the one-block-a-row kernel and the warp a row at exit
#            beside the library's choice) with SWEEPS=tilelang_reduce_sum, its
#            long-row softmax kernels (and the one-pass kernel's block sizes) with
#            SWEEPS=tilelang_softmax_cluster; the contiguous copy's launch shapes and cudaMemcpyAsync
#            with SWEEPS=copy_flat; vector_add's packs a thread with SWEEPS=vector_add_rows, its parameters'
#            cost with SWEEPS=vector_add_params; reduce_sum's short rows with 32-bit indices with
#            SWEEPS=reduce_sum_short_rows, its row kernel under each PDL trigger with SWEEPS=reduce_sum_trigger,
#            its rows of 33-256 packs (contiguous against packed_rows a warp a row) with SWEEPS=reduce_sum_lane_packs,
#            softmax's held 16-bit rows through the TMA's bulk copies with SWEEPS=softmax_bulk,
#            softmax's short rows (registers against short_rows) with SWEEPS=softmax_short_rows, online_held at whole and partial waves with SWEEPS=softmax_waves,
#            what bounds a held row (copies shaped like it, clusters, prefetching) and cluster_smem_held's
#            table of CTAs by length with
#            SWEEPS=softmax_held_ceiling, online_held with its loads issued in groups (fewer bytes in flight an
#            SM) with SWEEPS=softmax_held_throttle,
#            short rows packed or not in the bench's context with SWEEPS=short_rows_packed;
#            the library's softmax at chosen shapes, as the bench times it, with SWEEPS=softmax_lengths
#            (SWEEP_ARGS="8192x4088 8192x4096");
#            where back-to-back
#            grids' blocks land with each PDL trigger with SWEEPS=pdl_placement)
#   --ncu: Nsight Compute profiles of the cases in scripts/ncu_profile.sh (NCU_FILTER narrows them; NCU_SASS=1
#          adds each case's instructions and stall samples per SASS instruction)
#   --pack-logs: after each step, fold what $OUT holds into $OUT/logs.tar (the device tool returns at most
#                8 files; a step cut off by the time limit still leaves the earlier steps' logs)
#   --warm-tilelang: before the bench, compile the TileLang kernels of every bench case in parallel
#                (scripts/warm_tilelang_cache.py; WARM_ARGS narrows it, e.g. "--op softmax"; WARM_TIMEOUT bounds it)
#   --save-tilelang-cache: at the end, TileLang's compiled kernels to $OUT/tilelang-cache.tar.xz. Copied to
#                .device/, the next call unpacks it and skips those compilations (they took most of a
#                TileLang test run, and cut two benches off in session 6). Kernels whose source changed
#                compile again.
#   env: BACKENDS="nvidia tilelang" (suites to run; "" for none), SWEEP_MIN_LENGTH (sweep only rows at least
#        this long), SWEEP_LENGTHS (softmax_configs: only these row lengths, e.g. "1536 2304"), SWEEP_ARGS (arguments for the other sweeps, e.g. "rows- 1" for reduce_sum_splits), PEERS="liger compile" (further bench
#        peers), BENCH_ARGS (extra arguments for `python -m operator_runtime bench`, e.g. "--op softmax"),
#        SANITIZE_K / SANITIZE_TIMEOUT (narrow and bound the compute-sanitizer runs), SANITIZE_TOOLS (which of
#        memcheck and racecheck run, both unless set), SANITIZE_TESTS /
#        SANITIZE_BACKEND (what they run: tests/ops on nvidia unless set, e.g. tests/tilelang on tilelang), HYPOTHESIS_PROFILE
#        (gpu: 300 examples per fuzz test, the default here; ci: 200), PYTEST_WORKERS (pytest-xdist workers
#        where .whl/ carried it, default 8: TileLang compiles a kernel on one core), PYTEST_TIMEOUT (seconds
#        per pytest run, so that a slow suite cannot take the later steps and the saved cache with it), BENCH_TIMEOUT
#        and SWEEP_TIMEOUT (the same for the bench and for each sweep; a sweep's CSV keeps the rows written)
# Logs go to $OUT (the device tool's output folder) or ./gpu-logs. Exits non-zero if any step fails.
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
BENCH=0; SANITIZE=0; SWEEP=0; NCU=0; PACK=0; SAVE_TL_CACHE=0; WARM_TL=0; TESTS=(tests)
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) BENCH=1 ;;
    --sanitize) SANITIZE=1 ;;
    --sweep) SWEEP=1 ;;
    --ncu) NCU=1 ;;
    --pack-logs) PACK=1 ;;
    --save-tilelang-cache) SAVE_TL_CACHE=1 ;;
    --warm-tilelang) WARM_TL=1 ;;
    --tests) shift; TESTS=("$@"); break ;;  # kept as words: --tests tests/ops -k "softmax or reduce_sum" works
  esac
  shift
done
status=0
pack() {
  [ "$PACK" = 1 ] || return 0
  (cd "$OUT" && files=$(ls -A | grep -v '^logs.tar$') && [ -n "$files" ] && tar rf logs.tar $files && rm -rf $files)
}
step() { pack; echo "== $1 ($(date +%T)) =="; }

# TileLang travels as a bundle (../shared/tools/device-tilelang-bundle.sh); the image has no package index.
if [ -f .device/tilelang-bundle.tar.xz ]; then
  mkdir -p /tmp/site && tar -xJf .device/tilelang-bundle.tar.xz -C /tmp/site && export PYTHONPATH=/tmp/site
fi
# operator_runtime.tilelang keeps an exported TILELANG_CACHE_DIR; a cache from an earlier call travels in .device/.
export TILELANG_CACHE_DIR=${TILELANG_CACHE_DIR:-/tmp/tilelang-cache}
mkdir -p "$TILELANG_CACHE_DIR"
if [ -f .device/tilelang-cache.tar.xz ]; then
  tar -xJf .device/tilelang-cache.tar.xz -C "$TILELANG_CACHE_DIR" && echo "tilelang cache: $(du -sh "$TILELANG_CACHE_DIR" | cut -f1) from .device/"
fi
# Peers such as Liger travel as wheels in .whl/ (scripts/fetch_gpu_wheels.sh).
if ls .whl/*.whl >/dev/null 2>&1; then
  python -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
fi
export PYTHONUNBUFFERED=1 TILELANG_PRINT_ON_COMPILATION=0
export CMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES:-90}

step "build (sm_${CMAKE_CUDA_ARCHITECTURES})"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpu.txt"
if ! ORT_CUDA=ON python -m pip install --no-build-isolation --no-deps -Cbuild-dir=build/gpu . >"$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"; exit 1
fi
grep -E "ptxas|nvidia backend" "$OUT/build.log" | tail -5

step "python -m operator_runtime"
python -m operator_runtime 2>&1 | tee "$OUT/check.log" || status=1

sweep() {  # sweep NAME [ARGS...]: run tests/bench/sweeps/NAME.py, or compile and run NAME.cu; CSV to $OUT/NAME.csv
  local name=$1; shift
  if [ -f "tests/bench/sweeps/$name.py" ]; then
    step "sweep $name (tests/bench/sweeps/$name.py)"
    timeout "${SWEEP_TIMEOUT:-0}" python "tests/bench/sweeps/$name.py" "$@" >"$OUT/$name.csv" 2>"$OUT/$name.err" || status=1
  else
    step "sweep $name (tests/bench/sweeps/$name.cu)"
    mkdir -p build/sweeps
    nvcc -std=c++17 -O3 -arch=sm_${CMAKE_CUDA_ARCHITECTURES} -Isrc/cpp "tests/bench/sweeps/$name.cu" \
      -o "build/sweeps/$name" && timeout "${SWEEP_TIMEOUT:-0}" "build/sweeps/$name" "$@" >"$OUT/$name.csv" 2>"$OUT/$name.err" || status=1
  fi
  cat "$OUT/$name.err"
  wc -l "$OUT/$name.csv"
}
if [ "$SWEEP" = 1 ]; then
  for name in ${SWEEPS:-softmax_configs reduce_sum_splits launch_floor}; do
    if [ "$name" = softmax_configs ]; then sweep "$name" ${SWEEP_MIN_LENGTH:-0} ${SWEEP_LENGTHS:-}; else sweep "$name" ${SWEEP_ARGS:-}; fi
  done
  [ -f "$OUT/launch_floor.csv" ] && cat "$OUT/launch_floor.csv"
fi

workers=()
# The lowering tests (TileLang lowered and compiled by nvcc on the CPU, one of them ~90 s) need no GPU and run
# in CI; here they only took device time (run bc: both suites cut by PYTEST_TIMEOUT in them). Kept out unless
# the arguments pick markers themselves.
case " ${TESTS[*]} " in *" -m "*) ;; *) TESTS+=(-m "not lowering") ;; esac
# The image's pytest-benchmark (unused here) stops a session that runs under xdist: hence -p no:benchmark.
python -c "import xdist" 2>/dev/null && workers=(-n "${PYTEST_WORKERS:-8}" -p no:benchmark)
for backend in ${BACKENDS-nvidia tilelang}; do
  step "pytest --backend $backend ${workers[*]}"
  HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-gpu} timeout "${PYTEST_TIMEOUT:-0}" python -m pytest "${TESTS[@]}" \
    --backend "$backend" "${workers[@]}" -q -p no:cacheprovider >"$OUT/pytest-$backend.log" 2>&1
  rc=$?
  [ $rc -eq 124 ] && echo "pytest --backend $backend: stopped by PYTEST_TIMEOUT (${PYTEST_TIMEOUT} s)"
  [ $rc -eq 0 ] || status=1
  grep -E "^(FAILED|ERROR)" "$OUT/pytest-$backend.log" | head -30
  tail -1 "$OUT/pytest-$backend.log"
done

if [ "$SANITIZE" = 1 ]; then
  # Instrumented kernels run 10-100x slower: SANITIZE_K (a pytest -k expression) narrows the suite and
  # SANITIZE_TIMEOUT (seconds per tool) bounds it; racecheck only looks at shared memory. What the whole of tests/ops
  # costs (H200, session 38, runs gi-gj): memcheck 325 s in 7 shards at once; racecheck runs softmax's tests at ~0.85
  # a second however many processes share the GPU (3 shards or 9), ~1000 s for test_softmax.py alone, more than one
  # device call: split it across calls by SANITIZE_K.
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
    step "compute-sanitizer $tool ${SANITIZE_K:+(-k $SANITIZE_K)}"
    # racecheck looks at our kernels only: it reports a hazard inside torch's own float64 reduce_kernel
    # (at::native), which the tests use for their reference.
    filter=""; [ "$tool" = racecheck ] && filter="--kernel-name-exclude kns=native"
    timeout "${SANITIZE_TIMEOUT:-1800}" compute-sanitizer --tool "$tool" $filter --error-exitcode 9 \
      python -m pytest ${SANITIZE_TESTS:-tests/ops} --backend "${SANITIZE_BACKEND:-nvidia}" -q -p no:cacheprovider \
      ${SANITIZE_K:+-k "$SANITIZE_K"} \
      >"$OUT/sanitizer-$tool.log" 2>&1
    rc=$?
    grep -E "SUMMARY|passed|failed|leaked" "$OUT/sanitizer-$tool.log" | tail -4
    [ $rc -eq 124 ] && echo "compute-sanitizer $tool: stopped by the timeout (${SANITIZE_TIMEOUT:-1800} s)"
    [ $rc -eq 0 ] || status=1
  done
fi

if [ "$NCU" = 1 ]; then
  step "ncu (scripts/ncu_profile.sh ${NCU_FILTER:-})"
  OUT="$OUT" scripts/ncu_profile.sh ${NCU_FILTER:-} || status=1
fi
if [ "$WARM_TL" = 1 ]; then
  step "compile the bench's TileLang kernels (scripts/warm_tilelang_cache.py ${WARM_ARGS:-})"
  timeout "${WARM_TIMEOUT:-0}" python scripts/warm_tilelang_cache.py ${WARM_ARGS:-} >"$OUT/warm-tilelang.log" 2>&1 ||
    status=1
  grep -E "FAILED|prepared" "$OUT/warm-tilelang.log" | tail -20
fi
if [ "$BENCH" = 1 ]; then
  step "bench"
  timeout "${BENCH_TIMEOUT:-0}" python -m operator_runtime bench --host-overhead ${PEERS:+--peers $PEERS} ${BENCH_ARGS:-} --out "$OUT" 2>&1 | tee "$OUT/bench.log" || status=1
fi
step "done"
pack
if [ "$SAVE_TL_CACHE" = 1 ]; then  # after pack, so that it comes back as a file of its own
  tar -I "xz -T0" -cf "$OUT/tilelang-cache.tar.xz" -C "$TILELANG_CACHE_DIR" . && ls -l "$OUT/tilelang-cache.tar.xz"
fi
exit $status
