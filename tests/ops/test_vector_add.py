"""vector_add: case registry x backend x API form, against torch in float64."""

from __future__ import annotations

import pytest
import torch
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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
def test_one_contiguous_row_of_many_waves(dtype, backend, device):
    # nvidia's flat kernel takes blocks of 1024 threads for fp32 / fp16 rows of at least 32 waves of them (about
    # 2^25 elements on the H200); 2^27 + 5 is past that on a GPU of up to 512 SMs, and its 5 leave a tail that no
    # pack fills. bf16 keeps 128 threads at the same size. The sum is exact in fp32 and rounded once, as torch's.
    # On the CPU backend the same row costs about 4 s a dtype and 2.3 GB, so every backend runs it.
    n = (1 << 27) + 5
    gen = torch.Generator(device=device).manual_seed(49)
    a = torch.randn(n, device=device, dtype=dtype, generator=gen)
    b = torch.randn(n, device=device, dtype=dtype, generator=gen)
    out = ort.vector_add(a, b, backend=backend)
    assert torch.equal(out, a + b)
    assert out.dtype == dtype and out.shape == (n,)
