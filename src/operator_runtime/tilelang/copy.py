"""copy in TileLang, eager and lazy, side by side. Both take a flat (contiguous) view."""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import T, jit
from operator_runtime.tilelang.packs import pack_width

BLOCK, THREADS = 2048, 256


# Eager: the puzzle-stage form. Shapes bind from the arguments (T.const), the output is declared with
# T.empty and returned; calling the function compiles (once per shape) and runs it.
@jit
def copy_eager(src, dtype: str = "float32"):
    n = T.const("n")
    src: T.Tensor((n,), dtype)
    out = T.empty((n,), dtype)
    with T.Kernel(T.ceildiv(n, BLOCK), threads=THREADS) as bx:
        T.pdl_trigger()  # the next kernel may launch now (PDL, _env.jit says why)
        T.pdl_sync()
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
            T.pdl_trigger()
            T.pdl_sync()
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < n:
                    out[bx * BLOCK + i] = src[bx * BLOCK + i]

    return copy_kernel


PACKED_BLOCK = 512  # packs a block of THREADS moves: 2 a thread


def copy_packed_program(dtype: str):
    """The flat copy over (groups, VEC) 16-byte packs (packs.py). With a dynamic n, copy_program cannot know
    that an element's offset is a multiple of anything, so it moves one element an access: 4 bytes for fp32.
    Packs were faster at every fp32 length timed from 1024 elements to 1 GiB but 2^18, a tie (0.5-3.5 %; H200,
    runs dj and dk)."""
    vec = pack_width(dtype)
    groups = T.dynamic("groups")

    @T.prim_func
    def copy_packed_kernel(src: T.Tensor((groups, vec), dtype), out: T.Tensor((groups, vec), dtype)):
        with T.Kernel(T.ceildiv(groups, PACKED_BLOCK), threads=THREADS) as bx:
            T.pdl_trigger()
            T.pdl_sync()
            for p, v in T.Parallel(PACKED_BLOCK, vec):
                if bx * PACKED_BLOCK + p < groups:
                    out[bx * PACKED_BLOCK + p, v] = src[bx * PACKED_BLOCK + p, v]

    return copy_packed_kernel


copy_lazy = jit(out_idx=[-1])(copy_program)
copy_into = jit(copy_program)
copy_packed_into = jit(copy_packed_program)
