"""The eager TileLang kernels against torch (GPU), and the tilelang backend's availability contract."""

from __future__ import annotations

import importlib.util

import pytest
import torch

import operator_runtime as ort
from operator_runtime.backend import unavailable_reason
from operator_runtime_testing.assertions import assert_close

HAS_TILELANG = importlib.util.find_spec("tilelang") is not None


def test_explicit_tilelang_says_what_is_missing():
    reason = unavailable_reason(ort.Backend.TILELANG)
    if reason is None:
        assert ort.Backend.TILELANG in ort.available_backends()
        return
    assert ort.Backend.TILELANG not in ort.available_backends()
    expected = "tilelang is not installed" if not HAS_TILELANG else "needs a CUDA device"
    assert expected in reason or "nvidia build" in reason
    with pytest.raises(ort.BackendUnavailableError, match="backend 'tilelang' is unavailable"):
        ort.copy(torch.ones(3), backend="tilelang")


needs_gpu_tilelang = pytest.mark.skipif(
    not (HAS_TILELANG and torch.cuda.is_available()), reason="the eager kernels need tilelang and a CUDA device")


@needs_gpu_tilelang
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape", [(1, 1), (37, 100), (5, 3000)], ids=lambda s: "x".join(map(str, s)))
def test_eager_kernels_match_torch(shape, dtype):
    from operator_runtime.tilelang import eager

    x = torch.randn(shape, device="cuda").to(dtype)
    y = torch.randn(shape, device="cuda").to(dtype)
    assert torch.equal(eager.copy(x), x)
    assert_close(eager.vector_add(x, y), x.double() + y.double())
    assert_close(eager.reduce_sum(x), x.double().sum(-1), atol_scale=shape[-1] ** 0.5)
    assert_close(eager.softmax(x), torch.softmax(x.double(), -1))


@needs_gpu_tilelang
def test_eager_kernels_refuse_strided_input():
    from operator_runtime.tilelang import eager

    with pytest.raises(ValueError, match="contiguous"):
        eager.softmax(torch.randn(8, 8, device="cuda").t())


@pytest.mark.skipif(not HAS_TILELANG, reason="tilelang not installed")
def test_tilelang_refuses_tensors_beyond_int32_indexing():
    from operator_runtime import _C
    from operator_runtime.tilelang.descriptors import check_int32_extent

    big = _C.TensorDesc([1 << 16, 1 << 15], [1 << 15, 1], 8, 1, 0)  # 2^31 elements: one too many
    with pytest.raises(ValueError, match="out: the tilelang backend indexes with int32"):
        check_int32_extent(out=big)
    check_int32_extent(out=_C.TensorDesc([1 << 16, (1 << 15) - 1], [(1 << 15) - 1, 1], 8, 1, 0))
