"""The plan cache behind the out-of-place and out= forms: reuse without holding tensors or hiding errors."""

from __future__ import annotations

import gc
import weakref

import pytest
import torch

import operator_runtime as ort
from operator_runtime._internal import dispatch
from operator_runtime_testing import leaks
from operator_runtime_testing.assertions import assert_close


def test_repeated_calls_reuse_one_plan_and_compute_fresh_results(backend, device):
    dispatch._PLANS.clear()
    a = torch.randn(33, 65, device=device)
    for _ in range(3):
        b = torch.randn(65, device=device)
        assert_close(ort.vector_add(a, b, backend=backend), a.double() + b.double())
    assert sum(1 for k in dispatch._PLANS if k[0] == "vector_add") == 1


def test_the_cache_keeps_no_user_tensors(backend, device):
    x = torch.randn(40, 50, device=device)
    y = ort.softmax(x, backend=backend)
    z = ort.softmax(x, backend=backend)  # a cache hit
    assert any(key[0] == "softmax" for key in dispatch._PLANS)
    kept = [type(o).__name__ for o in leaks.reachable_from(dispatch._PLANS) if o is x or o is y or o is z]
    assert not kept, "the plan cache reaches a tensor of the call"


def test_a_call_keeps_nothing_of_its_tensors_once_it_returns(backend, device):
    if leaks.under_compute_sanitizer():
        pytest.skip("compute-sanitizer's host backtraces (its default) keep the Python frames of the CUDA calls "
                    "it intercepts alive from C, and with them the call's tensors (session 57, runs je-jf)")
    x = torch.randn(40, 50, device=device)
    ref = weakref.ref(x)
    y = ort.softmax(x, backend=backend)
    ort.softmax(x, backend=backend)  # a cache hit
    del x, y
    gc.collect()
    held = ref()
    holders = "" if held is None else "\n".join(leaks.holder_chain(held))  # before the assert, whose path holds it
    del held
    assert ref() is None, f"the input is still held:\n{holders}"


def test_a_cache_hit_still_rejects_partial_overlap(backend, device):
    buf = torch.randn(200, device=device)
    ort.copy(buf[:100], out=buf[100:], backend=backend)  # disjoint: cached
    with pytest.raises(ValueError, match="out: partially overlaps src"):
        ort.copy(buf[:100], out=buf[50:150], backend=backend)  # same metadata, overlapping pointers


def test_other_metadata_misses_and_is_validated(backend, device):
    x = torch.randn(8, 9, device=device)
    ort.reduce_sum(x, 1, backend=backend)
    with pytest.raises(ValueError, match="dim: expected a dim in"):
        ort.reduce_sum(x, 2, backend=backend)


def test_clear_plans_destroys_every_cached_descriptor(backend, device):
    # Run at exit (atexit): cached descriptors must be destroyed while the extension is whole, not at interpreter
    # teardown, where nanobind reported all 512 of them as leaked after CI's pytest runs.
    for n in (3, 5, 7):
        ort.softmax(torch.randn(2, n, device=device), backend=backend)
    plans = list(dispatch._PLANS.values())
    assert plans
    dispatch.clear_plans()
    assert not dispatch._PLANS
    assert all(p.closed for p in plans)
    assert_close(ort.softmax(torch.ones(2, 3, device=device), backend=backend), torch.full((2, 3), 1 / 3.0))
