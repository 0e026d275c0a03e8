"""The eager TileLang kernels against torch (GPU), and the tilelang backend's availability contract."""

from __future__ import annotations

import importlib.util
import math

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


needs_tilelang_backend = pytest.mark.skipif(
    unavailable_reason(ort.Backend.TILELANG) is not None,
    reason=f"tilelang backend unavailable: {unavailable_reason(ort.Backend.TILELANG)}")


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape,dim", [((3, 65536), -1), ((1 << 20,), 0), ((1024, 300), 0), ((2, 4096, 5), 1)],
                         ids=["rows", "one-row", "columns", "middle-dim"])
def test_split_reduce_sum_matches_torch(shape, dim, dtype):
    x = torch.randn(shape, device="cuda").to(dtype)
    op = ort.prepare_reduce_sum(x, dim=dim, backend="tilelang")
    assert op.workspace_size > 0  # these shapes are too few blocks for one launch: the split path runs
    assert_close(op(), x.double().sum(dim), atol_scale=shape[dim] ** 0.5)
    assert_close(ort.reduce_sum(x, dim=dim, backend="tilelang"), x.double().sum(dim), atol_scale=shape[dim] ** 0.5)


@needs_tilelang_backend
@pytest.mark.parametrize("op", ["reduce_sum", "softmax"])
@pytest.mark.parametrize("extra_rows,early", [(0, True), (1, False)], ids=["at-two-waves", "one-row-past"])
def test_short_rows_trigger_early_up_to_two_waves(op, extra_rows, early):
    # reduce_sum.short_rows_trigger_early: grids of at most SHORT_ROWS_EARLY_WAVES waves (8 blocks an SM) let the
    # next kernel launch at their start; one more row is one more block, past the bound.
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang import reduce_sum as tl_sum
    from operator_runtime.tilelang.descriptors import ReduceSum, Softmax

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows = tl_sum.SHORT_ROWS_EARLY_WAVES * 8 * sms * tl_sum.SHORT_ROWS_PER_BLOCK + extra_rows
    x = torch.randn(rows, 100, device="cuda", dtype=torch.bfloat16)
    if op == "reduce_sum":
        out = torch.empty(rows, device="cuda", dtype=x.dtype)
        desc, want, scale = ReduceSum(describe(out, "out"), describe(x, "x"), -1, False), x.double().sum(-1), 10
    else:
        out = torch.empty_like(x)
        desc, want, scale = Softmax(describe(out, "out"), describe(x, "x"), -1), torch.softmax(x.double(), -1), 1
    assert ("cudaTriggerProgrammaticLaunchCompletion" in desc._kernel.get_kernel_source()) == early
    desc.run(out, x)
    assert_close(out, want, atol_scale=scale)  # sums of 100: the error grows like sqrt(100)


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape", [(9000, 64), (777, 24), (50, 8), (3, 32)], ids=["full", "ragged", "one-pack", "few"])
def test_short_row_sums_packed_or_not(shape, offset, dtype):
    # Rows of whole 16-byte packs up to 128 elements have the packed short-row kernel (a pack a thread, the row's
    # packs rounded up to a power of two of threads: 24 elements are 6 or 3 packs, so some threads hold none; 16
    # threads, fp32 rows of 64, past half a wave of warp-a-row blocks, 9000 rows); it runs when x is 16-byte
    # aligned, and offset 1 (a contiguous view one element into its storage) takes the warp-a-row kernel. Row
    # counts that no block of rows divides leave the last block's extra rows unwritten.
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang.descriptors import ReduceSum

    x = torch.randn(shape[0] * shape[1] + offset, device="cuda").to(dtype)[offset:].view(shape)
    out = torch.full((shape[0] + 1,), float("nan"), device="cuda", dtype=dtype)[:shape[0]]  # one guard element after
    desc = ReduceSum(describe(out, "out"), describe(x, "x"), -1, False)
    assert desc._packed is not None
    desc.run(out, x)
    assert_close(out, x.double().sum(-1), atol_scale=shape[-1] ** 0.5)
    assert torch.isnan(torch.as_strided(out, (1,), (1,), shape[0])).all()  # the guard element untouched


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape", [(9000, 128), (5001, 24), (6000, 8)], ids=["full", "ragged", "one-pack"])
def test_short_softmax_rows_packed_or_not(shape, offset, dtype):
    # Past half a wave of warp-a-row blocks (4224 rows on an H200), rows of whole 16-byte packs have the packed
    # short-row softmax (a pack a thread; 24 elements are 6 or 3 packs, so some threads hold none); it runs when
    # both tensors are aligned (offset 1 takes the warp-a-row kernel). A row of -inf and a row with a NaN give NaN
    # everywhere, as torch's; the last block's rows past the end, and the packs past a row's end, are not written.
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang.descriptors import Softmax

    rows, n = shape
    x = torch.randn(rows * n + offset, device="cuda").to(dtype)[offset:].view(shape)
    x[0] = float("-inf")
    x[1, n // 2] = float("nan")
    out = torch.full((rows * n + 1 + offset,), 7.0, device="cuda", dtype=dtype)[offset:offset + rows * n].view(shape)
    desc = Softmax(describe(out, "out"), describe(x, "x"), -1)
    assert desc._packed is not None
    desc.run(out, x)
    assert_close(out, torch.softmax(x.double(), -1))
    guard = torch.as_strided(out, (1,), (1,), out.storage_offset() + rows * n)
    assert (guard == 7.0).all()


@needs_tilelang_backend
@pytest.mark.parametrize("extra_rows,early", [(0, True), (1, False)], ids=["at-two-waves", "one-row-past"])
def test_packed_short_rows_trigger_early_up_to_two_waves(extra_rows, early):
    # The packed short-row kernel's grid has 256 / tpr rows a block (16 for rows of 128 halves): the two-wave bound
    # counts its blocks, not the warp-a-row kernel's.
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang import reduce_sum as tl_sum
    from operator_runtime.tilelang.descriptors import ReduceSum

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows = tl_sum.SHORT_ROWS_EARLY_WAVES * 8 * sms * (256 // 16) + extra_rows
    x = torch.randn(rows, 128, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(rows, device="cuda", dtype=x.dtype)
    desc = ReduceSum(describe(out, "out"), describe(x, "x"), -1, False)
    assert ("cudaTriggerProgrammaticLaunchCompletion" in desc._packed.get_kernel_source()) == early
    desc.run(out, x)
    assert_close(out, x.double().sum(-1), atol_scale=128 ** 0.5)


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape", [(64, 4096), (5, 6144), (3, 65536)], ids=["one-launch", "three-passes", "split"])
def test_row_sums_of_halves_packed_or_not(shape, offset, dtype):
    # Rows of whole 2048-element passes take the packed kernel (16-byte loads) when x is 16-byte aligned;
    # offset 1 is a contiguous view one element into its storage, which must take the element-wise one.
    x = torch.randn(shape[0] * shape[1] + offset, device="cuda").to(dtype)[offset:].view(shape)
    op = ort.prepare_reduce_sum(x, dim=-1, backend="tilelang")
    assert_close(op(), x.double().sum(-1), atol_scale=shape[-1] ** 0.5)
    assert_close(ort.reduce_sum(x, dim=-1, backend="tilelang"), x.double().sum(-1), atol_scale=shape[-1] ** 0.5)


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.bool, torch.uint8, torch.int64, torch.float64, torch.float32, torch.bfloat16],
                         ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape", [(64, 1024), (1 << 20,), (3, 1000), (1,)],
                         ids=["whole-packs", "one-long-row", "not-whole-packs-of-bytes", "one-element"])
def test_copy_packed_or_not(shape, offset, dtype):
    # A length of whole 16-byte packs takes the packed kernel (bool as bytes) when src and out are aligned;
    # offset 1 puts src one element into its storage, which must take the element-wise kernel.
    n = math.prod(shape)
    base = torch.randn(n + offset, device="cuda")
    src = (base > 0 if dtype == torch.bool else (base.abs() * 100).to(dtype))[offset:].view(shape)
    op = ort.prepare_copy(src, backend="tilelang")
    assert torch.equal(op(), src)
    out = torch.empty(n + 1, device="cuda", dtype=dtype)[1:].view(shape)  # out misaligned, src aligned
    assert torch.equal(ort.copy(src, out=out, backend="tilelang"), src)


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape,broadcast", [((33, 4104), False), ((33, 4104), True), ((7, 24), True),
                                             ((1, 1 << 20), False), ((5, 20), False), ((65, 4104), True)],
                         ids=["full", "row-broadcast", "packs-masked-at-the-end", "one-long-row", "not-whole-packs",
                              "row-broadcast-past-the-small-bound"])
