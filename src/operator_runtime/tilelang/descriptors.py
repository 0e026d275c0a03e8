"""TileLang descriptors: the same create -> execute -> close lifecycle as the C++ ones.

create validates through the C++ Info (by creating the nvidia descriptor, so messages and rules are the
same), checks that TileLang can express the layout (else a ValueError naming it), and compiles the lazy
factory's kernel once. `run(out, *inputs, workspace=...)` launches it on the caller's tensors: no result
is copied. A descriptor with a `workspace_size` (a split reduce_sum) takes that many bytes of scratch from
the caller, as the C++ ones do: execute never allocates.
"""

from __future__ import annotations

import math

import torch

from operator_runtime import _C
from operator_runtime.tilelang import copy as tl_copy
from operator_runtime.tilelang import packs
from operator_runtime.tilelang import reduce_sum as tl_sum
from operator_runtime.tilelang import softmax as tl_softmax
from operator_runtime.tilelang import softmax_cluster as tl_cluster
from operator_runtime.tilelang import vector_add as tl_add


def _contiguous(d) -> bool:
    if 0 in d.shape:
        return True  # an empty tensor has no layout to speak of (torch calls it contiguous too)
    step = 1
    for size, stride in zip(reversed(d.shape), reversed(d.strides)):
        if size != 1 and stride != step:
            return False
        step *= size
    return True


def _require_contiguous(op: str, **descs) -> None:
    for name, d in descs.items():
        if not _contiguous(d):
            raise ValueError(f"{name}: the tilelang backend's {op} takes contiguous tensors; got shape "
                             f"{tuple(d.shape)} with strides {tuple(d.strides)} (use backend='nvidia' for any layout)")


INT32_MAX = 2**31 - 1


def check_int32_extent(**descs) -> None:
    """The kernels take their sizes as dynamic int32 parameters; larger tensors would wrap around."""
    for name, d in descs.items():
        if math.prod(d.shape) > INT32_MAX:
            raise ValueError(f"{name}: the tilelang backend indexes with int32, so tensors of more than 2^31 - 1 "
                             f"elements (got shape {tuple(d.shape)}) need backend='nvidia'")


def _squeeze_leading(shape: list[int]) -> list[int]:
    while shape and shape[0] == 1:
        shape = shape[1:]
    return shape


MAX_GRID_Y = 65535  # CUDA's cap on gridDim.y, where TileLang puts T.Kernel's second extent


def _in_row_chunks(kernel, rows: int, args: tuple, keep: tuple[int, ...] = ()) -> None:
    """kernel(*args) over slices of at most MAX_GRID_Y leading rows of every arg but those in `keep` (a
    broadcast operand): kernels whose grid is (blocks a row, rows) cannot launch more rows than that at
    once. Launches that fit (all but > 65535 rows) take the tensors as they are: on the hot path, slicing
    two tensors through a lambda cost 2.1 us a call (timeit, CPU machine)."""
    if rows <= MAX_GRID_Y:
        if rows:
            kernel(*args)
        return
    for start in range(0, rows, MAX_GRID_Y):
        stop = min(start + MAX_GRID_Y, rows)
        kernel(*(t if i in keep else t[start:stop] for i, t in enumerate(args)))


class _Descriptor:
    """Shared lifecycle; subclasses set `_kernel` and `_launch` in create."""

    workspace_size = 0
    native = None  # the C++ descriptor whose create() validates the same arguments
    inputs: tuple[str, ...] = ()  # argument names, for messages

    def __init__(self, out, *args):
        getattr(_C, self.native)(out, *args).close()
        check_int32_extent(out=out, **dict(zip(self.inputs, args)))
        self._kernel = None
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._kernel = None
        self._closed = True

    def run(self, out, *inputs, workspace: torch.Tensor | None = None) -> None:
        if self._closed:
            raise _C.OperatorRuntimeError("this descriptor was destroyed (close() was called)")
        if self.workspace_size and (workspace is None or workspace.numel() * workspace.element_size()
                                    < self.workspace_size):
            raise _C.OperatorRuntimeError(f"workspace: this descriptor needs {self.workspace_size} bytes of "
                                          "workspace on the tensors' device (workspace_size)")
        if out.numel():
            self._launch(out, *inputs, workspace=workspace)


