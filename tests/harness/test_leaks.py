"""The leak hunt's report names what holds a live descriptor."""

from __future__ import annotations

import ctypes

import torch

import operator_runtime as ort
from operator_runtime_testing import leaks


class _Holder:
    def __init__(self, desc):
        self.desc = desc


def test_a_held_descriptor_is_reported_with_its_holder():
    op = ort.prepare_reduce_sum(torch.randn(4, 4), dim=1, backend="cpu")
    holder = _Holder(op._desc)
    name = type(holder.desc).__name__
    held = leaks.descriptor_holders()
    assert held[(name, f"{__name__}._Holder")] == 1
    assert held[(name, "operator_runtime._internal.prepared.PreparedOp")] >= 1  # the op itself, still open
    assert f"1 x {name} held by {__name__}._Holder" in leaks.report()
    op.close()
    del holder


def test_closed_and_dropped_descriptors_are_not_reported():
    key = ("ReduceSumCpu", "operator_runtime._internal.prepared.PreparedOp")
    before = leaks.descriptor_holders()[key]
    with ort.prepare_reduce_sum(torch.randn(3, 5), dim=0, backend="cpu") as op:
        op()
        assert leaks.descriptor_holders()[key] == before + 1
    assert leaks.descriptor_holders()[key] == before  # close() dropped it


def test_the_report_walks_up_from_each_holder():
    op = ort.prepare_reduce_sum(torch.randn(4, 4), dim=1, backend="cpu")
    keep = [_Holder(op._desc)]
    chain = leaks.holder_chain(keep[0])
    assert "  held by builtins.list" in chain  # `keep`, one level up from the _Holder
    name = type(op._desc).__name__
    lines = leaks.report().splitlines()
    at = lines.index(f"  1 x {name} held by {__name__}._Holder")
    assert "    held by builtins.list" in lines[at + 1:at + 4]
    op.close()


def test_a_holder_kept_only_from_c_is_named_as_such():
    # What session 37 met under compute-sanitizer: the holder's one reference is a C one (here, an extra
    # reference count taken through the C API), so no Python object can be named as its holder.
    incref, decref = ctypes.pythonapi.Py_IncRef, ctypes.pythonapi.Py_DecRef
    incref.argtypes = decref.argtypes = [ctypes.py_object]
    op = ort.prepare_reduce_sum(torch.randn(4, 4), dim=1, backend="cpu")
    holder = _Holder(op._desc)
    incref(holder)
    address = id(holder)
    del holder
    try:
        lines = leaks.report().splitlines()
        at = lines.index(f"  1 x {type(op._desc).__name__} held by {__name__}._Holder")
        assert lines[at + 1] == "    held by nothing the collector tracks (a reference from C)"
    finally:
        decref(ctypes.cast(address, ctypes.py_object).value)
        op.close()


def test_reachable_from_finds_what_a_bound_op_holds_and_an_unbound_one_drops():
    x = torch.randn(4, 4)
    op = ort.prepare_reduce_sum(x, dim=1, backend="cpu")
    assert any(o is x for o in leaks.reachable_from({"plan": op}))  # through the slots of a PreparedOp
    op.unbind()
    assert not any(o is x for o in leaks.reachable_from({"plan": op}))
    op.close()


def test_the_sanitizers_injection_is_recognised(monkeypatch):
    monkeypatch.setenv("NV_SANITIZER_INJECTION_TRANSPORT_TYPE", "uds")  # as the tool sets it (run jf)
    assert leaks.under_compute_sanitizer()
