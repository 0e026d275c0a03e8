"""The descriptor lifecycle: create from descriptions, outlive the tensors, run on new ones, destroy."""

from __future__ import annotations

import gc

import pytest
import torch

import operator_runtime as ort
from operator_runtime._internal.dispatch import descriptor_class
from operator_runtime._internal.stream import stream_getter
from operator_runtime._internal.tensor_meta import describe
from operator_runtime.ops.copy import SPEC as COPY
from operator_runtime_testing.assertions import assert_bitwise_equal
from operator_runtime_testing.layouts import Layout, make, transposed


def _pair(device, backend=None):
    # The tilelang backend takes contiguous tensors only; every other backend gets a transposed source.
    layout = Layout() if backend is ort.Backend.TILELANG else transposed(2)
    src = make((67, 45), torch.float32, device, layout)
    return src, make((67, 45), torch.float32, device, fill="poison")


def _execute(desc, out, src, device):
    if hasattr(desc, "execute"):  # C++ descriptors: raw pointers and the current stream
        desc.execute(0, 0, out.data_ptr(), src.data_ptr(), stream_getter(torch.device(device))())
    else:                         # TileLang descriptors: the tensors
        desc.run(out, src)


def test_descriptor_outlives_the_tensors_it_was_described_from(backend, device):
    src, out = _pair(device, backend)
    desc = descriptor_class(COPY, backend)(describe(out, "out"), describe(src, "src"))
    del src, out
    gc.collect()
    src, out = _pair(device, backend)
    _execute(desc, out, src, device)
    if device == "cuda":
        torch.cuda.synchronize()
    assert_bitwise_equal(out, src)
    desc.close()
    desc.close()  # destroy is idempotent
    assert desc.closed
    with pytest.raises(ort.OperatorRuntimeError, match="destroyed"):
        _execute(desc, out, src, device)


def test_prepared_runs_on_new_tensors_and_allocates_a_matching_out(backend, device):
    src, out = _pair(device, backend)
    op = ort.prepare_copy(src, out=out, backend=backend)
    src2, out2 = _pair(device, backend)
    assert op(src2, out=out2) is out2
    assert_bitwise_equal(out2, src2)
    fresh = op(src2)
    assert fresh is not out and fresh.stride() == out.stride()
    assert_bitwise_equal(fresh, src2)
    assert_bitwise_equal(op(), src)  # still bound to the tensors it was prepared with
    with pytest.raises(TypeError, match="takes 1 input"):
        op(src2, src2)
    op.close()
    op.close()
    assert op.closed


def test_prepared_op_is_a_context_manager_and_closes_when_collected(backend, device):
    src, out = _pair(device, backend)
    with ort.prepare_copy(src, out=out, backend=backend) as op:
        op()
    assert op.closed
    import weakref

    ref = weakref.ref(ort.prepare_copy(src, out=out, backend=backend))
    gc.collect()
    assert ref() is None


def test_prepared_copy_runs_on_the_current_stream_and_in_a_cuda_graph(backend, device):
    if device != "cuda":
        pytest.skip("streams and CUDA graphs need a CUDA device")
    src, out = _pair(device, backend)
    op = ort.prepare_copy(src, out=out, backend=backend)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        op()  # enqueued on `side`, the current stream here
    side.synchronize()
    assert_bitwise_equal(out, src)
    graph = torch.cuda.CUDAGraph()
    out.fill_(float("nan"))
    with torch.cuda.graph(graph):
        op()
    src.copy_(torch.randn(src.shape, device=device))
    graph.replay()
    torch.cuda.synchronize()
    assert_bitwise_equal(out, src)
