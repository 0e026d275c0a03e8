"""The eager (`T.empty`) kernels behind a torch-style call, for teaching and tests:

    from operator_runtime.tilelang import eager
    y = eager.softmax(x)          # compiles once per shape, returns a new tensor

Each takes contiguous CUDA tensors and returns the kernel's own output (declared with T.empty).
"""

from __future__ import annotations

import torch

from operator_runtime.tilelang import copy as tl_copy
from operator_runtime.tilelang import reduce_sum as tl_sum
from operator_runtime.tilelang import softmax as tl_softmax
from operator_runtime.tilelang import vector_add as tl_add


def _name(t: torch.Tensor) -> str:
    return str(t.dtype).removeprefix("torch.")


def _rows(t: torch.Tensor) -> torch.Tensor:
    if not t.is_contiguous():
        raise ValueError(f"the eager TileLang kernels take contiguous tensors; got strides {t.stride()}")
    n = t.shape[-1] if t.dim() else 1
    return t.view(-1, n)


def copy(src: torch.Tensor) -> torch.Tensor:
    return tl_copy.copy_eager(_rows(src).view(-1), dtype=_name(src)).view(src.shape)


def vector_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.shape != b.shape:
        raise ValueError(f"the eager vector_add takes equal shapes; got {tuple(a.shape)} and {tuple(b.shape)}")
    return tl_add.vector_add_eager(_rows(a), _rows(b), dtype=_name(a)).view(a.shape)


def reduce_sum(x: torch.Tensor) -> torch.Tensor:
    """Sum over the last dim."""
    return tl_sum.reduce_sum_eager(_rows(x), dtype=_name(x)).view(x.shape[:-1])


def softmax(x: torch.Tensor) -> torch.Tensor:
    """softmax over the last dim."""
    return tl_softmax.softmax_eager(_rows(x), dtype=_name(x)).view(x.shape)
