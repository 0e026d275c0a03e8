#!/usr/bin/env bash
# Session 46, run ht (the last ~300 s of device time): ncu of our softmax 256x262144 fp16 and bf16 (the bf16 row read
# 3.87 TB/s in run hr against fp16's 3.92 and its bar of 3.9): same kernel family (cluster_smem_held), do the two
# differ in DRAM throughput, instructions or occupancy, or is the gap the bench's spread?
source scripts/device_steps.sh
device_begin s46e 230
device_build
echo "== ncu ($(date +%T), $(left) s left)"
OUT=$W timeout $(( $(left) - 5 )) scripts/ncu_profile.sh "softmax-256x262144-(fp16|bf16)-ours" > $W/ncu.log 2>&1
echo "ncu rc=$? ($(date +%T))"; tail -20 $W/ncu.log
echo "== end ($(date +%T))"; pack
