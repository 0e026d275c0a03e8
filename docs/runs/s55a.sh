#!/usr/bin/env bash
# Session 55, run iv (prepared in session 54 as runs/s55a-prepared.sh; CPU-checked only there). Call it as
# runs/s54a.sh was called (carry .device and .whl, the TileLang cache tar). (1) build main; (2) ncu of the column sum
# at 32768x4096 in every dtype at each split count the sweep tries (half a wave, one, two, the largest power of two
# within one), the sweep's trailing `ncu` mode: why fp32 gains from the power of two and the 16-bit rows lose
# (perf-notes session 54, next 1); (3) the whole bench from one build, part 1: reduce_sum, softmax, copy on both
# backends with every peer (next 3; part 2 is vector_add and the suites, as runs/s53b.sh). Predictions belong in
# docs/perf-notes.md before the call.
source scripts/device_steps.sh
device_begin s55a 580
device_build
# the column split test, whose fp32 case (a power of two of splits) session 54 wrote after its device time ran out
pytest_tally splits 5 tests/ops/test_reduce_sum.py -k finishing --backend nvidia -p no:xdist
mkdir -p build/sweeps
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o build/sweeps/reduce_sum_columns
echo "== ncu: the column sum's split counts, every dtype ($(date +%T), $(left) s left)"
mkdir -p $W/ncu
timeout 150 ncu --clock-control none -k regex:"strided_lanes|finish_rows" --section SpeedOfLight \
  --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct --csv --page raw \
  build/sweeps/reduce_sum_columns 32768x4096 ncu > $W/ncu/columns-splits.csv 2> $W/ncu/columns-splits.err
echo "rc=$?"; python -m operator_runtime_testing.ncu_summary $W/ncu/columns-splits.csv | tee $W/ncu-summary.md
pack
echo "== warm the TileLang cache ($(date +%T), $(left) s left)"
timeout 150 python scripts/warm_tilelang_cache.py > $W/warm.log 2>&1; echo "warm rc=$? ($(date +%T))"; tail -2 $W/warm.log
pack
bench_ops reduce_sum softmax copy
echo "== end ($(date +%T))"; pack
