"""The three API forms every op test runs: functional, `out=`, and prepared."""

from __future__ import annotations

from collections.abc import Callable

import torch

FORMS = ("out", "functional", "prepared")


def call(form: str, fn: Callable, prepare_fn: Callable, inputs: list[torch.Tensor], attrs: dict,
         out: torch.Tensor, backend) -> torch.Tensor:
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
