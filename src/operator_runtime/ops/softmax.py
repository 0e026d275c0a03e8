"""softmax along `dim`: numerically stable (max-subtracted), fp32 math, result in x's dtype."""

from __future__ import annotations

import torch

from operator_runtime._internal.dispatch import OpSpec, prepare, run
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime._internal.tensor_meta import normalize_dim, require_int
from operator_runtime.backend import Backend


def _result_shape(x: torch.Tensor, dim: int) -> tuple[int, ...]:
    normalize_dim(dim, x.dim())
    return tuple(x.shape)


SPEC = OpSpec(name="softmax", descriptor="Softmax", inputs=("x",), result_shape=_result_shape, alias_ok=True)


def reference(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    return torch.softmax(x.double(), dim).to(x.dtype)


def examples(device: torch.device | str) -> list[tuple[str, tuple, dict]]:
    x = torch.randn(4080, 1536, device=device)
    return [("rows f32", (x,), {}), ("rows bf16", (x.bfloat16(),), {}),
            ("dim 0 f16", (x.half(),), {"dim": 0})]


def softmax(x: torch.Tensor, dim: int = -1, *, out: torch.Tensor | None = None,
            backend: Backend | str | None = None) -> torch.Tensor:
    """softmax(x) along `dim`; `out` may be exactly x (in place)."""
    return run(SPEC, (x,), out, backend, (require_int(dim, "dim"),))


def prepare_softmax(x: torch.Tensor, dim: int = -1, *, out: torch.Tensor | None = None,
                    backend: Backend | str | None = None) -> PreparedOp:
    return prepare(SPEC, (x,), out, backend, (require_int(dim, "dim"),))
