#!/usr/bin/env bash
# Session 67, run ld: tests/bench/sweeps/softmax_held_hints.cu (cache-eviction hints on online_held's loads and stores
# at 4096x16384 halves; chunk copies of 32 / 16 / 8 KB a block, hinted and in scattered order; a read-only and a
# write-only stream of the same 128 MiB), three processes, then ncu's DRAM bytes, DRAM throughput and L2 hit rate of
# every arm launched once (`once`; clocks left as they are). No library build: the sweep includes the kernel headers.
# About 2 min after a cold start.
source scripts/device_steps.sh
device_begin s67b 420
nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_hints.cu -o /tmp/hints
echo "nvcc rc=$? ($(date +%T))"
for i in 1 2 3; do
  timeout $(( $(left) - 150 )) /tmp/hints > $W/hints-$i.csv 2> $W/hints-$i.err
  echo "sweep $i rc=$? ($(date +%T))"; head -3 $W/hints-$i.err; pack
done
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
timeout $(( $(left) - 10 )) ncu --clock-control none --metrics $M --csv /tmp/hints once > $W/ncu.csv 2> $W/ncu.err
echo "ncu rc=$? ($(date +%T))"; tail -3 $W/ncu.err; pack
python - "$W" <<'PY'
import csv, statistics, sys
from collections import defaultdict
w = sys.argv[1]
runs = defaultdict(list)
for i in (1, 2, 3):
    try:
        for row in csv.DictReader(open(f"{w}/hints-{i}.csv")):
            if row["rep"] == "check":
                print("check", row["dtype"], row["arm"], "differing bytes:", row["us"])
            else:
                runs[(row["dtype"], row["arm"])].append(float(row["tbps"]))
    except FileNotFoundError:
        pass
for (dtype, arm), v in runs.items():
    print(f"{dtype:9} {arm:22} median {statistics.median(v):.3f} TB/s  ({' '.join(f'{x:.3f}' for x in v)})")
PY
echo "== end ($(date +%T))"; pack
