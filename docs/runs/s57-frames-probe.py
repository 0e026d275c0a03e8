"""Run jf (session 57): does a softmax call's input outlive the call, and what holds it, in this process?
Run under compute-sanitizer with and without its host backtraces to see whether the tool is the holder."""

import gc
import os
import re
import weakref

import torch

import operator_runtime as ort
from operator_runtime_testing import leaks

print("injection env:", {k: v for k, v in os.environ.items() if re.search("SANIT|INJECT", k)})
with open("/proc/self/maps") as maps:
    print("sanitizer libraries mapped:", sorted({ln.split()[-1] for ln in maps if "anitizer" in ln}))
print("under_compute_sanitizer:", leaks.under_compute_sanitizer())
x = torch.randn(40, 50, device="cuda")
ref = weakref.ref(x)
y = ort.softmax(x, backend="nvidia")
ort.softmax(x, backend="nvidia")
del x, y
gc.collect()
held = ref()
print("input alive after the calls:", held is not None)
if held is not None:
    print("\n".join(leaks.holder_chain(held, depth=4)))
