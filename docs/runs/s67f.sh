#!/usr/bin/env bash
# Session 67, run li: tests/bench/sweeps/softmax_held_pipeline.cu (a 32 KB row a block at a time, the next row's loads
# issued before the current row's reductions, at one or two blocks an SM, against online_held and held_copy), twice.
# No library build. About 1.5 min after a cold start.
source scripts/device_steps.sh
device_begin s67f 300
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_pipeline.cu -o /tmp/pipe
echo "nvcc rc=$? ($(date +%T))"
for i in 1 2; do
  timeout $(( $(left) - 20 )) /tmp/pipe > $W/pipe-$i.csv 2> $W/pipe-$i.err
  echo "pipe $i rc=$? ($(date +%T))"; head -3 $W/pipe-$i.err; pack
done
python - "$W" <<'PY'
import csv, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
for i in (1, 2):
    for row in csv.DictReader(open(f"{sys.argv[1]}/pipe-{i}.csv")):
        runs[(row["arm"], row["rows_a_block"], row["blocks_an_sm"])].append(float(row["tbps"]))
for (arm, r, b), v in runs.items():
    print(f"{arm:12} rows_a_block={r:>2} blocks_an_sm={b} median {statistics.median(v):.3f}  {' '.join(f'{x:.3f}' for x in v)}")
PY
echo "== end ($(date +%T))"; pack
