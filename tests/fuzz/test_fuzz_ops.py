"""Hypothesis: vector_add, reduce_sum and softmax over random shapes, layouts, dims and dtypes, against
torch in float64 with the one tolerance table, plus softmax's invariants."""

from __future__ import annotations

import math

import torch
from hypothesis import given
from hypothesis import strategies as st

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.forms import call
from operator_runtime_testing.layouts import FLOAT_DTYPES, make
from operator_runtime_testing.strategies import layouts, shapes

dtypes = st.sampled_from(FLOAT_DTYPES)


@st.composite
def broadcast_pair(draw):
    """Two shapes that broadcast: b drops leading dims and turns some dims into 1."""
    out = draw(shapes(max_rank=5))
    keep = draw(st.integers(0, len(out)))
    b = tuple(1 if draw(st.booleans()) else s for s in out[len(out) - keep:])
    a = tuple(1 if s != 0 and draw(st.integers(0, 4)) == 0 else s for s in out)
    return (a, b) if draw(st.booleans()) else (b, a)


@given(data=st.data())
def test_fuzz_vector_add(data, backend, device):
    sa, sb = data.draw(broadcast_pair(), label="shapes")
    dtype = data.draw(dtypes, label="dtype")
    a = make(sa, dtype, device, data.draw(layouts(len(sa), allow_expand=True), label="a_layout"))
    b = make(sb, dtype, device, data.draw(layouts(len(sb), allow_expand=True), label="b_layout"))
    shape = tuple(torch.broadcast_shapes(sa, sb))
    out = make(shape, dtype, device, data.draw(layouts(len(shape), allow_expand=False), label="out_layout"),
               fill="poison")
    expected = a.double() + b.double()
    if call("out", ort.vector_add, ort.prepare_vector_add, [a, b], {}, out, backend) is not None:
        assert_close(out, expected)


@st.composite
def reduction_input(draw, device, keepdim_choice: bool):
    shape = draw(shapes(max_rank=5), label="shape")
    dtype = draw(dtypes, label="dtype")
    x = make(shape, dtype, device, draw(layouts(len(shape), allow_expand=True), label="x_layout"))
    n = max(len(shape), 1)
    dim = draw(st.integers(-n, n - 1), label="dim")
    keepdim = draw(st.booleans(), label="keepdim") if keepdim_choice else False
    return x, dim, keepdim


@given(data=st.data())
def test_fuzz_reduce_sum(data, backend, device):
    x, dim, keepdim = data.draw(reduction_input(device, True))
    expected = x.double().sum(dim, keepdim=keepdim)
    out_layout = data.draw(layouts(expected.dim(), allow_expand=False), label="out_layout")
    out = make(tuple(expected.shape), x.dtype, device, out_layout, fill="poison")
    attrs = {"dim": dim, "keepdim": keepdim}
    if call("out", ort.reduce_sum, ort.prepare_reduce_sum, [x], attrs, out, backend) is not None:
        length = x.shape[dim] if x.dim() else 1
        assert_close(out, expected, atol_scale=max(1.0, math.sqrt(length)))


@given(data=st.data())
def test_fuzz_softmax(data, backend, device):
    x, dim, _ = data.draw(reduction_input(device, False))
    out_layout = data.draw(layouts(x.dim(), allow_expand=False), label="out_layout")
    out = make(tuple(x.shape), x.dtype, device, out_layout, fill="poison")
    expected = torch.softmax(x.double(), dim)
    if call("out", ort.softmax, ort.prepare_softmax, [x], {"dim": dim}, out, backend) is None:
        return  # the tilelang backend refused this layout, as call() asserted
    assert_close(out, expected)
    if x.numel() and x.is_contiguous():
        # Invariants: every row sums to 1, and softmax(x + c) == softmax(x).
        sums = out.double().sum(dim)
        tol = {torch.float32: 1e-5, torch.float16: 5e-3, torch.bfloat16: 3e-2}[x.dtype]
        assert torch.allclose(sums, torch.ones_like(sums), atol=tol * 4, rtol=0), sums
        c = data.draw(st.sampled_from([-8.0, 3.0, 16.0]), label="shift")
        shifted = ort.softmax((x.float() + c).to(x.dtype), dim, backend=backend)
        if x.dtype == torch.float32:  # x + c is exact enough in fp32 to compare with softmax(x) itself
            torch.testing.assert_close(shifted, out, rtol=1e-4, atol=1e-6)
        else:  # half types round x + c, so compare with the reference of the rounded input
            assert_close(shifted, torch.softmax((x.float() + c).to(x.dtype).double(), dim))
