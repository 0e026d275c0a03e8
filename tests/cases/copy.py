"""copy cases: layouts on both sides, every dtype, the contract's error paths, and bench shapes."""

from __future__ import annotations

import torch

import operator_runtime as ort
from operator_runtime_testing.cases import BenchCase, CorrectnessCase, ErrorCase, Operand
from operator_runtime_testing.cases import error_case as case
from operator_runtime_testing.layouts import ALL_COPY_DTYPES, CONTIGUOUS, Layout, make, transposed

C = CorrectnessCase


def _src(shape, layout=CONTIGUOUS):
    return {"src": Operand(shape, layout)}


def correctness_cases() -> list[CorrectnessCase]:
    return [
        C("scalar", _src(())),
        C("empty", _src((0, 5))),
        C("one", _src((1,))),
        C("flat-odd", _src((1031,)), dtypes=ALL_COPY_DTYPES),
        C("flat-big", _src(((1 << 20) + 3,)), dtypes=(torch.float32, torch.bfloat16)),
        C("offset-src", _src((257,), Layout(offset=1)), dtypes=ALL_COPY_DTYPES),
        C("offset-both", _src((1000,), Layout(offset=3)), out_layout=Layout(offset=5)),
        C("transpose-src", _src((130, 257), transposed(2)), dtypes=ALL_COPY_DTYPES),
        C("transpose-out", _src((96, 64)), out_layout=transposed(2)),
        C("transpose-batched", _src((3, 70, 40), Layout(perm=(0, 2, 1)))),
        C("transpose-outer-batch", _src((33, 5, 48), Layout(perm=(2, 1, 0)))),
        C("transpose-narrow", _src((1000, 3), transposed(2))),
        # 16- and 32-bit transposes with even strides take words of two (copy_kernels::transpose_pairs, tiles of
        # 64 x 64 words): whole tiles plus ragged edges in both dims, a batch, and a one-element offset that must
        # not (a misaligned word).
        C("transpose-pairs", _src((300, 260), transposed(2))),
        C("transpose-pairs-batched", _src((3, 200, 136), Layout(perm=(0, 2, 1)))),
        C("transpose-pairs-odd-offset", _src((200, 136), Layout(perm=(1, 0), offset=1)),
          out_layout=Layout(offset=1)),
        C("permute-3d", _src((7, 11, 13), Layout(perm=(1, 2, 0))), out_layout=Layout(perm=(2, 0, 1))),
        C("stepped", _src((17, 19), Layout(steps=(2, 3)))),
        C("stepped-out", _src((17, 19)), out_layout=Layout(steps=(3, 2))),
        C("expanded-src", _src((31, 9, 5), Layout(expand=(0, 2)))),
        C("rank8", _src((2, 3, 1, 2, 3, 2, 1, 4), Layout(perm=(7, 6, 5, 4, 3, 2, 1, 0)))),
        C("everything", _src((6, 10, 14), Layout(perm=(2, 0, 1), steps=(2, 1, 3), offset=7)),
          out_layout=Layout(perm=(1, 2, 0), offset=2)),
        C("in-place", _src((64, 33)), in_place="src", dtypes=ALL_COPY_DTYPES),
        C("in-place-transposed", _src((40, 24), transposed(2)), in_place="src"),
    ]


def _f32(device, *shape):
    return make(shape, torch.float32, device)


