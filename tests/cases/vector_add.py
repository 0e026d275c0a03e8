"""vector_add cases: broadcasting, layouts on every operand, in-place, errors, benchmark shapes."""

from __future__ import annotations

import torch

import operator_runtime as ort
from operator_runtime_testing.cases import BenchCase, CorrectnessCase, Operand
from operator_runtime_testing.cases import error_case as case
from operator_runtime_testing.layouts import CONTIGUOUS, Layout, make, transposed

C = CorrectnessCase


def _ab(sa, sb, la=CONTIGUOUS, lb=CONTIGUOUS):
    return {"a": Operand(sa, la), "b": Operand(sb, lb)}


def correctness_cases() -> list[CorrectnessCase]:
    return [
        C("scalar", _ab((), ())),
        C("empty", _ab((0, 7), (0, 7))),
        C("flat-odd", _ab((1031,), (1031,))),
        C("flat-big", _ab(((1 << 20) + 3,), ((1 << 20) + 3,))),
        C("rows-aligned", _ab((64, 256), (64, 256))),
        C("row-vector", _ab((33, 1024), (1024,))),
        C("row-vector-odd", _ab((33, 1031), (1031,))),
        # nvidia: more rows than a grid's y dim holds (65535): the rows kernel's loop over rows, not row_grid
        C("row-vector-many-rows", _ab((70_000, 5), (5,))),
        # nvidia: plans of one outer dim past the small-plan bound (528 blocks on an H200) run row_grid at two packs a
        # thread (bf16 too since session 61): a ragged row tail, a stepped input, an out one element off a pack
        C("row-vector-large", _ab((600, 1031), (1031,))),
        C("row-vector-large-stepped", _ab((528, 2048), (2048,), Layout(steps=(2, 1), offset=8))),
        C("rows-large-stepped-out", _ab((530, 2056), (530, 2056)), out_layout=Layout(steps=(3, 1), offset=1)),
        C("column-vector", _ab((257, 1), (257, 96))),
        C("outer-product", _ab((1, 40), (37, 1))),
        C("scalar-plus-tensor", _ab((), (5, 7))),
        C("rank-mismatch", _ab((3, 1, 5), (4, 1))),
        C("transposed-a", _ab((130, 70), (130, 70), transposed(2))),
        # The tiled path (an input unit-stride along another dim than out): both inputs transposed, a
        # transposed input beside a broadcast row, a batch of transposes, a stepped transposed view.
        C("transposed-both", _ab((200, 150), (200, 150), transposed(2), transposed(2))),
        C("transposed-a-row-vector", _ab((150, 200), (200,), transposed(2))),
        C("transposed-batched", _ab((3, 70, 90), (3, 70, 90), Layout(perm=(0, 2, 1)))),
        C("transposed-stepped", _ab((100, 80), (100, 80), Layout(perm=(1, 0), steps=(1, 2)))),
        # nvidia: even strides take words of two elements (tiled_pairs): whole and cut tiles in both dims, a
        # batch with both inputs transposed; a one-element offset, an odd stride and a direct input broadcast
        # along i must take the element kernel.
        C("transposed-pairs", _ab((300, 260), (300, 260), transposed(2))),
        C("transposed-pairs-both-batched", _ab((3, 136, 200), (3, 136, 200), Layout(perm=(0, 2, 1)),
                                               Layout(perm=(0, 2, 1)))),
        C("transposed-pairs-odd-offset", _ab((200, 136), (200, 136), Layout(perm=(1, 0), offset=1))),
        C("transposed-pairs-odd-stride", _ab((131, 70), (131, 70), transposed(2))),
        C("transposed-pairs-column-broadcast", _ab((300, 260), (300, 1), transposed(2))),
        C("stepped-b", _ab((50, 60), (50, 60), lb=Layout(steps=(2, 3)))),
        C("offset-misaligned", _ab((4099,), (4099,), Layout(offset=1), Layout(offset=3)), out_layout=Layout(offset=2)),
        C("expanded-inputs", _ab((9, 8, 7), (9, 8, 7), Layout(expand=(1,)), Layout(expand=(0, 2)))),
        C("strided-out", _ab((40, 50), (40, 50)), out_layout=transposed(2)),
        C("stepped-out", _ab((40, 50), (50,)), out_layout=Layout(steps=(3, 2))),
        C("rank5", _ab((2, 3, 4, 5, 6), (3, 1, 5, 6), Layout(perm=(4, 3, 2, 1, 0)))),
        C("in-place-a", _ab((64, 100), (100,)), in_place="a"),
        C("in-place-b", _ab((64, 100), (64, 100), lb=transposed(2)), in_place="b"),
    ]


