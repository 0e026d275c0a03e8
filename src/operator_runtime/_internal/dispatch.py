"""The one dispatch mechanism: every op, every backend, every API form goes through `prepare`."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from operator_runtime import _C
from operator_runtime.backend import Backend, resolve_backend
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime._internal.stream import stream_getter
from operator_runtime._internal.tensor_meta import contiguous_strides, describe, require_tensor, DTYPE_CODES


@dataclass(frozen=True)
class OpSpec:
    """What dispatch needs to know about one op.

    descriptor: the descriptor's base name; backend classes are `_C.<descriptor><Backend>`
        (e.g. `_C.CopyNvidia`) and `operator_runtime.tilelang.descriptors.<descriptor>`.
    inputs: argument names, in the order create() and execute() take them after `out`.
    result_shape: (*inputs, *attrs) -> the shape of the out-of-place result.
    alias_ok: whether `out` may be exactly one of the inputs (in-place use).
    """

    name: str
    descriptor: str
    inputs: tuple[str, ...]
    result_shape: Callable[..., tuple[int, ...]]
    alias_ok: bool


_BACKEND_SUFFIX = {Backend.CPU: "Cpu", Backend.NVIDIA: "Nvidia"}


def descriptor_class(spec: OpSpec, backend: Backend) -> Any:
    if backend is Backend.TILELANG:
        return getattr(importlib.import_module("operator_runtime.tilelang.descriptors"), spec.descriptor)
    return getattr(_C, spec.descriptor + _BACKEND_SUFFIX[backend])


def prepare(spec: OpSpec, inputs: tuple, out: torch.Tensor | None, backend: Backend | str | None,
            attrs: tuple = ()) -> PreparedOp:
    """Validates, creates the descriptor, and binds it to `inputs` and `out` (allocated if None)."""
    for t, name in zip(inputs, spec.inputs):
        require_tensor(t, name)
    if out is not None:
        require_tensor(out, "out")
        if out.requires_grad:
            raise ValueError("out: must not require grad; operator_runtime kernels are not differentiable")
    first = inputs[0]
    chosen = resolve_backend(backend, first.device)
    for t, name in zip(inputs[1:], spec.inputs[1:]):
        if t.device != first.device:
            raise ValueError(f"{name}: expected a tensor on {first.device} (the device of "
                             f"{spec.inputs[0]}), got {t.device}")
    if out is not None and out.device != first.device:
        raise ValueError(f"out: expected a tensor on {first.device} (the device of {spec.inputs[0]}), "
                         f"got {out.device}")
    descs = [describe(t, name) for t, name in zip(inputs, spec.inputs)]
    if out is None:
        # Describe the result before allocating it, so invalid input allocates nothing.
        shape = tuple(spec.result_shape(*inputs, *attrs))
        out_desc = _C.TensorDesc(shape, contiguous_strides(shape), DTYPE_CODES.get(first.dtype, 8),
                                 1 if first.device.type == "cuda" else 0, first.device.index or 0)
    else:
        out_desc = describe(out, "out")
    desc = descriptor_class(spec, chosen)(out_desc, *descs, *attrs)
    if out is None:
        out = torch.empty(shape, dtype=first.dtype, device=first.device)
    return PreparedOp(desc, chosen, spec.name, tuple(inputs), spec.inputs, out, spec.alias_ok,
                      stream_getter(first.device))


def run(spec: OpSpec, inputs: tuple, out: torch.Tensor | None, backend: Backend | str | None,
        attrs: tuple = ()) -> torch.Tensor:
    """The out-of-place and `out=` forms: prepare, run once, release the descriptor."""
    with prepare(spec, inputs, out, backend, attrs) as op:
        return op()