def test_vector_add_packed_or_not(shape, broadcast, offset, dtype):
    # Rows of whole packs take the packed kernel when a, b and out are 16-byte aligned (its small-grid shape
    # under SMALL_BELOW elements: all but the one long row and 65x4104); offset 1 makes a a view one element
    # into its storage, which must take the element-wise kernel.
    a = torch.randn(shape[0] * shape[1] + offset, device="cuda").to(dtype)[offset:].view(shape)
    b = torch.randn(shape[1] if broadcast else shape, device="cuda").to(dtype)
    op = ort.prepare_vector_add(a, b, backend="tilelang")
    assert_close(op(), a.double() + b.double())
    assert_close(ort.vector_add(b, a, backend="tilelang"), a.double() + b.double())  # the broadcast row first


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape,threads", [((4096,), 128), ((64, 4088), 128), ((1 << 18,), 256), ((64, 4096), 256)],
                         ids=["tiny", "just-under", "at-the-bound", "rows-at-the-bound"])
def test_vector_add_grid_size_picks_the_packed_blocks(shape, threads, dtype):
    # Under SMALL_BELOW elements one pack a thread in blocks of SMALL_THREADS; from it the wide blocks.
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang import vector_add as tl_add
    from operator_runtime.tilelang.descriptors import VectorAdd

    assert (math.prod(shape) < tl_add.SMALL_BELOW) == (threads == tl_add.SMALL_THREADS)
    a, b = torch.randn(shape, device="cuda").to(dtype), torch.randn(shape, device="cuda").to(dtype)
    desc = VectorAdd(describe(a, "out"), describe(a, "a"), describe(b, "b"))
    assert f"__launch_bounds__({threads}" in desc._packed.get_kernel_source()
    out = torch.empty_like(a)
    desc.run(out, a, b)
    assert_close(out, a.double() + b.double())


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("offset", [0, 1], ids=["aligned", "misaligned"])
@pytest.mark.parametrize("shape,dim", [((4096, 512), 0), ((2, 96, 256), 1), ((40, 512), 0)],
                         ids=["split", "middle-dim", "rows-not-whole-tiles"])
