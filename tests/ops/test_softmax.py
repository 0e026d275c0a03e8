"""softmax: case registry x backend x API form, against torch in float64."""

from __future__ import annotations

import pytest
import torch
from cases.softmax import api_error_cases, correctness_cases

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.cases import with_dtypes
from operator_runtime_testing.forms import FORMS, call, check_error


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("case,dtype", with_dtypes(correctness_cases()))
def test_softmax(case, dtype, form, backend, device):
    x = case.make_inputs(dtype, device)["x"]
    dim = case.attrs.get("dim", -1)
    expected = torch.softmax(x.double(), dim)
    out = case.make_out(tuple(x.shape), dtype, device, {"x": x})
    result = call(form, ort.softmax, ort.prepare_softmax, [x], case.attrs, out, backend)
    if result is not None:  # None: the tilelang backend refused the layout, as asserted in call()
        assert_close(result, expected)


@pytest.mark.parametrize("case", api_error_cases(), ids=lambda c: c.id)
def test_softmax_errors(case, backend, device):
    check_error(case, device)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize(
    "length",
    [4, 8200, 12296, 16384, 49152, 65536, 131072, 100000, 70000, 200000, 262144],
    ids=["registers", "held-384-masked", "held-masked", "held-full", "cluster-masked", "cluster", "cluster-8",
         "cluster-ragged", "online", "cluster-7-ragged", "cluster-16"],
)
def test_softmax_matches_torch_on_all_neg_inf_and_inf_rows(backend, device, length, dtype):
    # On Hopper rows of 49152-262144 take the cluster kernels (nvidia; tilelang where its parts are whole), whose
    # blocks trade (max, sum): on nvidia cluster_smem_held, 16-bit rows in 2 (49152), 4 (65536, 70000, 100000) and
    # 8 CTAs (131072-262144), fp32 rows in 4 (49152), 8 (65536-100000) and 16 (131072-262144), whose packs past the
    # row hold -inf. Elsewhere (before Hopper, and tilelang's ragged rows) the long rows run online or split kernels,
    # whose running (max, sum) sees -inf, inf and NaN inside chunks. 16-bit rows of 8200 (384 threads), 12296 and
    # 16384 (512) take online_held, whose packs past the row are -inf.
    inf, nan = float("inf"), float("nan")
    x = torch.zeros(7, length, device=device, dtype=dtype)
    x[0] = -inf                                    # all -inf: 0/0
    x[1, 1] = inf                                  # an inf
    x[2, -1] = nan                                 # a NaN last
    x[3, : length // 2] = -inf                     # -inf first, finite values later
    x[4, 0], x[4, 1:] = nan, -inf                  # NaN then -inf: the max stays -inf
    x[5] = torch.arange(length, device=device) % 7  # finite, as a control
    x[6], x[6, 0], x[6, -1] = -inf, nan, 0.0       # a NaN whose thread, block or part holds only -inf
    ours = ort.softmax(x, backend=backend)
    ref = torch.softmax(x.double(), -1)
    assert torch.isnan(ours).equal(torch.isnan(ref)), (ours, ref)
    finite = ~torch.isnan(ref)
    assert_close(ours[finite], ref[finite])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize(("rows", "length"), [(300, 65536), (150, 131072), (300, 100000), (200, 140000), (60, 262144)],
                         ids=["4", "8", "8-ragged", "16-ragged", "16"])
@pytest.mark.parametrize("every_other_row", [True, False], ids=["strided", "contiguous"])
def test_softmax_long_rows_over_many_rounds(backend, device, rows, length, dtype, every_other_row):
    # Rows split across clusters of 4, 8 and 16 CTAs (the ids: fp32 and tilelang; fp32 rows of 140000 and 262144
    # on nvidia take cluster_smem_held in 16 CTAs of 5 and 8 packs, 16-bit rows in 4, 8, 4, 8 and 8), more of them
    # than the H200 runs at once (about 99 clusters of 4, 24 of 16; of cluster_smem_held 21-99), so clusters run in
    # rounds (a persistent cluster kernel, as session 20 tried, loops over rows and its barriers change phase); rows
    # that differ in scale. Every other row of a larger tensor, so that a row's offset comes from its stride, and
    # contiguous rows, which the tilelang backend runs (it refuses the strided ones).
    base = torch.randn(2 * rows, length, device=device, dtype=torch.float32)
    base *= torch.linspace(0.5, 8.0, 2 * rows, device=device)[:, None]
    x = base.to(dtype)[::2] if every_other_row else base[:rows].to(dtype)
    ours = call("functional", ort.softmax, ort.prepare_softmax, [x], {}, torch.empty_like(x), backend)
    if ours is not None:  # None: the tilelang backend refused the strided rows, as asserted in call()
        assert_close(ours, torch.softmax(x.double(), -1))
