#!/usr/bin/env bash
# Session 63, run km. Why run kj's packed_rows fp16 x 6 body (32 registers, ordered raw-word loads) lost 8-11 % at
# 1008 and 2016 rows, where both trees trigger early: the kernel alone (ncu: each launch replayed by itself, caches
# flushed) or the chain of launches it sits in (the sweep's CUDA graph with PDL: at 8 blocks an SM more of the next
# grids' blocks wait resident). A = this tree in /tmp/A, B = the patch; each shape's 5 launches after 10, at the
# GPU's own clocks (--clock-control none: ncu would otherwise lock them).
source scripts/device_steps.sh
device_begin s63e 320
build_a
git apply docs/runs/s63-rs-packed-rows-fp16-six-ordered.patch && echo "patch applied"
device_build
wait_a
cat > /tmp/one.py <<'PY'
import sys
import torch
import operator_runtime as ort
rows, n = map(int, sys.argv[1].split("x"))
x = torch.randn(rows, n, device="cuda").half()
o = torch.empty(rows, device="cuda", dtype=torch.half)
call = ort.prepare_reduce_sum(x, out=o, backend="nvidia")
for _ in range(20):
    call()
torch.cuda.synchronize()
PY
M=gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for shape in 1008x1536 2016x1536 4080x1536 8192x1536; do
  for v in A B; do
    pp=$([ $v = A ] && echo "$A_DIR:")
    PYTHONPATH="$pp$PYTHONPATH" timeout 50 ncu --clock-control none --kernel-name regex:packed_rows --launch-skip 10 --launch-count 5 \
      --metrics $M --csv python /tmp/one.py $shape > $W/ncu-$v-$shape.csv 2>&1
    echo "$v $shape rc=$? $(grep -h gpu__time_duration $W/ncu-$v-$shape.csv | awk -F'","' '{printf "%s ", $NF}' | tr -d '"')" \
      "regs $(grep -h registers_per_thread $W/ncu-$v-$shape.csv | head -1 | awk -F'","' '{print $NF}' | tr -d '"')" \
      "warps% $(grep -h warps_active $W/ncu-$v-$shape.csv | head -1 | awk -F'","' '{print $NF}' | tr -d '"')" \
      "dram% $(grep -h dram__throughput $W/ncu-$v-$shape.csv | head -1 | awk -F'","' '{print $NF}' | tr -d '"')"
  done; pack
done
echo "== end ($(date +%T))"; pack
