"""vector_add: case registry x backend x API form, against torch in float64."""

from __future__ import annotations

import pytest
from cases.vector_add import api_error_cases, correctness_cases

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.cases import with_dtypes
from operator_runtime_testing.forms import FORMS, call, check_error


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case,dtype", with_dtypes(correctness_cases()))
def test_vector_add(case, dtype, form, backend, device):
    inputs = case.make_inputs(dtype, device)
    expected = inputs["a"].double() + inputs["b"].double()  # before the call: in-place cases overwrite a or b
    out = case.make_out(tuple(expected.shape), dtype, device, inputs)
    result = call(form, ort.vector_add, ort.prepare_vector_add, [inputs["a"], inputs["b"]], {}, out, backend)
    if result is not None:  # None: the tilelang backend refused the layout, as asserted in call()
        assert_close(result, expected)


@pytest.mark.parametrize("case", api_error_cases(), ids=lambda c: c.id)
def test_vector_add_errors(case, backend, device):
    check_error(case, device)
