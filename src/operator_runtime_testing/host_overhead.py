"""Host cost per call on a tiny tensor, for torch eager and each of our API forms.

Calls run in batches with a synchronize between them, and the median batch is reported per call. Two batch
lengths answer two questions: 200 calls back to back (the rate a loop of calls sustains) and one call on an idle
GPU (what the host alone pays for it). If the long batch costs more per call, the host was waiting on the GPU:
a launch needs a slot that only an earlier kernel's retirement frees.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import torch

import operator_runtime as ort


def _per_call_us(fn: Callable[[], object], sync: Callable[[], None], batch: int) -> float:
    trials = max(25, 1000 // batch)  # a batch of one is one sample: take more of them
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


def measure(device: torch.device, backend: str | None = None, numel: int = 1024, batch: int = 200) -> dict[str, float]:
    """µs per call of copy on a `numel`-element fp32 tensor, by API form, in batches of `batch` calls."""
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    x, y = torch.randn(numel, device=device), torch.empty(numel, device=device)
    x2, y2 = torch.randn(numel, device=device), torch.empty(numel, device=device)
    op = ort.prepare_copy(x, out=y, backend=backend)
    costs = {
        "torch eager (y.copy_(x))": _per_call_us(lambda: y.copy_(x), sync, batch),
        "ort.copy(x)": _per_call_us(lambda: ort.copy(x, backend=backend), sync, batch),
        "ort.copy(x, out=y)": _per_call_us(lambda: ort.copy(x, out=y, backend=backend), sync, batch),
        "prepared op(x2, out=y2)": _per_call_us(lambda: op(x2, out=y2), sync, batch),
        "prepared op()": _per_call_us(op, sync, batch),
    }
    # The C++ part alone: the descriptor's execute with the pointers and stream computed once. The gap to
    # "prepared op()" is the Python wrapper; on a GPU the rest is mostly the kernel launch itself. Backends whose
    # descriptors are Python (tilelang) have no C++ part: `bench --backend tilelang nvidia` failed here (run bk).
    desc = op._desc
    if op._pointer_abi:
        ptrs, stream, ws_ptr, ws_size = (y.data_ptr(), x.data_ptr()), op._stream(), op._ws_ptr, op._ws_size
        costs["descriptor execute (C++ only)"] = _per_call_us(lambda: desc.execute(ws_ptr, ws_size, *ptrs, stream),
                                                              sync, batch)
    # On a GPU the bound op() above replays the call recorded as a CUDA graph (bindings/call_graph.cc); its C++
    # part alone, beside the launch it replaces (the execute row).
    graph = op._graph
    if graph:
        stream = op._stream()
        costs["graph replay (C++ only)"] = _per_call_us(lambda: graph.replay(stream, y.data_ptr(), x.data_ptr()),
                                                        sync, batch)
    return costs
