"""copy in TileLang, eager and lazy, side by side. Both take a flat (contiguous) view."""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import T, jit

BLOCK, THREADS = 2048, 256


# Eager: the puzzle-stage form. Shapes bind from the arguments (T.const), the output is declared with
# T.empty and returned; calling the function compiles (once per shape) and runs it.
@jit
def copy_eager(src, dtype: str = "float32"):
    n = T.const("n")
    src: T.Tensor((n,), dtype)
    out = T.empty((n,), dtype)
    with T.Kernel(T.ceildiv(n, BLOCK), threads=THREADS) as bx:
        for i in T.Parallel(BLOCK):
            if bx * BLOCK + i < n:
                out[bx * BLOCK + i] = src[bx * BLOCK + i]
    return out


# Lazy: a kernel factory. It returns a prim_func over a dynamic length, compiled once per dtype and
# cached; `out_idx` says which parameter is the output (the kernel allocates it when called as
# kernel(src)). The backend compiles the same program without out_idx and passes the caller's `out`.
def copy_program(dtype: str):
    n = T.dynamic("n")

    @T.prim_func
    def copy_kernel(src: T.Tensor((n,), dtype), out: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, BLOCK), threads=THREADS) as bx:
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < n:
                    out[bx * BLOCK + i] = src[bx * BLOCK + i]

    return copy_kernel


copy_lazy = jit(out_idx=[-1])(copy_program)
copy_into = jit(copy_program)