def api_error_cases() -> list[ErrorCase]:
    def closed(op):
        op.close()
        return op

    return [
        case("shape-mismatch", lambda d: _f32(d, 4, 6),
             lambda d, o: ort.copy(_f32(d, 4, 5), out=o), ValueError, r"out: expected shape \(4, 5\)"),
        case("dtype-mismatch", lambda d: make((4, 5), torch.float16, d),
             lambda d, o: ort.copy(_f32(d, 4, 5), out=o), TypeError, r"out: expected dtype float32"),
        case("device-mismatch", lambda d: _f32("cpu" if d != "cpu" else "meta", 4, 5),
             lambda d, o: ort.copy(_f32(d, 4, 5), out=o), ValueError, r"out: expected a tensor on (cpu|cuda)"),
        case("expanded-out", lambda d: _f32(d, 1, 5).expand(4, 5),
             lambda d, o: ort.copy(_f32(d, 4, 5), out=o), ValueError,
             r"out: a written tensor must not overlap itself"),
        case("partial-overlap", lambda d: _f32(d, 100),
             lambda d, b: ort.copy(b[:60], out=b[40:]), ValueError, r"out: partially overlaps src"),
        case("same-memory-other-layout", lambda d: _f32(d, 8, 8),
             lambda d, b: ort.copy(b, out=b.t()), ValueError,
             r"out: is the same memory as src with a different layout"),
        case("non-tensor-src", None, lambda d, o: ort.copy([1.0, 2.0]),
             TypeError, r"src: expected a torch.Tensor, got list"),
        case("non-tensor-out", None, lambda d, o: ort.copy(_f32(d, 3), out=3.0),
             TypeError, r"out: expected a torch.Tensor, got float"),
        case("unsupported-dtype", None, lambda d, o: ort.copy(torch.ones(3, dtype=torch.complex64, device=d)),
             TypeError, r"src: dtype torch.complex64 is not supported"),
        case("unknown-backend", lambda d: _f32(d, 3),
             lambda d, o: ort.copy(_f32(d, 3), out=o, backend="rocm"), ValueError, r"backend: expected one of"),
        case("metax-backend", lambda d: _f32(d, 3),
             lambda d, o: ort.copy(_f32(d, 3), out=o, backend="metax"), ort.BackendUnavailableError,
             r"metax.*not built"),
        case("rank-9", None, lambda d, o: ort.copy(_f32(d, *([1] * 9))), ValueError, r"rank > 8"),
        case("closed-prepared-op", lambda d: _f32(d, 3),
             lambda d, o: closed(ort.prepare_copy(_f32(d, 3), out=o))(), ort.OperatorRuntimeError, r"was closed"),
        case("prepared-other-shape", lambda d: _f32(d, 4),
             lambda d, o: ort.prepare_copy(_f32(d, 3))(_f32(d, 4), out=o), ValueError,
             r"src: this prepared op was created for shape \(3,\)"),
        case("prepared-other-strides", lambda d: _f32(d, 4, 4),
             lambda d, o: ort.prepare_copy(_f32(d, 4, 4))(_f32(d, 4, 4).t(), out=o), ValueError,
             r"src: this prepared op was created for shape \(4, 4\), strides \(4, 1\)"),
        case("prepared-other-dtype", lambda d: make((3,), torch.float16, d),
             lambda d, o: ort.prepare_copy(_f32(d, 3))(_f32(d, 3), out=o), ValueError,
             r"out: this prepared op was created for .* dtype torch.float32"),
        case("prepared-partial-overlap", lambda d: _f32(d, 100),
             lambda d, b: ort.prepare_copy(_f32(d, 60))(b[:60], out=b[40:]), ValueError,
             r"out: partially overlaps src"),
    ]


def benchmark_cases() -> list[BenchCase]:
    return [
        BenchCase("contiguous-1GiB", {"src": Operand((1 << 28,))}, dtypes=(torch.float32,)),
        BenchCase("contiguous-64MiB", {"src": Operand((1 << 24,))}, dtypes=(torch.float32, torch.bfloat16)),
        BenchCase("transpose-8192^2", {"src": Operand((8192, 8192), transposed(2))},
                  dtypes=(torch.bfloat16, torch.float32)),
        BenchCase("permute-3d", {"src": Operand((256, 512, 256), Layout(perm=(2, 0, 1)))},
                  dtypes=(torch.float32,)),
        BenchCase("tiny", {"src": Operand((1024,))}, dtypes=(torch.float32,)),
    ]