class Copy(_Descriptor):
    native = "CopyNvidia"
    inputs = ("src",)

    def __init__(self, out, src):
        super().__init__(out, src)
        _require_contiguous("copy", src=src, out=out)
        self._kernel = tl_copy.copy_into(src.dtype)
        # A length of whole 16-byte packs takes the packed kernel when both tensors are aligned (run checks).
        # bool moves as bytes: TileLang has no CUDA type for 16 bools.
        self._bytes = src.dtype == "bool"
        pack_dtype = "uint8" if self._bytes else src.dtype
        self._vec = packs.pack_width(pack_dtype)
        self._packed = None
        if math.prod(src.shape) % self._vec == 0:
            self._packed = tl_copy.copy_packed_into(pack_dtype)

    def close(self) -> None:
        self._packed = None
        super().close()

    def _launch(self, out, src, workspace=None):
        if self._packed is not None and packs.aligned(src, out):
            if self._bytes:
                src, out = src.view(torch.uint8), out.view(torch.uint8)
            self._packed(src.view(-1, self._vec), out.view(-1, self._vec))
            return
        self._kernel(src.view(-1), out.view(-1))


class VectorAdd(_Descriptor):
    native = "VectorAddNvidia"
    inputs = ("a", "b")

    def __init__(self, out, a, b):
        super().__init__(out, a, b)
        shape = list(out.shape)
        self._n = shape[-1] if shape else 1
        self._rows = math.prod(shape) // self._n if self._n else 0

        def full(d):
            return list(d.shape) == shape

        def row(d):  # one row, broadcast over every row of out
            return len(shape) > 1 and _squeeze_leading(list(d.shape)) == [self._n]

        if full(a) and (full(b) or row(b)):
            self._swap, self._broadcast = False, not full(b)
        elif full(b) and row(a):
            self._swap, self._broadcast = True, True
        else:
            raise ValueError(f"a, b: the tilelang backend's vector_add takes equal shapes or one row broadcast over "
                             f"every row; got {tuple(a.shape)} and {tuple(b.shape)} (use backend='nvidia')")
        _require_contiguous("vector_add", a=a, b=b, out=out)
        self._kernel = tl_add.vector_add_into(a.dtype, self._broadcast)
        # Rows of whole packs take 16-byte accesses when all three tensors are aligned (run checks); grids under
        # tl_add.SMALL_BELOW elements in smaller blocks, one pack a thread.
        self._vec = packs.pack_width(a.dtype)
        self._packed = None
        if self._n % self._vec == 0:
            small = self._rows * self._n < tl_add.SMALL_BELOW
            shape = (tl_add.SMALL_THREADS, tl_add.SMALL_THREADS) if small else ()
            self._packed = tl_add.vector_add_packed_into(a.dtype, self._broadcast, *shape)

    def close(self) -> None:
        self._packed = None
        super().close()

    def _launch(self, out, a, b, workspace=None):
        if self._swap:
            a, b = b, a
        rows, n, vec = self._rows, self._n, self._vec
        packed = self._packed is not None and packs.aligned(a, b, out)
        if not self._broadcast:  # one long row: the grid's rows stay 1 whatever the shape
            if packed:
                self._packed(a.view(1, -1, vec), b.view(1, -1, vec), out.view(1, -1, vec))
            else:
                self._kernel(a.view(1, -1), b.view(1, -1), out.view(1, -1))
            return
        if packed:
            groups = n // vec
            a3, b2, out3 = a.view(rows, groups, vec), b.view(groups, vec), out.view(rows, groups, vec)
            _in_row_chunks(self._packed, rows, (a3, b2, out3), keep=(1,))
            return
        a2, b1, out2 = a.view(rows, n), b.view(n), out.view(rows, n)
        _in_row_chunks(self._kernel, rows, (a2, b1, out2), keep=(1,))


