#!/usr/bin/env bash
# Session 47, run hw: the landed mix (the registers kernel starts relaxed, the shared-memory and packed kernels keep
# the release start). Copy to .device/, run with .device and .whl carried. (1) build; (2) ncu of the 16-bit
# shared-memory kernel at 256x262144 fp16, the library's release start beside the `_relaxed` arm (why it lost 3.5-4.5 %
# in run hv); (3) the TileLang softmax tests of the rows that take a cluster kernel; (4) the fp32 cluster rows under
# memcheck and racecheck on tilelang.
source scripts/device_steps.sh
device_begin s47c 400
device_build
echo "== ncu fp16 256x262144 shared-memory kernel, release and relaxed ($(date +%T), $(left) s left)"
OUT=$W/ncu timeout 100 scripts/ncu_profile.sh "softmax-256x262144-fp16-tilelang(-relaxed)?$" > $W/ncu.log 2>&1
echo "ncu rc=$?"; grep "^| softmax" $W/ncu.log; pack
LONG="cluster or long or split or smem or held or 32768 or 49152 or 65536 or 98304 or 131072 or 147456 or 163840 \
or 196608 or 229376 or 262144"
echo "== TileLang softmax tests of the long rows ($(date +%T), $(left) s left)"
timeout 200 python -m pytest tests/ops/test_softmax.py -k "$LONG" --backend tilelang -n 15 -q -p no:cacheprovider \
  -p no:benchmark > $W/pytest.log 2>&1
echo "tests rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest.log | head; tail -1 $W/pytest.log; pack
echo "== fp32 cluster rows under memcheck and racecheck on tilelang ($(date +%T), $(left) s left)"
SANITIZE_BACKEND=tilelang sanitize_pair tests/ops/test_softmax.py -k "float32 and (rows-65536 or rows-262144 or cluster)"
echo "== end ($(date +%T))"; pack
