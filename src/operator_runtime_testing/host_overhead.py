"""Host cost per call on a tiny tensor, for torch eager and each of our API forms.

Batches are short (200 calls) with a synchronize between them, so the GPU's launch queue never fills and
what is timed is the host side alone.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import torch

import operator_runtime as ort


def _per_call_us(fn: Callable[[], object], sync: Callable[[], None], batch: int = 200, trials: int = 25) -> float:
    for _ in range(20):
        fn()
    sync()
    samples = []
    for _ in range(trials):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t0) * 1e6 / batch)
        sync()
    return statistics.median(samples)


def measure(device: torch.device, backend: str | None = None, numel: int = 1024) -> dict[str, float]:
    """µs per call of copy on a `numel`-element fp32 tensor, by API form."""
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    x, y = torch.randn(numel, device=device), torch.empty(numel, device=device)
    x2, y2 = torch.randn(numel, device=device), torch.empty(numel, device=device)
    op = ort.prepare_copy(x, out=y, backend=backend)
    costs = {
        "torch eager (y.copy_(x))": _per_call_us(lambda: y.copy_(x), sync),
        "ort.copy(x)": _per_call_us(lambda: ort.copy(x, backend=backend), sync),
        "ort.copy(x, out=y)": _per_call_us(lambda: ort.copy(x, out=y, backend=backend), sync),
        "prepared op(x2, out=y2)": _per_call_us(lambda: op(x2, out=y2), sync),
        "prepared op()": _per_call_us(op, sync),
    }
    # The C++ part alone: the descriptor's execute with the pointers and stream computed once. The gap to
    # "prepared op()" is the Python wrapper; on a GPU the rest is mostly the kernel launch itself. Backends whose
    # descriptors are Python (tilelang) have no C++ part: `bench --backend tilelang nvidia` failed here (run bk).
    desc = op._desc
    if op._pointer_abi:
        ptrs, stream, ws_ptr, ws_size = (y.data_ptr(), x.data_ptr()), op._stream(), op._ws_ptr, op._ws_size
        costs["descriptor execute (C++ only)"] = _per_call_us(lambda: desc.execute(ws_ptr, ws_size, *ptrs, stream),
                                                              sync)
    return costs