class ReduceSum(_Descriptor):
    """Rows up to tl_sum.SHORT_ROW_MAX: a warp each, 8 to a block, or, for rows of whole 16-byte packs when x is
    aligned, a pack a thread (tl_sum.short_rows_packed_threads); aligned 16-bit rows of 264-2048, a warp a row
    where the rows' count favours it (tl_sum.warp_row_plan). Longer rows and columns: one launch when the
    grid already fills the GPU; else a split sum (tl_sum.split_count): the reduced
    dim cut into `pieces` equal parts, fp32 partial sums into the workspace, then their sum into `out`.
    Both launches are the same TileLang program on a reshaped view, so the split adds no kernel code."""

    native = "ReduceSumNvidia"
    inputs = ("x",)

    def __init__(self, out, x, dim, keepdim):
        super().__init__(out, x, dim, keepdim)
        _require_contiguous("reduce_sum", x=x, out=out)
        shape = list(x.shape) or [1]
        d = dim % len(shape)
        self._outer, self._length = math.prod(shape[:d]), shape[d]
        self._inner = math.prod(shape[d + 1:])
        sm_count = torch.cuda.get_device_properties(x.device_id).multi_processor_count
        plan = tl_sum.plan(self._outer, self._length, self._inner, x.dtype, sm_count)
        self._pieces, self.workspace_size = plan.pieces, plan.workspace_size
        # Always spelled out: program(fp32) and program(fp32, fp32) are one kernel under two jit keys, and
        # TileLang warns ("Found kernel ... in memory cache") when the second asks for it.
        partial_dtype = "float32" if plan.pieces > 1 else x.dtype
        self._finish = self._packed = None
        self._vec = packs.pack_width(x.dtype)
        if self._inner == 1 and self._length <= tl_sum.SHORT_ROW_MAX:
            early = tl_sum.short_rows_trigger_early(self._outer, sm_count)
            self._kernel = tl_sum.reduce_short_rows_into(x.dtype, "", early)  # never split: pieces >= MIN_ROW_PIECE
            # Rows of whole 16-byte packs: a pack a thread when x is aligned (run() checks).
            if tpr := tl_sum.short_rows_packed_threads(self._length, x.dtype, self._outer, sm_count):
                early = tl_sum.short_rows_trigger_early(self._outer, sm_count, 256 // tpr)
                self._packed = tl_sum.reduce_short_rows_packed_into(x.dtype, tpr, early)
        elif self._inner == 1:
            self._kernel = tl_sum.reduce_rows_into(x.dtype, partial_dtype, plan.chunk)
            if plan.pieces > 1:
                self._finish = tl_sum.reduce_rows_into("float32", x.dtype, plan.finish_chunk)
            # 16-bit rows of whole packs take 16-byte loads when x is aligned (run() checks): a warp a row where a
            # lane holds 2-8 packs and the rows' count favours it (tl_sum.warp_row_plan; such rows are never split),
            # else one masked pass of a block of 128 where a warp would take several passes and the rows are few
            # (tl_sum.few_rows_one_pass_shape), else unmasked where a pass shape holds them
            # (tl_sum.packed_row_shape), else with a masked last pass
            # (tl_sum.masked_row_shape); fp32 rows already ran at 0.99-1.07x of our CUDA with 4-byte loads (run y).
            if warp := tl_sum.warp_row_plan(self._length, x.dtype, self._outer, sm_count):
                lane_packs, early = warp
                self._packed = tl_sum.reduce_short_rows_packed_into(x.dtype, 32, early, lane_packs)
            elif shape := tl_sum.few_rows_one_pass_shape(self._length // plan.pieces, x.dtype,
                                                         self._outer * plan.pieces, sm_count):
                self._packed = tl_sum.reduce_rows_packed_into(x.dtype, partial_dtype, *shape, True)
            elif shape := tl_sum.packed_row_shape(self._length // plan.pieces, x.dtype):
                self._packed = tl_sum.reduce_rows_packed_into(x.dtype, partial_dtype, *shape)
            elif shape := tl_sum.masked_row_shape(self._length // plan.pieces, x.dtype):
                self._packed = tl_sum.reduce_rows_packed_into(x.dtype, partial_dtype, *shape, True)
        else:
            self._kernel = tl_sum.reduce_columns_into(x.dtype, partial_dtype, tl_sum.ROW_TILE, plan.block_c)
            if plan.pieces > 1:
                self._finish = tl_sum.reduce_columns_into("float32", x.dtype, tl_sum.ROW_TILE, plan.block_c)
            # Columns of whole lane blocks and pieces of whole lane steps, every dtype: row lanes over 16-byte packs
            # (tl_sum.plan cut them for it); else for 16-bit columns the packed tiles: whole blocks of columns, whole
            # tiles of rows.
            if plan.lanes:
                self._packed = tl_sum.reduce_columns_lanes_into(x.dtype, partial_dtype)
            elif (x.dtype != "float32" and self._inner % plan.block_c == 0
                    and (self._length // plan.pieces) % tl_sum.ROW_TILE == 0):
                self._packed = tl_sum.reduce_columns_packed_into(x.dtype, partial_dtype, tl_sum.ROW_TILE, plan.block_c)

    def close(self) -> None:
        self._finish = self._packed = None
        super().close()

    def _first_kernel(self, x, outer: int, length: int):
        """The first launch over `outer` slices of `length` (pieces when split), as (kernel, view of x):
        the packed kernel when there is one and x is 16-byte aligned."""
        inner, vec = self._inner, self._vec
        if self._packed is not None and packs.aligned(x):
            if inner == 1:
                return self._packed, x.view(outer, length // vec, vec)
            return self._packed, x.view(outer, length, inner // vec, vec)
        return self._kernel, (x.view(outer, length) if inner == 1 else x.view(outer, length, inner))

    def _launch(self, out, x, workspace=None):
        outer, length, inner, pieces = self._outer, self._length, self._inner, self._pieces
        if length == 0:
            out.zero_()  # the sum over an empty dim; no kernel needed
            return
        kernel, view = self._first_kernel(x, outer * pieces, length // pieces)
        if pieces == 1:
            if inner == 1:
                kernel(view, out.view(outer))
            else:  # the column kernels' grid is (column blocks, outer): outer on gridDim.y
                dst = out.view(outer, inner)
                _in_row_chunks(kernel, outer, (view, dst))
            return
        partial = workspace.view(torch.uint8)[:self.workspace_size].view(torch.float32)
        if inner == 1:
            kernel(view, partial)
            self._finish(partial.view(outer, pieces), out.view(outer))
        else:
            parts, sums = partial.view(outer * pieces, inner), partial.view(outer, pieces, inner)
            dst = out.view(outer, inner)
            _in_row_chunks(kernel, outer * pieces, (view, parts))
            _in_row_chunks(self._finish, outer, (sums, dst))


class Softmax(_Descriptor):
    """Rows up to tl_sum.SHORT_ROW_MAX: a warp each, 8 to a block, or past half a wave, for rows of whole 16-byte
    packs, a pack a thread (tl_softmax.short_rows_packed_threads). Rows up to tl_softmax.ONE_PASS_MAX: one
    block per row, the row held in registers, except aligned 16-bit rows of 264-512 and 993-1024 in grids of at
    least 1 and 2.5 8-row blocks an SM, a warp a row (tl_softmax.warp_rows_packs). Longer rows: the
    split kernels, each row cut into parts (tl_sum.split_count, up to 8 blocks of 256 threads per SM),
    their (max, sum) in the workspace, then a pass that normalises and writes. The packed kernels
    (16-byte accesses) serve 16-bit rows of whole packs (one pass, tl_softmax.packed_threads: the last packs
    masked where no power-of-two thread count of at least 32 divides them) and parts of whole packs
    (split; the last step masked where the part is not whole steps), when both tensors are 16-byte
    aligned, which only run() can see; the element-wise ones serve every other case. On Hopper, aligned
    long rows whose parts fit a cluster take one cluster kernel instead of the split pair: fp32 rows of
    whole 16384-element parts hold them in registers
    (tl_cluster.cluster_registers_parts), 16-bit rows of 65536-262144 hold theirs in shared memory
    (tl_cluster.cluster_smem_parts: 2 to 8 parts of 64 KB), the others re-read their part from L2
    (tl_cluster.cluster_parts)."""

    native = "SoftmaxNvidia"
    inputs = ("x",)
    BLOCKS_PER_SM = 8
    MIN_PART = 8192

    def __init__(self, out, x, dim):
        super().__init__(out, x, dim)
        shape = list(x.shape) or [1]
        d = dim % len(shape)
        if math.prod(shape[d + 1:]) != 1:
            raise ValueError(f"dim: the tilelang backend's softmax runs over the last (non-trivial) dim; got dim={dim} "
                             f"for shape {tuple(x.shape)} (use backend='nvidia' for other dims)")
        _require_contiguous("softmax", x=x, out=out)
        self._n = shape[d]
        self._rows = math.prod(shape) // self._n if self._n else 0
        self._pieces = 0  # 0: the one-block-per-row kernel
        self._apply = self._packed = self._cluster = None
        self._vec = packs.pack_width(x.dtype)
        if self._n <= tl_sum.SHORT_ROW_MAX:
            sm_count = torch.cuda.get_device_properties(x.device_id).multi_processor_count
            early = tl_sum.short_rows_trigger_early(self._rows, sm_count)
            self._kernel = tl_softmax.softmax_short_rows_into(x.dtype, early)
            # Past half a wave, rows of whole 16-byte packs: a pack a thread when both tensors are aligned.
            if tpr := tl_softmax.short_rows_packed_threads(self._n, x.dtype, self._rows, sm_count):
                early = tl_sum.short_rows_trigger_early(self._rows, sm_count, 256 // tpr)
                self._packed = tl_softmax.softmax_short_rows_packed_into(x.dtype, tpr, early)
            return
        if self._n <= tl_softmax.ONE_PASS_MAX:
            cfg = tl_softmax.config(self._n)
            self._kernel = tl_softmax.softmax_into(x.dtype, **cfg)
            sm_count = torch.cuda.get_device_properties(x.device_id).multi_processor_count
            if lane_packs := tl_softmax.warp_rows_packs(self._n, x.dtype, self._rows, sm_count):  # a warp a row
                early = tl_sum.short_rows_trigger_early(self._rows, sm_count)
                self._packed = tl_softmax.softmax_short_rows_packed_into(x.dtype, 32, early, lane_packs)
            elif (threads := tl_softmax.packed_threads(self._n, x.dtype)) is not None:
                self._packed = tl_softmax.softmax_packed_into(x.dtype, self._n, threads)
            return
        target = self.BLOCKS_PER_SM * torch.cuda.get_device_properties(x.device_id).multi_processor_count
        self._pieces = tl_sum.split_count(self._rows, self._n, self.MIN_PART, target) if self._rows else 1
        self.workspace_size = 2 * 4 * self._rows * self._pieces
        self._kernel = tl_softmax.softmax_stats_into(x.dtype)
        self._apply = tl_softmax.softmax_apply_into(x.dtype, self._pieces)
        part = self._n // self._pieces
        if part % self._vec == 0:  # whole packs; the last step masked unless the part is whole steps
            masked = part % tl_softmax.packed_step(x.dtype)[1] != 0
            self._packed = (tl_softmax.softmax_stats_packed_into(x.dtype, masked),
                            tl_softmax.softmax_apply_packed_into(x.dtype, self._pieces, masked))
        if torch.cuda.get_device_capability(x.device_id)[0] < 9:  # clusters: Hopper on
            return
        if parts := tl_cluster.cluster_registers_parts(self._n, x.dtype):  # fp32: the part held in registers
            self._cluster = (parts, tl_cluster.softmax_cluster_registers_into(x.dtype, parts))
        elif parts := tl_cluster.cluster_smem_parts(self._n, x.dtype):  # 16-bit: the part held in shared memory
            self._cluster = (parts, tl_cluster.softmax_cluster_smem_into(x.dtype, parts))
        elif parts := tl_cluster.cluster_parts(self._n, x.dtype):
            threads = tl_cluster.cluster_threads(self._n, x.dtype, parts)
            self._cluster = (parts, tl_cluster.softmax_cluster_packed_into(x.dtype, parts, threads))

    def close(self) -> None:
        self._apply = self._packed = self._cluster = None
        super().close()

    def _launch(self, out, x, workspace=None):
        rows, n, pieces = self._rows, self._n, self._pieces
        aligned = (self._packed is not None or self._cluster is not None) and packs.aligned(x, out)
        vec = self._vec  # no pointer reads without a packed kernel
        if self._cluster and aligned:  # the split pair's workspace stays sized for misaligned calls
            parts, kernel = self._cluster
            kernel(x.view(rows * parts, n // parts // vec, vec), out.view(rows * parts, n // parts // vec, vec))
            return
        if not pieces:
            if self._packed and aligned:
                self._packed(x.view(rows, n // vec, vec), out.view(rows, n // vec, vec))
            else:
                self._kernel(x.view(rows, n), out.view(rows, n))
            return
        stats = workspace.view(torch.uint8)[:self.workspace_size].view(torch.float32).view(rows * pieces, 2)
        if self._packed and aligned:
            parts = x.view(rows * pieces, n // pieces // vec, vec)
            self._packed[0](parts, stats)
            self._packed[1](parts, stats, out.view(rows * pieces, n // pieces // vec, vec))
            return
        parts = x.view(rows * pieces, n // pieces)
        self._kernel(parts, stats)
        self._apply(parts, stats, out.view(rows * pieces, n // pieces))
