#!/usr/bin/env bash
# Run ji (session 57): online_held with one bulk L2 prefetch of the row AHEAD blocks on (ORT_SOFTMAX_L2_AHEAD, read
# at create; 0 = the library's kernel, byte-identical to main's), softmax 4096x16384 on nvidia, arms interleaved, twice;
# then the held-row softmax tests with the prefetch on, and under memcheck. It ran on commit 077eb4b's tree; the
# switch and the prefetch were reverted in the next commit, so on main the variable does nothing.
source scripts/device_steps.sh
device_begin s57e 420
device_build
for i in 1 2; do
  for a in 0 396 264 792; do
    [ "$(left)" -gt 140 ] || continue
    ORT_SOFTMAX_L2_AHEAD=$a timeout 60 python -m operator_runtime bench --op softmax --backend nvidia \
      --case 4096x16384 --out $W/l2-$a-$i > $W/l2-$a-$i.log 2>&1
    echo "ahead $a run $i rc=$? ($(date +%T))"; rm -f $W/l2-$a-$i/*.png; pack
  done
done
W=$W python - <<'PY'
import glob, json, os
for f in sorted(glob.glob(f"{os.environ['W']}/l2-*/bench.rows.jsonl"), key=lambda p: (int(p.split('-')[-2]), p)):
    arm = f.split("/")[-2]
    for line in open(f):
        r = json.loads(line)
        print(f"{arm:10s} {r['case']:18s} {r['dtype']:9s} ours {r['us_median']:8.2f} torch {r['torch_us']:8.2f} "
              f"x{r['torch_us'] / r['us_median']:.4f}")
PY
ORT_SOFTMAX_L2_AHEAD=396 sanitize_start memcheck held-ahead tests/ops/test_softmax.py -k "16384 or held"
ORT_SOFTMAX_L2_AHEAD=396 pytest_tally held-ahead 15 tests/ops/test_softmax.py --backend nvidia -p no:xdist -k "16384 or held"
sanitize_wait
echo "== end ($(date +%T))"; pack
