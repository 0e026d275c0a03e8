"""vector_add: out = a + b with torch broadcasting; float32/float16/bfloat16, fp32 math."""

from __future__ import annotations

import torch

from operator_runtime._internal.dispatch import OpSpec, prepare, run
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime.backend import Backend


def _result_shape(a: torch.Tensor, b: torch.Tensor) -> tuple[int, ...]:
    try:
        return tuple(torch.broadcast_shapes(a.shape, b.shape))
    except RuntimeError:
        raise ValueError(f"b: shape {tuple(b.shape)} is not broadcastable with a's shape {tuple(a.shape)}") from None


SPEC = OpSpec(name="vector_add", descriptor="VectorAdd", inputs=("a", "b"), result_shape=_result_shape,
              alias_ok=True)


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return (a.double() + b.double()).to(a.dtype)


def examples(device: torch.device | str) -> list[tuple[str, tuple, dict]]:
    a = torch.randn(1024, 1031, device=device)
    return [("contiguous f32", (a, torch.randn_like(a)), {}),
            ("row broadcast bf16", (a.bfloat16(), torch.randn(1031, device=device).bfloat16()), {}),
            ("transposed f16", (a.t().half(), torch.randn(1031, 1, device=device).half()), {})]


def vector_add(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor | None = None,
               backend: Backend | str | None = None) -> torch.Tensor:
    """a + b with broadcasting, written to `out` (a new contiguous tensor if None)."""
    return run(SPEC, (a, b), out, backend)


def prepare_vector_add(a: torch.Tensor, b: torch.Tensor, *, out: torch.Tensor | None = None,
                       backend: Backend | str | None = None) -> PreparedOp:
    return prepare(SPEC, (a, b), out, backend)
