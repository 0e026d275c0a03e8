#!/usr/bin/env bash
# Nsight Compute profiles of the cases docs/perf-notes.md discusses (ours beside torch, Liger or torch.compile
# where a peer does better): one process per (op, case, dtype, who),
# one call each (operator_runtime_testing.profile_once), raw metrics as CSV under $OUT/ncu/, and a summary
# table (python -m operator_runtime_testing.ncu_summary). Run after the package is installed, on a GPU
# whose runtime lets ncu read the counters (the H200's Firecracker machines do).
#   scripts/ncu_profile.sh [FILTER]   FILTER: only rows whose name matches it (a bash regex, e.g.
#                                     "softmax-(1024x65536|256x262144)")
# Clocks are left alone (--clock-control none): the numbers are those of the card as the bench sees it.
# NCU_SASS=1: also profile each case per SASS instruction (--section SourceCounters --import-source yes) and
# write $OUT/ncu/NAME-sass.csv (ncu's source page) and NAME-sass.md (python -m operator_runtime_testing.ncu_sass:
# instructions and stall samples by opcode and by instruction), as session 20 read cluster_online.
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT/ncu"
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  --section WarpStateStats --section SchedulerStats"
METRICS="--metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct"
# name op case dtype who [backend: nvidia unless named], or name script SCRIPT ARGS... (a script that opens the
# profiler range itself, e.g. a kernel the library does not choose, from a sweep's --profile)
CASES="
softmax-32768x4096-bf16-ours softmax 32768x4096 bfloat16 ours
softmax-32768x4096-fp16-ours softmax 32768x4096 float16 ours
softmax-32768x4096-bf16-liger softmax 32768x4096 bfloat16 liger
softmax-4096x16384-fp16-ours softmax 4096x16384 float16 ours
softmax-4096x16384-fp16-liger softmax 4096x16384 float16 liger
softmax-1024x65536-fp32-ours softmax 1024x65536 float32 ours
softmax-1024x65536-bf16-ours softmax 1024x65536 bfloat16 ours
softmax-256x262144-fp32-ours softmax 256x262144 float32 ours
softmax-256x262144-bf16-ours softmax 256x262144 bfloat16 ours
softmax-256x262144-fp16-ours softmax 256x262144 float16 ours
softmax-4096x1024-fp32-ours softmax 4096x1024 float32 ours
softmax-4096x1024-fp32-liger softmax 4096x1024 float32 liger
softmax-4096x1024-fp32-torch softmax 4096x1024 float32 torch
softmax-4096x1024-bf16-ours softmax 4096x1024 bfloat16 ours
softmax-4096x1024-bf16-liger softmax 4096x1024 bfloat16 liger
softmax-4096x128-fp32-ours softmax 4096x128 float32 ours
softmax-4096x128-fp32-torch softmax 4096x128 float32 torch
reduce-rows-4096x128-fp16-ours reduce_sum rows-4096x128 float16 ours
reduce-rows-4096x128-fp16-torch reduce_sum rows-4096x128 float16 torch
reduce-columns-fp16-ours reduce_sum columns-32768x4096-dim0 float16 ours
reduce-columns-fp16-torch reduce_sum columns-32768x4096-dim0 float16 torch
reduce-columns-fp32-ours reduce_sum columns-32768x4096-dim0 float32 ours
reduce-columns-fp32-tilelang reduce_sum columns-32768x4096-dim0 float32 ours tilelang
reduce-rows-256x262144-bf16-ours reduce_sum rows-256x262144 bfloat16 ours
copy-transpose-bf16-ours copy transpose-8192^2 bfloat16 ours
add-row-broadcast-fp32-ours vector_add row-broadcast-16384^2 float32 ours
add-row-broadcast-fp32-torch vector_add row-broadcast-16384^2 float32 torch
add-row-broadcast-bf16-ours vector_add row-broadcast-16384^2 bfloat16 ours
add-row-broadcast-bf16-compile vector_add row-broadcast-16384^2 bfloat16 compile
add-transposed-fp32-ours vector_add transposed-4096^2 float32 ours
add-transposed-fp32-compile vector_add transposed-4096^2 float32 compile
reduce-rows-4096x16384-fp16-ours reduce_sum rows-4096x16384 float16 ours
reduce-rows-4096x16384-fp16-compile reduce_sum rows-4096x16384 float16 compile
reduce-rows-4096x4096-fp32-ours reduce_sum rows-4096x4096 float32 ours
reduce-rows-4096x4096-fp32-compile reduce_sum rows-4096x4096 float32 compile
reduce-rows-4096x128-fp16-compile reduce_sum rows-4096x128 float16 compile
reduce-columns-fp16-compile reduce_sum columns-32768x4096-dim0 float16 compile
reduce-rows-4096x128-fp16-tilelang reduce_sum rows-4096x128 float16 ours tilelang
reduce-rows-144x1280-fp32-ours reduce_sum rows-144x1280 float32 ours
reduce-rows-144x1280-fp32-tilelang reduce_sum rows-144x1280 float32 ours tilelang
reduce-rows-4096x16384-fp16-tilelang reduce_sum rows-4096x16384 float16 ours tilelang
softmax-1008x2304-fp16-ours softmax 1008x2304 float16 ours
softmax-1008x2304-fp16-tilelang softmax 1008x2304 float16 ours tilelang
softmax-1024x65536-fp16-tilelang softmax 1024x65536 float16 ours tilelang
add-flat-fp16-ours vector_add flat-2^28 float16 ours
add-flat-fp16-torch vector_add flat-2^28 float16 torch
add-flat-bf16-ours vector_add flat-2^28 bfloat16 ours
softmax-1024x65536-fp16-ours softmax 1024x65536 float16 ours
softmax-256x262144-fp32-tilelang softmax 256x262144 float32 ours tilelang
add-1008x2304-bf16-ours vector_add 1008x2304 bfloat16 ours
add-1008x2304-bf16-torch vector_add 1008x2304 bfloat16 torch
softmax-4096x16384-fp16-tilelang softmax 4096x16384 float16 ours tilelang
copy-transpose-fp32-ours copy transpose-8192^2 float32 ours
copy-transpose-fp32-compile copy transpose-8192^2 float32 compile
reduce-rows-1008x2304-fp32-ours reduce_sum rows-1008x2304 float32 ours
reduce-rows-1008x2304-fp32-compile reduce_sum rows-1008x2304 float32 compile
reduce-rows-4096x128-fp32-ours reduce_sum rows-4096x128 float32 ours
reduce-rows-4096x128-fp32-compile reduce_sum rows-4096x128 float32 compile
reduce-rows-1024x65536-fp32-ours reduce_sum rows-1024x65536 float32 ours
reduce-rows-1024x65536-fp32-compile reduce_sum rows-1024x65536 float32 compile
softmax-256x262144-fp32-tilelang-release script tests/bench/sweeps/tilelang_softmax_cluster.py --profile registers16_release
softmax-256x262144-fp16-tilelang-relaxed script tests/bench/sweeps/tilelang_softmax_cluster.py --profile smem8_relaxed --dtype float16
softmax-256x262144-fp32-tilelang-unrolled script tests/bench/sweeps/tilelang_softmax_cluster.py --profile registers16_u0
softmax-256x262144-fp16-tilelang softmax 256x262144 float16 ours tilelang
softmax-256x262144-fp16-tilelang-t512 script tests/bench/sweeps/tilelang_softmax_cluster.py --profile packed16_t512 --dtype float16
reduce-rows-4096x1024-fp16-ours reduce_sum rows-4096x1024 float16 ours
reduce-rows-4096x1024-fp16-tilelang reduce_sum rows-4096x1024 float16 ours tilelang
reduce-rows-4080x1536-fp16-ours reduce_sum rows-4080x1536 float16 ours
reduce-rows-4080x1536-bf16-ours reduce_sum rows-4080x1536 bfloat16 ours
softmax-2048x1024-fp16-tilelang-warp script tests/bench/sweeps/tilelang_softmax_cluster.py --profile warp --shape 2048x1024 --dtype float16
softmax-2048x1024-fp16-tilelang-onepass script tests/bench/sweeps/tilelang_softmax_cluster.py --profile library --shape 2048x1024 --dtype float16
softmax-2048x1024-fp16-tilelang-rows64 script tests/bench/sweeps/tilelang_softmax_cluster.py --profile rows_t64 --shape 2048x1024 --dtype float16
softmax-4096x1024-fp16-tilelang-warp script tests/bench/sweeps/tilelang_softmax_cluster.py --profile warp --shape 4096x1024 --dtype float16
softmax-4096x1024-fp16-tilelang-onepass script tests/bench/sweeps/tilelang_softmax_cluster.py --profile library --shape 4096x1024 --dtype float16
"
status=0
while read -r name op rest; do
  [ -z "$name" ] && continue
  [ -n "${1:-}" ] && [[ ! "$name" =~ $1 ]] && continue
  echo "-- ncu $name ($(date +%T))"
  if [ "$op" = script ]; then
    read -r -a cmd <<<"$rest"
  else
    read -r case dtype who backend <<<"$rest"
    cmd=(-m operator_runtime_testing.profile_once --op "$op" --case "$case" --dtype "$dtype" --who "$who"
         --backend "${backend:-nvidia}")
  fi
  ncu --profile-from-start off --clock-control none $SECTIONS $METRICS --csv --page raw python "${cmd[@]}" \
    >"$OUT/ncu/$name.csv" 2>"$OUT/ncu/$name.err" || { status=1; tail -3 "$OUT/ncu/$name.err"; }
  if [ "${NCU_SASS:-0}" = 1 ]; then
    rep="$OUT/ncu/$name-sass"
    if ncu --profile-from-start off --clock-control none --section SourceCounters --import-source yes -o "$rep" \
         python "${cmd[@]}" >"$rep.log" 2>&1 &&
       ncu -i "$rep.ncu-rep" --page source --csv --print-source sass >"$rep.csv" 2>>"$rep.log"; then
      python -m operator_runtime_testing.ncu_sass "$rep.csv" >"$rep.md" || status=1
      rm -f "$rep.ncu-rep"  # large; the CSV holds what the summary reads
    else
      status=1; tail -3 "$rep.log"
    fi
  fi
done <<<"$CASES"
# The summary reads the raw-page CSVs only; the per-instruction ones (NAME-sass.csv) have their own .md.
python -m operator_runtime_testing.ncu_summary $(ls "$OUT"/ncu/*.csv | grep -v -- '-sass\.csv$') |
  tee "$OUT/ncu-summary.md" || status=1
exit $status
