"""copy: out[...] = src[...], any strides on both sides, every fixed-size dtype."""

from __future__ import annotations

import torch

from operator_runtime._internal.dispatch import OpSpec, prepare, run
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime.backend import Backend

SPEC = OpSpec(name="copy", descriptor="Copy", inputs=("src",),
              result_shape=lambda src: tuple(src.shape), alias_ok=True)


def reference(src: torch.Tensor) -> torch.Tensor:
    return src.clone()


def examples(device: torch.device | str) -> list[tuple[str, tuple, dict]]:
    """Small inputs for `python -m operator_runtime check`: (label, args, kwargs)."""
    x = torch.randn(513, 1031, device=device)
    return [("contiguous f32", (x,), {}), ("transposed bf16", (x.t().bfloat16(),), {}),
            ("stepped f16", (x[::2, ::3].half(),), {})]


def copy(src: torch.Tensor, *, out: torch.Tensor | None = None,
         backend: Backend | str | None = None) -> torch.Tensor:
    """Copies `src` into `out` (a new contiguous tensor if None) and returns `out`."""
    return run(SPEC, (src,), out, backend)


def prepare_copy(src: torch.Tensor, *, out: torch.Tensor | None = None,
                 backend: Backend | str | None = None) -> PreparedOp:
    """Creates a copy descriptor for these tensors' layouts; call the result to run it."""
    return prepare(SPEC, (src,), out, backend)
