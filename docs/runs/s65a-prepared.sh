#!/usr/bin/env bash
# Prepared in session 64 (CPU only; not yet run): perf-notes session 64, "For the next session" item 0. Run kp timed
# every Early trigger made AfterWait in a build whose prologue branched twice, which cost the tiny kernels 3-20 % (run
# kq), so its gains for copy tiny and vector_add 1008x2304 are unproven. This times it cleanly: A is main built
# beside; B is main with runs/s64-pdl-after-wait-everywhere.patch (the same one branch in the prologue, the trigger
# moved after the wait for every kernel that passes Early), so the two builds differ only in the trigger's place.
# The bench's rows of 64 MiB or less (37 of 85), every op, nvidia, A B A B; then each row's A / B. About 6 min after a
# cold start. Write the predictions into perf-notes before the call.
source scripts/device_steps.sh
device_begin s65a 560
build_a && sleep 3
git apply docs/runs/s64-pdl-after-wait-everywhere.patch && echo "B: every Early after the wait"
device_build
wait_a
ab_twice bench 150 120 python -m operator_runtime bench --backend nvidia --max-mib 64 --out '$AB_OUT'
python - "$W" <<'PY'
import collections, glob, json, sys
t = collections.defaultdict(dict)
for f in sorted(glob.glob(f"{sys.argv[1]}/bench-[AB]-*/bench.rows.jsonl")):
    arm = f.split("/")[-2].split("-")[1]
    for line in open(f):
        r = json.loads(line)
        t[(r["op"], r["case"], r["dtype"])].setdefault(arm, []).append(r["us_median"])
print("== bench: op case dtype, A us, B us, A / B of the bests (> 1: B, every Early after the wait, faster)")
for k, v in t.items():
    if "A" in v and "B" in v:
        print(*k, v["A"], v["B"], f"{min(v['A']) / min(v['B']):.3f}")
PY
echo "== end ($(date +%T))"; pack
