#!/usr/bin/env bash
# Session 59, run ju (the last ~350 s of device time): why Inductor's bf16 row broadcast of 16384^2 runs 2 % ahead
# (run js: 252.8 against our 257.9 µs). ncu with per-instruction stalls of ours beside Inductor's, and Inductor's
# generated Triton kernel (TORCH_LOGS=output_code), read before any new kernel (perf-notes, session 59's next 1).
source scripts/device_steps.sh
device_begin s59d 230
device_build
TORCH_LOGS=output_code timeout 60 python - > $W/inductor-code.log 2>&1 <<'PY'
import torch
a = torch.randn(16384, 16384, device="cuda", dtype=torch.bfloat16)
b = torch.randn(16384, device="cuda", dtype=torch.bfloat16)
torch.compile(lambda x, y: x + y)(a, b)
torch.cuda.synchronize()
PY
echo "inductor code rc=$?"; grep -E "XBLOCK|num_warps|tl.load|triton_meta|grid" $W/inductor-code.log | cut -c1-200 | head -12
pack
OUT=$W/ncu NCU_SASS=1 timeout $(( $(left) - 8 )) scripts/ncu_profile.sh "add-row-broadcast-bf16-(ours|compile)$" \
  > $W/ncu.log 2>&1
echo "ncu rc=$?"; tail -14 $W/ncu.log
echo "== end ($(date +%T))"; pack