def test_column_sums_of_halves_packed_or_not(shape, dim, offset, dtype):
    # Whole 256-column blocks and whole 16-row tiles take the packed column kernel when x is 16-byte
    # aligned; 40 rows are not whole tiles, and offset 1 is not aligned: the element-wise kernel.
    n = math.prod(shape)
    x = torch.randn(n + offset, device="cuda").to(dtype)[offset:].view(shape)
    op = ort.prepare_reduce_sum(x, dim=dim, backend="tilelang")
    assert_close(op(), x.double().sum(dim), atol_scale=shape[dim] ** 0.5)
    assert_close(ort.reduce_sum(x, dim=dim, backend="tilelang"), x.double().sum(dim), atol_scale=shape[dim] ** 0.5)


@needs_tilelang_backend
def test_split_reduce_sum_descriptor_needs_its_workspace():
    from operator_runtime._internal.tensor_meta import describe
    from operator_runtime.tilelang.descriptors import ReduceSum

    x, out = torch.randn(1 << 20, device="cuda"), torch.full((), 7.0, device="cuda")
    desc = ReduceSum(describe(out, "out"), describe(x, "x"), 0, False)
    with pytest.raises(ort.OperatorRuntimeError, match=f"workspace: this descriptor needs {desc.workspace_size} bytes"):
        desc.run(out, x)
    assert out.item() == 7.0  # left untouched
    desc.run(out, x, workspace=torch.empty(desc.workspace_size, dtype=torch.uint8, device="cuda"))
    assert_close(out, x.double().sum(), atol_scale=(1 << 20) ** 0.5)


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape,split,offset", [((2, 65536), True, 0), ((2, 65536), True, 1), ((3, 16400), True, 0),
                                                ((1, 65537), True, 0), ((2, 16384), False, 0), ((2, 16384), False, 1),
                                                ((3, 256), False, 0), ((3, 256), False, 1), ((5, 2304), False, 0),
                                                ((5, 2304), False, 1), ((4, 1536), False, 0), ((3, 1000), False, 0)],
                         ids=["8-parts-packed", "8-parts-misaligned", "2-parts", "odd-length-1-part",
                              "one-pass-packed", "one-pass-misaligned", "256-packed", "256-misaligned",
                              "2304-32-threads-packed", "2304-misaligned", "1536-64-threads-packed", "1000-no-packs"])
