"""The leak hunt's report names what holds a live descriptor."""

from __future__ import annotations

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
