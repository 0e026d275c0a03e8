#!/usr/bin/env bash
# Run kq (session 64): Trigger::AfterWait landed (reduce_sum's packed_rows a warp a row at one block an SM at most;
# reduce_sum's short rows, short_rows and packed_rows at 1-16 threads a row, where ManyWaves said Early). The tree is
# B; A is the same tree with .device/s64c-B.patch (B's src/cpp diff against session 63's main: `git diff fb22f53 5308a9c
# -- src/cpp`) reversed, built beside.
# (1) the whole nvidia suite on B, with memcheck and racecheck of reduce_sum's short and lane rows beside;
# (2) A B B A over reduce_sum's short rows (32-128 elements, 64-32768 rows) and lane rows at the new bound;
# (3) the bench's small rows of all four ops, A B A B.
source scripts/device_steps.sh
device_begin s64c 570
git apply -R .device/s64c-B.patch && build_a && sleep 3 && git apply .device/s64c-B.patch && echo "A copied, B restored"
device_build
sanitize_start memcheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
sanitize_start racecheck rs tests/ops/test_reduce_sum.py -k "lane-packs or short or packed"
pytest_tally nvidia 200 tests/ops tests/fuzz tests/harness tests/test_cuda_launch.py -m "not lowering" --backend nvidia -n 4
wait_a
SWEEP="docs/runs/s58-few-rows-sweep.py --arms 0"
for v in A B B A; do
  pp=$([ $v = A ] && echo "$A_DIR:$PYTHONPATH" || echo "$PYTHONPATH")
  PYTHONPATH=$pp timeout 40 python $SWEEP --rows 64 256 1024 4096 8192 16384 32768 --lengths 32 64 128 \
    > $W/short-$v-$(ls $W | grep -c "^short-$v").csv 2>&1
  PYTHONPATH=$pp timeout 30 python $SWEEP --rows 144 400 1056 1064 --lengths 1040 1536 --dtypes float16 float32 \
    > $W/lane-$v-$(ls $W | grep -c "^lane-$v").csv 2>&1
  echo "sweep $v ($(date +%T))"; pack
done
ab_twice bench 60 50 python -m operator_runtime bench --backend nvidia \
  --case 144x1280 4096x128 4096x1024 4080x1536 1008x2304 tiny --out '$AB_OUT'
sanitize_wait
ab_summary bench > $W/bench-summary.txt
python - "$W" <<'PY'
import csv, glob, sys
w = sys.argv[1]
for kind in ("short", "lane"):
    t = {}
    for f in sorted(glob.glob(f"{w}/{kind}-*.csv")):
        arm = f.split("/")[-1].split("-")[1]
        for r in csv.DictReader(open(f)):
            if r.get("arm0_us"):
                t.setdefault((r["dtype"], int(r["n"]), int(r["rows"])), {}).setdefault(arm, []).append(float(r["arm0_us"]))
    print(f"== {kind}: dtype n rows, A us (both), B us (both), A / B of the bests")
    for k in sorted(t):
        a, b = t[k].get("A", []), t[k].get("B", [])
        if a and b:
            print(*k, "/".join(f"{v:.3f}" for v in a), "/".join(f"{v:.3f}" for v in b), f"{min(a) / min(b):.3f}")
PY
python - "$W" <<'PY'
import collections, glob, json, sys
t = collections.defaultdict(dict)
for f in sorted(glob.glob(f"{sys.argv[1]}/bench-[AB]-*/bench.rows.jsonl")):
    arm = f.split("/")[-2].split("-")[1]
    for line in open(f):
        r = json.loads(line)
        t[(r["op"], r["case"], r["dtype"])].setdefault(arm, []).append(r["us_median"])
print("== bench: op case dtype, A us, B us, A / B of the bests")
for k, v in t.items():
    if "A" in v and "B" in v:
        print(*k, v["A"], v["B"], f"{min(v['A']) / min(v['B']):.3f}")
PY
echo "== end ($(date +%T))"; pack
