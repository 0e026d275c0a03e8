#!/usr/bin/env bash
# Session 67, run le: softmax_held_hints again (its softmax arms now on one allocation, four rounds) and
# memory_placement (out at x + 128 MiB + delta for the chunk copies, the read direction alone and online_held; the
# copies with and without PDL), each twice. No library build. About 2 min after a cold start.
source scripts/device_steps.sh
device_begin s67c 420
for s in softmax_held_hints memory_placement; do
  nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/$s.cu -o /tmp/$s; echo "nvcc $s rc=$? ($(date +%T))"
done
for i in 1 2; do
  for s in softmax_held_hints memory_placement; do
    timeout $(( $(left) - 20 )) /tmp/$s > $W/$s-$i.csv 2> $W/$s-$i.err
    echo "$s $i rc=$? ($(date +%T))"; head -3 $W/$s-$i.err; pack
  done
done
python - "$W" <<'PY'
import csv, statistics, sys
from collections import defaultdict
w = sys.argv[1]
hints, place = defaultdict(list), defaultdict(list)
for i in (1, 2):
    for row in csv.DictReader(open(f"{w}/softmax_held_hints-{i}.csv")):
        if row["rep"] != "check":
            hints[(row["dtype"], row["arm"])].append(float(row["tbps"]))
        elif row["us"] != "0":
            print("CHECK FAILED", row)
    for row in csv.DictReader(open(f"{w}/memory_placement-{i}.csv")):
        place[(row["part"], row["arm"], row["pdl"], int(row["delta_kb"]))].append(float(row["tbps"]))
for (dtype, arm), v in hints.items():
    print(f"hints {dtype:9} {arm:22} median {statistics.median(v):.3f}  {' '.join(f'{x:.3f}' for x in v)}")
for (part, arm, pdl, kb), v in sorted(place.items()):
    print(f"{part:9} {arm:12} pdl={pdl} delta={kb:5} KB median {statistics.median(v):.3f}  {' '.join(f'{x:.3f}' for x in v)}")
PY
echo "== end ($(date +%T))"; pack