def test_softmax_rows_packed_or_not(shape, split, offset, dtype):
    # offset 1: a contiguous view one element into its storage, not 16-byte aligned, so the packed kernels
    # (16-byte loads; 16-bit rows whose packs a power-of-two thread count divides, and split parts) must
    # step aside for the element-wise ones.
    x = (torch.randn(shape[0] * shape[1] + offset, device="cuda") * 8).to(dtype)[offset:].view(shape)
    x[0, : shape[1] // 2] = float("-inf")  # whole parts of -inf: their (max, sum) is (-inf, 0) and adds nothing
    op = ort.prepare_softmax(x, dim=-1, backend="tilelang")
    assert (op.workspace_size > 0) == split  # longer than ONE_PASS_MAX: split kernels, (max, sum) in the workspace
    assert_close(op(), torch.softmax(x.double(), -1))
    assert_close(ort.softmax(x, backend="tilelang"), torch.softmax(x.double(), -1))


@needs_tilelang_backend
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("shape,offset", [((3, 65536), 0), ((3, 65536), 1), ((2, 262144), 0), ((2, 32768), 0),
                                          ((2, 163840), 0)],
                         ids=["65536", "65536-misaligned", "262144", "32768", "163840"])
def test_long_softmax_rows_in_a_cluster(shape, offset, dtype):
    # On Hopper, aligned long rows whose parts fit one cluster run a cluster kernel (its blocks trade
    # (max, sum) through distributed shared memory; fp32 rows of up to 16 parts hold them in registers, 16-bit
    # rows of 2-8 whole parts of 64 KB in shared memory, 163840 halves in 5); misaligned ones, and fp32 rows of
    # 262144, the split pair.
    from operator_runtime.tilelang import softmax_cluster as tl_cluster

    x = (torch.randn(shape[0] * shape[1] + offset, device="cuda") * 8).to(dtype)[offset:].view(shape)
    x[0, : shape[1] // 2] = float("-inf")  # whole parts of -inf: (max, sum) = (-inf, 0) adds nothing
    x[1, 7] = float("inf")  # an inf in another row: that row's softmax is NaN where torch's is, no wider
    op = ort.prepare_softmax(x, dim=-1, backend="tilelang")
    name = str(dtype).removeprefix("torch.")
    parts = (tl_cluster.cluster_registers_parts(shape[1], name) or tl_cluster.cluster_smem_parts(shape[1], name)
             or tl_cluster.cluster_parts(shape[1], name))
    expect_cluster = parts is not None and torch.cuda.get_device_capability()[0] >= 9
    assert (op._desc._cluster is not None) == expect_cluster
    if expect_cluster:
        assert op._desc._cluster[0] == parts
    assert_close(op(), torch.softmax(x.double(), -1))


@needs_tilelang_backend
@pytest.mark.parametrize("case", ["vector_add-full", "vector_add-row-broadcast", "reduce_sum-columns"])
def test_more_rows_than_grid_y_holds(case):
    # TileLang puts a kernel's second grid extent (rows for vector_add, the outer dim for column sums) on
    # gridDim.y, which CUDA caps at 65535: 70000 of them must still launch (in chunks, or as one long row).
    if case.startswith("vector_add"):
        a = torch.randn(70_000, 16, device="cuda")
        b = torch.randn(16 if case.endswith("broadcast") else (70_000, 16), device="cuda")
        assert_close(ort.vector_add(a, b, backend="tilelang"), a.double() + b.double())
    else:
        x = torch.randn(70_000, 3, 8, device="cuda")
        assert_close(ort.reduce_sum(x, dim=1, backend="tilelang"), x.double().sum(1), atol_scale=3 ** 0.5)


@pytest.mark.skipif(not HAS_TILELANG, reason="tilelang not installed")
@pytest.mark.parametrize("rows", [0, 1, 65535, 65536, 3 * 65535 + 7])
def test_row_chunks_cover_every_row_once_within_grid_y(rows):
    from operator_runtime.tilelang.descriptors import MAX_GRID_Y, _in_row_chunks

    x, row = torch.arange(rows), torch.zeros(3)
    chunks = []

    def kernel(t, kept):
        assert kept is row  # a kept (broadcast) operand is never sliced
        chunks.append(t)

    _in_row_chunks(kernel, rows, (x, row), keep=(1,))
    assert [int(i) for c in chunks for i in c] == list(range(rows))
    assert all(0 < len(c) <= MAX_GRID_Y for c in chunks)
    if 0 < rows <= MAX_GRID_Y:
        assert chunks[0] is x  # launches that fit take the tensor itself: no slicing on the hot path
