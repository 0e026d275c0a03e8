"""The three API forms every op test runs: functional, `out=`, and prepared."""

from __future__ import annotations

from collections.abc import Callable

import torch

FORMS = ("out", "functional", "prepared")


def _strip_leading_ones(shape) -> list[int]:
    shape = list(shape)
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


def tilelang_supports(op: str, out: torch.Tensor, inputs: list[torch.Tensor], attrs: dict) -> bool:
    """The layouts the tilelang backend documents (docs/tilelang.md), restated independently of its code:
    contiguous tensors; vector_add with equal shapes or one broadcast row; softmax over the last dim."""
    if not all(t.is_contiguous() for t in (out, *inputs)):
        return False
    if op == "vector_add":
        a, b = inputs
        n = out.shape[-1] if out.dim() else 1

        def row(t):
            return out.dim() > 1 and _strip_leading_ones(t.shape) == [n]

        full_a, full_b = a.shape == out.shape, b.shape == out.shape
        return (full_a and (full_b or row(b))) or (full_b and row(a))
    if op == "softmax":
        dim = attrs.get("dim", -1) % max(inputs[0].dim(), 1)
        return all(s == 1 for s in inputs[0].shape[dim + 1:])
    return True


def _run(form, fn, prepare_fn, inputs, attrs, out, backend) -> torch.Tensor:
    if form == "functional":
        return fn(*inputs, **attrs, backend=backend)
    if form == "out":
        result = fn(*inputs, **attrs, out=out, backend=backend)
    else:
        with prepare_fn(*inputs, **attrs, out=out, backend=backend) as op:
            assert op.out is out and op.backend.value == str(backend)
            result = op()
    assert result is out, "the out= and prepared forms must return `out` itself"
    return result


def call(form: str, fn: Callable, prepare_fn: Callable, inputs: list[torch.Tensor], attrs: dict,
         out: torch.Tensor, backend) -> torch.Tensor | None:
    """Runs one API form and returns its result. On the tilelang backend, a layout it does not support
    must raise a ValueError naming it: that is asserted here, and None returned (no result to compare)."""
    if str(backend) == "tilelang":
        import pytest

        # The functional form allocates a contiguous result itself.
        result_out = torch.empty(out.shape, dtype=out.dtype, device=out.device) if form == "functional" else out
        if not tilelang_supports(fn.__name__, result_out, inputs, attrs):
            with pytest.raises(ValueError, match="tilelang backend"):
                _run(form, fn, prepare_fn, inputs, attrs, out, backend)
            return None
    return _run(form, fn, prepare_fn, inputs, attrs, out, backend)


def check_error(case, device) -> None:
    """`case.build(device)` must raise `case.error` matching `case.match`, leaving `out` bitwise intact."""
    import pytest

    from operator_runtime_testing.assertions import bits

    call_, out = case.build(device)
    if out is not None and out.device.type == "meta":
        out = None  # a meta tensor holds no data to check (used where the machine has one real device)
    before = bits(out).clone() if out is not None else None
    with pytest.raises(case.error, match=case.match):
        call_()
    if out is not None:
        assert torch.equal(bits(out), before), "out was modified by a failing call"
