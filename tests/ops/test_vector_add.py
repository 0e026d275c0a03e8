"""vector_add: case registry x backend x API form, against torch in float64."""

from __future__ import annotations

import math

import pytest
import torch
from cases.vector_add import api_error_cases, correctness_cases

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.cases import with_dtypes
from operator_runtime_testing.forms import FORMS, call, check_error
from operator_runtime_testing.rounding import KINDS, pairs_that_round


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
    # nvidia's flat kernel takes blocks of 1024 threads for rows of at least 32 waves of them (about 2^25 elements
    # on the H200; bf16 too since session 61); 2^27 + 5 is past that on a GPU of up to 512 SMs, and its 5 leave a
    # tail that no pack fills. The sum is rounded once, as torch's.
    # On the CPU backend the same row costs about 4 s a dtype and 2.3 GB, so every backend runs it.
    n = (1 << 27) + 5
    gen = torch.Generator(device=device).manual_seed(49)
    a = torch.randn(n, device=device, dtype=dtype, generator=gen)
    b = torch.randn(n, device=device, dtype=dtype, generator=gen)
    out = ort.vector_add(a, b, backend=backend)
    assert torch.equal(out, a + b)
    assert out.dtype == dtype and out.shape == (n,)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shape,b_shape", [((1 << 16,), (1 << 16,)), ((64, 2048), (64, 2048)), ((64, 2048), (2048,)),
                                           ((33, 1031), (33, 1031))], ids=["flat", "rows", "row-vector", "tails"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_16_bit_sums_round_as_torch_bit_for_bit(dtype, shape, b_shape, kind, backend, device):
    # Session 61: the nvidia backend adds 16-bit packs in pairs in hardware, one rounding; torch adds in fp32 and
    # narrows. They agree bit for bit (a sum fp32 cannot hold exactly is too far from a 16-bit tie to be moved onto
    # one), and this holds every backend to it: flat, row-grid and rows plans, and the element-wise tails.
    gen = torch.Generator().manual_seed(61)
    a, b = pairs_that_round(kind, dtype, math.prod(shape), gen)
    a, b = a.view(shape).to(device), b.view(shape)
    b = (b if b_shape == shape else b[0]).to(device)
    got, want = ort.vector_add(a, b, backend=backend), a + b
    same = (got.view(torch.int16) == want.view(torch.int16)) | (got.isnan() & want.isnan())
    assert bool(same.all()), f"{int((~same).sum())} sums differ from torch's, e.g. {a[~same][:3]} + ..."
