#!/usr/bin/env bash
# Prepared in session 46, not run (the device time was spent): softmax's bf16 values widened a 32-bit word at a time
# (runs/s46-softmax-bf16-words.patch: widen_half, add_packs, and cluster_smem_held's write_pack). Copy to .device/,
# run with .device and .whl carried, in one call (~500 s). A = main (built in the background into /tmp/A), B = main
# with the patch (device_build). (1) both builds; (2) bench softmax on nvidia, every bf16 row and the fp16 rows the
# patch's kernels serve, A B A B; (3) ncu of B's 256x262144 fp16 / bf16; (4) B's softmax tests and fuzz on nvidia;
# (5) B under memcheck and racecheck on the bf16 softmax tests of the held, cluster, long and split rows (41 tests). Land only if no bf16 row loses more than 1 %.
source scripts/device_steps.sh
device_begin s47a 575
build_a
git apply docs/runs/s46-softmax-bf16-words.patch && echo "patch applied"
device_build
wait_a
echo "== bench A B A B ($(date +%T), $(left) s left)"
ab_twice bench 70 70 python -m operator_runtime bench --op softmax --backend nvidia \
  --case 256x262144 1024x65536 4096x16384 32768x4096 4096x1024 --out '$AB_OUT'
echo "== ncu B ($(date +%T), $(left) s left)"
OUT=$W timeout 60 scripts/ncu_profile.sh "softmax-256x262144-(fp16|bf16)-ours" > $W/ncu.log 2>&1; echo "ncu rc=$?"
grep "^| softmax" $W/ncu.log; pack
echo "== B: nvidia softmax tests and fuzz ($(date +%T), $(left) s left)"
timeout 150 python -m pytest tests/ops/test_softmax.py tests/fuzz -k softmax --backend nvidia -n 15 -q \
  -p no:cacheprovider -p no:benchmark > $W/pytest-nvidia.log 2>&1
echo "nvidia rc=$? ($(date +%T))"; grep -E "^(FAILED|ERROR)" $W/pytest-nvidia.log | head; tail -1 $W/pytest-nvidia.log; pack
echo "== B under memcheck and racecheck: bf16 softmax ($(date +%T), $(left) s left)"
sanitize_pair tests/ops/test_softmax.py -k "bfloat16 and (smem or held or cluster or long or split) and not prepared and not many_rounds"
if [ "$(left)" -gt 70 ]; then  # perf-notes item 3's first step, in what is left: TileLang's fp32 256x262144 (0.813x
  # of ours in session 46's whole bench, the lowest ratio) beside ours under ncu
  echo "== ncu softmax 256x262144 fp32, ours and TileLang ($(date +%T), $(left) s left)"
  OUT=$W/item3 timeout $(( $(left) - 8 )) scripts/ncu_profile.sh "softmax-256x262144-fp32-(ours|tilelang)$" \
    > $W/ncu-item3.log 2>&1; echo "ncu rc=$?"; grep "^| softmax" $W/ncu-item3.log
fi
echo "== end ($(date +%T))"; pack
