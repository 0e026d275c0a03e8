"""copy: case registry x backend x API form, compared bit-exactly against the source."""

from __future__ import annotations

import pytest
import torch

import operator_runtime as ort
from cases.copy import api_error_cases, correctness_cases
from operator_runtime_testing.assertions import assert_bitwise_equal, bits
from operator_runtime_testing.cases import with_dtypes

FORMS = ("out", "functional", "prepared")


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case,dtype", with_dtypes(correctness_cases()))
def test_copy(case, dtype, form, backend, device):
    src = case.make_inputs(dtype, device)["src"]
    expected = src.clone()
    # The functional form allocates its own result, so an in-place case checks it on the same input.
    out = case.make_out(tuple(src.shape), dtype, device, {"src": src})
    if form == "functional":
        result = ort.copy(src, backend=backend)
    elif form == "out":
        result = ort.copy(src, out=out, backend=backend)
        assert result is out
    else:
        with ort.prepare_copy(src, out=out, backend=backend) as op:
            assert op.backend is backend and op.out is out
            result = op()
    assert_bitwise_equal(result, expected)


@pytest.mark.parametrize("case", api_error_cases(), ids=lambda c: c.id)
def test_copy_errors(case, backend, device):
    call, out = case.build(device)
    if out is not None and out.device.type == "meta":
        out = None  # a meta tensor holds no data to check (used where the machine has one real device)
    before = bits(out).clone() if out is not None else None
    with pytest.raises(case.error, match=case.match):
        call()
    if out is not None:
        assert torch.equal(bits(out), before), "out was modified by a failing call"
