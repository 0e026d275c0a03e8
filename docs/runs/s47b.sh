#!/usr/bin/env bash
# Session 47, run hv: TileLang's cluster softmax kernels with the relaxed start (perf-notes "Session 47"): no clear of
# `every` and a relaxed cluster arrive, with the shared-memory planner's reuse off (softmax_cluster.NO_REUSE) so that
# `every` has bytes of its own. The tree keeps the release start; R (/tmp/R) is the installed package with
# .device/s47b-R/softmax_cluster.py, the library with the relaxed start by default. Copy to .device/, run with .device
# and .whl carried. (1) build; (2) ncu of the fp32 256x262144 registers kernel, release and relaxed; (3) R's TileLang
# softmax tests of the rows that take a cluster kernel; (4) bench softmax on tilelang at 256x262144 and 1024x65536,
# R T R T (ab_twice's A arm is R here, B the tree); (5) the host cost of a prepared call; (6) R's cluster rows under
# memcheck and racecheck on tilelang.
source scripts/device_steps.sh
device_begin s47b 575
device_build
package_copy /tmp/R .device/s47b-R/softmax_cluster.py
echo "== ncu fp32 256x262144 registers kernel, release and relaxed ($(date +%T), $(left) s left)"
OUT=$W/ncu timeout 100 scripts/ncu_profile.sh "softmax-256x262144-fp32-tilelang(-relaxed)?$" > $W/ncu.log 2>&1
echo "ncu rc=$?"; grep "^| softmax" $W/ncu.log; pack
LONG="cluster or long or split or smem or held or 32768 or 49152 or 65536 or 98304 or 131072 or 147456 or 163840 \
or 196608 or 229376 or 262144"
echo "== R: TileLang softmax tests of the long rows ($(date +%T), $(left) s left)"
PYTHONPATH=/tmp/R:$PYTHONPATH timeout 200 python -m pytest tests/ops/test_softmax.py -k "$LONG" --backend tilelang \
  -n 15 -q -p no:cacheprovider -p no:benchmark > $W/pytest-R.log 2>&1
echo "R tests rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-R.log | head; tail -1 $W/pytest-R.log; pack
echo "== bench tilelang softmax, R T R T ($(date +%T), $(left) s left)"
A_DIR=/tmp/R ab_twice bench 75 45 python -m operator_runtime bench --op softmax --backend tilelang \
  --case 256x262144 1024x65536 --out '$AB_OUT'
echo "== host cost of a prepared call ($(date +%T), $(left) s left)"
for i in 1 2; do
  timeout 40 python -m operator_runtime bench --op copy --backend nvidia --case tiny --host-overhead \
    --out $W/host-$i > $W/host-$i.log 2>&1; echo "host $i rc=$?"; tail -12 $W/host-$i.log
done; pack
echo "== R under memcheck and racecheck on tilelang ($(date +%T), $(left) s left)"
PYTHONPATH=/tmp/R:$PYTHONPATH SANITIZE_BACKEND=tilelang sanitize_pair tests/ops/test_softmax.py \
  -k "(rows-65536 or rows-262144 or cluster) and not prepared"
echo "== end ($(date +%T))"; pack
