"""reduce_sum: case registry x backend x API form, against torch in float64."""

from __future__ import annotations

import math

import pytest
import torch
from cases.reduce_sum import api_error_cases, correctness_cases

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.cases import with_dtypes
from operator_runtime_testing.forms import FORMS, call, check_error


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case,dtype", with_dtypes(correctness_cases()))
def test_reduce_sum(case, dtype, form, backend, device):
    x = case.make_inputs(dtype, device)["x"]
    dim, keepdim = case.attrs.get("dim", -1), case.attrs.get("keepdim", False)
    expected = x.double().sum(dim, keepdim=keepdim)
    out = case.make_out(tuple(expected.shape), dtype, device, {"x": x})
    result = call(form, ort.reduce_sum, ort.prepare_reduce_sum, [x], case.attrs, out, backend)
    # fp32 rounding error of a sum grows like sqrt(length) times the terms' size.
    length = x.shape[dim] if x.dim() else 1
    if result is not None:  # None: the tilelang backend refused the layout, as asserted in call()
        assert_close(result, expected, atol_scale=max(1.0, math.sqrt(length)))


@pytest.mark.parametrize("case", api_error_cases(), ids=lambda c: c.id)
def test_reduce_sum_errors(case, backend, device):
    check_error(case, device)


@pytest.mark.parametrize("length", [100, 64])
def test_short_rows_past_32_bit_offsets(length, backend, device):
    """nvidia's short-row kernels run with int offsets where every row's fit (create() checks); 16 rows 2^27
    elements apart reach past 2^31 and take the int64_t kernel: short_rows for rows of 100 halves, packed_rows for
    rows of 64 (eight 16-byte packs). A kernel given the int bound wrongly would read the wrong rows (or fault)."""
    if backend is not ort.Backend.NVIDIA:
        pytest.skip("nvidia only: the int / int64_t choice is the nvidia short-row kernels' (a 4 GiB CUDA view)")
    step = 1 << 27
    base = torch.zeros(15 * step + length, dtype=torch.float16, device=device)
    x = base.as_strided((16, length), (step, 1))
    x.copy_(torch.randn(16, length, dtype=torch.float16))
    expected = x.double().sum(-1)
    for form in FORMS:
        out = torch.full((16,), float("nan"), dtype=torch.float16, device=device)
        result = call(form, ort.reduce_sum, ort.prepare_reduce_sum, [x], {}, out, backend)
        assert_close(result, expected, atol_scale=10.0)


@pytest.mark.parametrize("rows,cols,dtype,split", [
    (256, 65536, torch.bfloat16, "whole"), (32768, 4096, torch.bfloat16, "split"),
    (32768, 4096, torch.float32, "a power of two"),
])
def test_column_sums_split_only_where_the_finishing_kernel_pays(rows, cols, dtype, split, backend, device):
    """nvidia's column sums split their rows over a wave of blocks, into a row of fp32 partials a split in the
    workspace that a second kernel adds, only where the rows pay for that kernel (session 53, run ir: 256x65536 bf16
    ran 8 % faster unsplit); fp32 takes the largest power of two of splits within the wave (session 54, run is:
    32768x4096 at 16 splits 122.0 us against 20's 123.9). The bench's 32768x4096 splits on any GPU of 7 SMs or more;
    256 rows stay whole below 256 SMs."""
    if backend is not ort.Backend.NVIDIA:
        pytest.skip("nvidia only: the split is the nvidia column kernel's plan")
    x = torch.randn(rows, cols, dtype=dtype, device=device)
    out = torch.full((cols,), float("nan"), dtype=dtype, device=device)
    op = ort.prepare_reduce_sum(x, 0, out=out, backend=backend)
    splits, rest = divmod(op.workspace_size, 4 * cols)
    assert rest == 0, op.workspace_size
    if split == "whole":
        assert splits == 0, op.workspace_size
    else:
        assert splits > 1, op.workspace_size
    if split == "a power of two":
        assert splits & (splits - 1) == 0, splits
    op()
    assert_close(out, x.double().sum(0), atol_scale=math.sqrt(rows))
