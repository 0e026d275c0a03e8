"""reduce_sum: x.sum(dim, keepdim) with fp32 accumulation; the result has x's dtype."""

from __future__ import annotations

import torch

from operator_runtime._internal.dispatch import OpSpec, prepare, run
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime._internal.tensor_meta import normalize_dim, require_bool, require_int
from operator_runtime.backend import Backend


def _result_shape(x: torch.Tensor, dim: int, keepdim: bool) -> tuple[int, ...]:
    d = normalize_dim(dim, x.dim())
    shape = list(x.shape)
    if x.dim() == 0:
        return ()
    if keepdim:
        shape[d] = 1
    else:
        del shape[d]
    return tuple(shape)


SPEC = OpSpec(name="reduce_sum", descriptor="ReduceSum", inputs=("x",), result_shape=_result_shape, alias_ok=False)


def reference(x: torch.Tensor, dim: int = -1, keepdim: bool = False) -> torch.Tensor:
    return x.double().sum(dim, keepdim=keepdim).to(x.dtype)


def examples(device: torch.device | str) -> list[tuple[str, tuple, dict]]:
    x = torch.randn(1008, 2304, device=device)
    return [("rows f32", (x,), {}), ("columns bf16", (x.bfloat16(),), {"dim": 0}),
            ("transposed f16 keepdim", (x.t().half(),), {"dim": 1, "keepdim": True})]


def reduce_sum(x: torch.Tensor, dim: int = -1, keepdim: bool = False, *, out: torch.Tensor | None = None,
               backend: Backend | str | None = None) -> torch.Tensor:
    """Sum of x over `dim`; `out` must have exactly the result shape."""
    return run(SPEC, (x,), out, backend, (require_int(dim, "dim"), require_bool(keepdim, "keepdim")))


def prepare_reduce_sum(x: torch.Tensor, dim: int = -1, keepdim: bool = False, *, out: torch.Tensor | None = None,
                       backend: Backend | str | None = None) -> PreparedOp:
    return prepare(SPEC, (x,), out, backend, (require_int(dim, "dim"), require_bool(keepdim, "keepdim")))
