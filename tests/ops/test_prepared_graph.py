"""A prepared op's bound call, recorded as a CUDA graph on its second call and replayed after
(src/cpp/bindings/call_graph.cc). The replay must be the call it replaces: it reads the bound tensors as they
are when it runs, follows a tensor whose storage moved, stays out of a capture in progress, and keeps stream
order. On the cpu and tilelang backends nothing is recorded."""

from __future__ import annotations

import pytest
import torch

import operator_runtime as ort
from operator_runtime_testing.assertions import assert_close

# (name, prepare, make inputs, reference): one of each op, and the kernels whose launches carry the most: a
# cluster of 16 CTAs with shared memory (fp32 softmax rows of 140000), two kernels and a workspace (reduce_sum of
# few long rows, split), two inputs with a broadcast (vector_add).
# The last field scales the tolerance: a sum of n values errs like sqrt(n) (as in test_reduce_sum.py).
OPS = [
    ("copy", ort.prepare_copy, lambda d: (torch.randn(67, 45, device=d).t(),), lambda x: x.clone(), 1.0),
    ("vector_add", ort.prepare_vector_add,
     lambda d: (torch.randn(256, 512, device=d, dtype=torch.float16), torch.randn(512, device=d, dtype=torch.float16)),
     lambda a, b: (a.double() + b.double()), 1.0),
    ("reduce_sum", ort.prepare_reduce_sum, lambda d: (torch.randn(4, 262144, device=d),), lambda x: x.double().sum(-1),
     262144 ** 0.5),
    ("softmax", ort.prepare_softmax, lambda d: (torch.randn(20, 140000, device=d),),
     lambda x: torch.softmax(x.double(), -1), 1.0),
]


def _recorded(op) -> bool:
    return bool(op._graph)


@pytest.mark.parametrize(("name", "prepare", "make", "ref", "scale"), OPS, ids=[o[0] for o in OPS])
def test_bound_calls_replay_the_recorded_call_on_live_data(name, prepare, make, ref, scale, backend, device):
    inputs = make(device)
    if backend is ort.Backend.TILELANG and not all(t.is_contiguous() for t in inputs):
        # TileLang's copy takes contiguous tensors only, and says so at prepare; the replay is checked on a copy
        # of the same values laid out as it takes them.
        with pytest.raises(ValueError, match="takes contiguous tensors"):
            prepare(*inputs, backend=backend)
        inputs = tuple(t.contiguous() for t in inputs)
    op = prepare(*inputs, backend=backend)
    for call in range(4):
        for t in inputs:  # new values in the same storage: a replay must read them, not the recorded ones
            t.copy_(torch.randn_like(t))
        result = op()
        assert result is op.out
        assert_close(result, ref(*inputs).to(result.dtype), atol_scale=scale)
        recorded = _recorded(op)
        if backend is ort.Backend.NVIDIA:
            assert recorded == (call >= 1), f"call {call}: recorded={recorded}"
        else:
            assert not recorded  # the cpu backend has no graphs; tilelang's descriptors take tensors, not pointers
    op.close()
    assert not _recorded(op)
    with pytest.raises(ort.OperatorRuntimeError, match="closed"):
        op()


def _recorded_op(prepare, x, backend):
    """`prepare(x)` after the two bound calls that record it (nvidia only)."""
    if backend is not ort.Backend.NVIDIA:
        pytest.skip(f"only the nvidia backend records calls as CUDA graphs (backend under test: {backend.value})")
    op = prepare(x, backend=backend)
    op(), op()
    assert _recorded(op)
    return op


def test_a_bound_tensor_whose_storage_moved_is_followed(backend, device):
    x = torch.randn(1000, device=device)
    op = _recorded_op(ort.prepare_copy, x, backend)
    x.set_(torch.randn(1000, device=device))  # the bound tensor now points at other memory
    torch.testing.assert_close(op(), x, rtol=0, atol=0)
    op.out.set_(torch.empty(1000, device=device))
    torch.testing.assert_close(op(), x, rtol=0, atol=0)


def test_calls_inside_a_torch_graph_capture_are_captured_not_replayed(backend, device):
    x = torch.randn(64, 4096, device=device)
    op = _recorded_op(ort.prepare_softmax, x, backend)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        op()  # a replay would nest our graph inside torch's; the launch is captured instead
    x.copy_(torch.randn_like(x))
    op.out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert_close(op.out, torch.softmax(x.double(), -1).float())


def test_replays_keep_stream_order(backend, device):
    x = torch.zeros(1 << 20, device=device)
    op = _recorded_op(ort.prepare_copy, x, backend)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for k in range(1, 6):  # each fill is enqueued before the replay that reads it, on the same stream
            x.fill_(float(k))
            op()
            op.out.add_(0)  # a kernel after the replay, ordered behind it
        last = op.out.clone()
    side.synchronize()
    assert torch.equal(last, torch.full_like(x, 5.0))


def test_a_call_that_cannot_be_recorded_still_runs(backend, device, monkeypatch):
    # Recording is an optimisation: if it fails (here forced, on any backend), the call launches as before.
    from operator_runtime._internal import prepared

    def refuse(*args, **kwargs):
        raise ort.OperatorRuntimeError("cudaStreamBeginCapture: operation not permitted when stream is capturing")

    monkeypatch.setattr(prepared._C, "CallGraph", refuse, raising=False)
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: False)  # CPU-only torch cannot answer
    x = torch.randn(33, 65, device=device)
    op = ort.prepare_softmax(x, backend=backend)
    op._graph = None  # as on a GPU before the second call, whatever the backend under test
    for _ in range(3):
        x.copy_(torch.randn_like(x))
        assert_close(op(), torch.softmax(x.double(), -1).float())
    assert op._graph is False


def test_unbind_drops_the_recorded_call(backend, device):
    op = _recorded_op(ort.prepare_copy, torch.randn(1000, device=device), backend)
    op.unbind()  # the graph holds the dropped tensors' pointers
    assert not _recorded(op)
    y = torch.randn(1000, device=device)
    torch.testing.assert_close(op(y), y, rtol=0, atol=0)
