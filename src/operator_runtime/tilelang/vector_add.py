"""vector_add in TileLang, eager and lazy. Rows of a (rows, n) view; b either matches a or is one row
broadcast over every row (the common bias-add pattern)."""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import FP32, T, tilelang

BLOCK, THREADS = 1024, 256


@tilelang.jit
def vector_add_eager(a, b, dtype: str = "float32"):
    rows, n = T.const("rows, n")
    a: T.Tensor((rows, n), dtype)
    b: T.Tensor((rows, n), dtype)
    out = T.empty((rows, n), dtype)
    with T.Kernel(T.ceildiv(n, BLOCK), rows, threads=THREADS) as (bx, row):
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
            for i in T.Parallel(BLOCK):
                col = bx * BLOCK + i
                if col < n:
                    bv = b[col] if broadcast_row else b[row, col]
                    out[row, col] = T.cast(T.cast(a[row, col], FP32) + T.cast(bv, FP32), dtype)

    return vector_add_kernel


vector_add_lazy = tilelang.jit(out_idx=[-1])(vector_add_program)
vector_add_into = tilelang.jit(vector_add_program)
