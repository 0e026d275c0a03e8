"""The one dispatch mechanism: every op, every backend, every API form goes through `prepare`."""

from __future__ import annotations

import atexit
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from operator_runtime import _C
from operator_runtime._internal.prepared import PreparedOp
from operator_runtime._internal.stream import stream_getter
from operator_runtime._internal.tensor_meta import DTYPE_CODES, contiguous_strides, describe, require_tensor
from operator_runtime.backend import Backend, resolve_backend
from operator_runtime.errors import BackendUnavailableError


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
        module, name = importlib.import_module("operator_runtime.tilelang.descriptors"), spec.descriptor
    else:
        module, name = _C, spec.descriptor + _BACKEND_SUFFIX[backend]
    cls = getattr(module, name, None)
    if cls is None:  # an op may skip a backend (the TileLang kernel is optional: how-to-add-an-operator.md)
        raise BackendUnavailableError(f"backend {backend.value!r} has no {spec.name} kernel (no {name} in "
                                      f"{module.__name__})")
    return cls


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


# The plan cache: out-of-place and `out=` calls reuse the descriptor created for the same op, backend,
# attributes and tensor metadata (cuDNN's plan cache, torch's kernel cache). A descriptor never depends on
# the tensors it was described from, so reuse is safe; the cached PreparedOp holds no tensors. Plans with
# a workspace are not cached: two streams must not share one workspace.
_PLANS: dict[tuple, PreparedOp] = {}
_MAX_PLANS = 512


@atexit.register
def clear_plans() -> None:
    """Destroys every cached plan. Registered to run at exit, while the extension module is still whole: left to
    interpreter teardown, the cached descriptors outlived `_C` in CI's pytest runs, and nanobind reported each of
    them (512, the cache's size) as leaked."""
    while _PLANS:
        _PLANS.popitem()[1].close()


def _plan_key(spec: OpSpec, inputs: tuple, out: torch.Tensor | None, backend, attrs: tuple) -> tuple | None:
    try:
        metas = tuple((t.shape, t.stride(), t.dtype, t.device) for t in inputs)
        out_meta = None if out is None else (out.shape, out.stride(), out.dtype, out.device, out.requires_grad)
    except AttributeError:
        return None  # not tensors: the full path raises the precise TypeError
    return spec.name, backend, attrs, metas, out_meta


def run(spec: OpSpec, inputs: tuple, out: torch.Tensor | None, backend: Backend | str | None,
        attrs: tuple = ()) -> torch.Tensor:
    """The out-of-place and `out=` forms: a cached plan when one matches, else prepare (which validates)."""
    key = _plan_key(spec, inputs, out, backend, attrs)
    plan = _PLANS.get(key) if key is not None else None
    if plan is not None:
        return plan.run_matching(inputs, out)  # the key matched the metadata; overlap is still checked
    op = prepare(spec, inputs, out, backend, attrs)
    result = op()
    if key is not None and op.workspace_size == 0:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.pop(next(iter(_PLANS)))  # evict the oldest plan
        _PLANS[key] = op.unbind()
    else:
        op.close()
    return result