def _f(device, *shape, dtype=torch.float32):
    return make(shape, dtype, device)


def api_error_cases():
    return [
        case("not-broadcastable", lambda d: _f(d, 4, 5), lambda d, o: ort.vector_add(_f(d, 4, 5), _f(d, 3), out=o),
             ValueError, r"b: shape \(3,\) is not broadcastable with a's shape \(4, 5\)"),
        case("not-broadcastable-functional", None, lambda d, o: ort.vector_add(_f(d, 4, 5), _f(d, 3)),
             ValueError, r"b: shape \(3,\) is not broadcastable"),
        case("mixed-dtypes", lambda d: _f(d, 4),
             lambda d, o: ort.vector_add(_f(d, 4), _f(d, 4, dtype=torch.float16), out=o),
             TypeError, r"b: expected dtype float32 \(the dtype of a\), got float16"),
        case("integer-input", None,
             lambda d, o: ort.vector_add(_f(d, 4, dtype=torch.int32), _f(d, 4, dtype=torch.int32)),
             TypeError, r"a: expected dtype float32, float16 or bfloat16, got int32"),
        case("out-wrong-shape", lambda d: _f(d, 4, 4), lambda d, o: ort.vector_add(_f(d, 4, 5), _f(d, 5), out=o),
             ValueError, r"out: expected shape \(4, 5\) \(the broadcast of a and b; out is never resized\)"),
        case("out-wrong-dtype", lambda d: _f(d, 4, dtype=torch.bfloat16),
             lambda d, o: ort.vector_add(_f(d, 4), _f(d, 4), out=o), TypeError, r"out: expected dtype float32"),
        case("expanded-out", lambda d: _f(d, 1, 5).expand(4, 5),
             lambda d, o: ort.vector_add(_f(d, 4, 5), _f(d, 5), out=o), ValueError, r"out: .* must not overlap itself"),
        case("partial-overlap", lambda d: _f(d, 200),
             lambda d, buf: ort.vector_add(buf[:100], _f(d, 100), out=buf[50:150]), ValueError,
             r"out: partially overlaps a"),
        case("out-is-broadcast-input", lambda d: _f(d, 4, 5),
             lambda d, o: ort.vector_add(o[:1].expand(4, 5), _f(d, 4, 5), out=o), ValueError,
             r"out: is the same memory as a with a different layout"),
        case("non-tensor", None, lambda d, o: ort.vector_add(_f(d, 3), 1.0), TypeError,
             r"b: expected a torch.Tensor, got float"),
        case("device-mismatch", None, lambda d, o: ort.vector_add(_f(d, 3), _f("meta", 3)), ValueError,
             r"b: expected a tensor on"),
    ]


def benchmark_cases() -> list[BenchCase]:
    B = BenchCase
    return [
        B("flat-2^28", _ab((1 << 28,), (1 << 28,))),
        B("4096x4096", _ab((4096, 4096), (4096, 4096))),
        B("row-broadcast-16384^2", _ab((16384, 16384), (16384,))),
        B("1008x2304", _ab((1008, 2304), (1008, 2304))),
        B("transposed-4096^2", _ab((4096, 4096), (4096, 4096), transposed(2)), dtypes=(torch.float32,)),
        B("tiny-4096", _ab((4096,), (4096,)), dtypes=(torch.float32,)),
    ]
