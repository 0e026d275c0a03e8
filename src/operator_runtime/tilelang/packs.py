"""16-byte packs for the TileLang kernels.

Over a `(rows, n)` tensor with a dynamic `n`, TileLang cannot prove that a row starts on a 16-byte boundary
(`row * n` has unknown factors), so it emits one load per element: 2 bytes for halves. The packed kernels
take the same memory as `(rows, n / VEC, VEC)` with a static VEC; the row offset becomes
`row * groups * VEC` and each pack is one 16-byte access. That took 16-bit row sums from 0.63-0.88x to
1.01-1.13x of the CUDA backend on the H200 (docs/perf-notes.md, session 6).

The view only helps when the tensor itself starts on a 16-byte boundary, which a descriptor cannot know
at create (a view one element into its storage does not): `aligned` is checked at run.
"""

from __future__ import annotations

import torch

PACK_BYTES = 16


def pack_width(dtype: str) -> int:
    """Elements of `dtype` in a 16-byte pack (4 fp32, 8 fp16 or bf16, 16 bytes, 2 int64)."""
    return PACK_BYTES // getattr(torch, dtype).itemsize


def aligned(*tensors: torch.Tensor) -> bool:
    return all(t.data_ptr() % PACK_BYTES == 0 for t in tensors)
