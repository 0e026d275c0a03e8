#!/usr/bin/env bash
# Ran on commit 3c2942d's tree (the switch is gone on main since 5099ba4; there ORT_REDUCE_FEW does nothing).
# Run jk (session 58): fp32 row sums whose rows are too few to fill the GPU (grid_tpr's few-rows rule), a block a row
# with every pack of a thread loaded at once, chosen by ORT_REDUCE_FEW at create (experiment commit; 0 = main's
# kernel): 1 `contiguous` at 256 threads with its batched tail, 2 `whole_batches` at 256 with a predicated last batch
# (32 registers), 3 the same at 512. The bench's 1008x2304 and 144x1280 rows beside Inductor, arms interleaved, twice;
# then the reduce_sum tests with arms 2 and 3, and arm 2 under memcheck.
source scripts/device_steps.sh
device_begin s58b 560
device_build
for i in 1 2; do
  for a in 0 1 2 3; do
    [ "$(left)" -gt 200 ] || continue
    ORT_REDUCE_FEW=$a timeout 90 python -m operator_runtime bench --op reduce_sum --backend nvidia --peers compile \
      --case rows-1008x2304 rows-144x1280 --out $W/few-$a-$i > $W/few-$a-$i.log 2>&1
    echo "arm $a run $i rc=$? ($(date +%T))"; rm -f $W/few-$a-$i/*.png; pack
  done
done
W=$W python - <<'PY'
import glob, json, os
for f in sorted(glob.glob(f"{os.environ['W']}/few-*/bench.rows.jsonl"), key=lambda p: (int(p.split('-')[-2]), p)):
    arm = f.split("/")[-2]
    for line in open(f):
        r = json.loads(line)
        print(f"{arm:8s} {r['case']:15s} {r['dtype']:9s} ours {r['us_median']:7.2f} torch {r['torch_us']:7.2f} "
              f"compile {r.get('compile_us') or 0:7.2f} x{r['torch_us'] / r['us_median']:.4f}")
PY
ORT_REDUCE_FEW=2 sanitize_start memcheck few2 tests/ops/test_reduce_sum.py -k "float32 and rows"
ORT_REDUCE_FEW=2 pytest_tally few2 60 tests/ops/test_reduce_sum.py --backend nvidia -p no:xdist
ORT_REDUCE_FEW=3 pytest_tally few3 30 tests/ops/test_reduce_sum.py --backend nvidia -p no:xdist
sanitize_wait
echo "== end ($(date +%T))"; pack
