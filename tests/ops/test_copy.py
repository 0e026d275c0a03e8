"""copy: case registry x backend x API form, compared bit-exactly against the source."""

from __future__ import annotations

import pytest
from cases.copy import api_error_cases, correctness_cases

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_bitwise_equal
from operator_runtime_testing.cases import with_dtypes
from operator_runtime_testing.forms import FORMS, call, check_error


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case,dtype", with_dtypes(correctness_cases()))
def test_copy(case, dtype, form, backend, device):
    src = case.make_inputs(dtype, device)["src"]
    expected = src.clone()
    # The functional form allocates its own result, so an in-place case checks it on the same input.
    out = case.make_out(tuple(src.shape), dtype, device, {"src": src})
    result = call(form, ort.copy, ort.prepare_copy, [src], {}, out, backend)
    if result is not None:  # None: the tilelang backend refused the layout, as asserted in call()
        assert_bitwise_equal(result, expected)


@pytest.mark.parametrize("case", api_error_cases(), ids=lambda c: c.id)
def test_copy_errors(case, backend, device):
    check_error(case, device)
