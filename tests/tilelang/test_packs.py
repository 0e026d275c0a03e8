"""The 16-byte pack rules the TileLang descriptors apply at create and run (CPU: no tilelang needed)."""

from __future__ import annotations

import pytest
import torch

from operator_runtime.tilelang import packs


@pytest.mark.parametrize("dtype,width", [("float32", 4), ("float16", 8), ("bfloat16", 8)])
def test_a_pack_is_16_bytes_of_the_dtype(dtype, width):
    assert packs.pack_width(dtype) == width
    assert width * getattr(torch, dtype).itemsize == packs.PACK_BYTES


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_only_a_view_on_a_16_byte_boundary_is_aligned(dtype):
    base = torch.empty(64, dtype=dtype)
    width = packs.PACK_BYTES // dtype.itemsize
    assert packs.aligned(base)  # torch's allocations start on (at least) 64-byte boundaries
    assert packs.aligned(base[width:], base)
    assert not packs.aligned(base[1:])  # one element in: the packed kernels must step aside
    assert not packs.aligned(base, base[1:])  # every tensor given must be aligned
