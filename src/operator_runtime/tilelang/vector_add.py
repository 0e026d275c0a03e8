"""vector_add in TileLang, eager and lazy. Rows of a (rows, n) view; b either matches a or is one row
broadcast over every row (the common bias-add pattern)."""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import FP32, T, jit
from operator_runtime.tilelang.packs import pack_width

BLOCK, THREADS = 1024, 256


@jit
def vector_add_eager(a, b, dtype: str = "float32"):
    rows, n = T.const("rows, n")
    a: T.Tensor((rows, n), dtype)
    b: T.Tensor((rows, n), dtype)
    out = T.empty((rows, n), dtype)
    with T.Kernel(T.ceildiv(n, BLOCK), rows, threads=THREADS) as (bx, row):
        T.pdl_trigger()  # the next kernel may launch now (PDL, _env.jit says why)
        T.pdl_sync()
        for i in T.Parallel(BLOCK):
            col = bx * BLOCK + i
            if col < n:
                out[row, col] = T.cast(T.cast(a[row, col], FP32) + T.cast(b[row, col], FP32), dtype)
    return out


def vector_add_program(dtype: str, broadcast_row: bool):
    rows, n = T.dynamic("rows"), T.dynamic("n")
    b_shape = (n,) if broadcast_row else (rows, n)

    @T.prim_func
    def vector_add_kernel(a: T.Tensor((rows, n), dtype), b: T.Tensor(b_shape, dtype),
                          out: T.Tensor((rows, n), dtype)):
        with T.Kernel(T.ceildiv(n, BLOCK), rows, threads=THREADS) as (bx, row):
            T.pdl_trigger()
            T.pdl_sync()
            for i in T.Parallel(BLOCK):
                col = bx * BLOCK + i
                if col < n:
                    bv = b[col] if broadcast_row else b[row, col]
                    out[row, col] = T.cast(T.cast(a[row, col], FP32) + T.cast(bv, FP32), dtype)

    return vector_add_kernel


PACKED_BLOCK = 512  # packs a block of THREADS adds: 2 a thread, 4 loads in flight
# Grids under this many elements take one pack a thread in blocks of SMALL_THREADS, the shape of our CUDA's
# `small` path: more, smaller blocks for a grid too small to fill the GPU. H200, run do (session 25, A/B in one
# process): fp32 1x4096 1.10 -> 0.65 us (our CUDA 0.76), 1x131072 1.43 -> 0.82, fp16 1x4096 0.92 -> 0.66; the
# PACKED_BLOCK shape had been 6-10 % slower than the element-wise kernel at 4096-65536 fp32 (runs dj-dk).
SMALL_BELOW, SMALL_THREADS = 1 << 18, 128


def vector_add_packed_program(dtype: str, broadcast_row: bool, threads: int = THREADS, block: int = PACKED_BLOCK):
    """Rows through 16-byte packs (packs.py): a, b and out viewed as (rows, n / VEC, VEC), `block` packs a
    block of `threads`. The element-wise kernel moved 2-byte scalars: flat 2^28 halves at 0.81x of our CUDA, a
    row broadcast over 16384x16384 at 0.69x (runs k, ad). Packs past the row's end are masked as whole packs,
    so the accesses stay 16 bytes wide."""
    vec = pack_width(dtype)
    rows, groups = T.dynamic("rows"), T.dynamic("groups")
    b_shape = (groups, vec) if broadcast_row else (rows, groups, vec)

    @T.prim_func
    def vector_add_packed_kernel(a: T.Tensor((rows, groups, vec), dtype), b: T.Tensor(b_shape, dtype),
                                 out: T.Tensor((rows, groups, vec), dtype)):
        with T.Kernel(T.ceildiv(groups, block), rows, threads=threads) as (bx, row):
            T.pdl_trigger()
            T.pdl_sync()
            for p, v in T.Parallel(block, vec):
                g = bx * block + p
                if g < groups:
                    bv = b[g, v] if broadcast_row else b[row, g, v]
                    out[row, g, v] = T.cast(T.cast(a[row, g, v], FP32) + T.cast(bv, FP32), dtype)

    return vector_add_packed_kernel


vector_add_lazy = jit(out_idx=[-1])(vector_add_program)
vector_add_into = jit(vector_add_program)
vector_add_packed_into = jit(vector_add_packed_program)
