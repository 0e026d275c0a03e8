"""Hypothesis: copy over random shapes, layouts on both sides and every dtype, exact against torch."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_bitwise_equal
from operator_runtime_testing.forms import call
from operator_runtime_testing.layouts import ALL_COPY_DTYPES, make
from operator_runtime_testing.strategies import layouts, shapes


@given(data=st.data())
def test_fuzz_copy(data, backend, device):
    shape = data.draw(shapes(max_rank=5), label="shape")
    dtype = data.draw(st.sampled_from(ALL_COPY_DTYPES), label="dtype")
    src_layout = data.draw(layouts(len(shape), allow_expand=True), label="src_layout")
    out_layout = data.draw(layouts(len(shape), allow_expand=False), label="out_layout")
    src = make(shape, dtype, device, src_layout)
    out = make(shape, dtype, device, out_layout, fill="poison")
    expected = src.clone()  # torch's own copy is the reference
    if call("out", ort.copy, ort.prepare_copy, [src], {}, out, backend) is not None:
        assert_bitwise_equal(out, expected)
