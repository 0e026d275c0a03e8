"""softmax over the last dim of a (rows, n) view, in TileLang: eager and lazy share one row body.

The row is walked in chunks of BLOCK_N: a first pass keeps a running max and sum (online softmax), the
second re-reads the row (from L2 for moderate rows) and writes. Rows that fit in one chunk are read
once: the chunk stays in registers between the reduction and the write.
"""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import FP32, LOG2E, T, tilelang

NEG_INF = -float("inf")


def row_body(block_n: int, threads: int, one_pass: bool):
    """The per-row program as a TileLang macro, shared by the eager kernel and the lazy factory."""

    @T.macro
    def softmax_row(x, y, row, n, dtype):
        buf = T.alloc_fragment((block_n,), FP32)
        chunk_max = T.alloc_fragment((1,), FP32)
        chunk_sum = T.alloc_fragment((1,), FP32)
        # exp(v - m) is exp2((v - m) * log2e), subtracting first: scaling v by log2e first would round
        # v * log2e and cost 5e-4 relative at |v| ~ 9000 (the CUDA kernels' note says more).
        m = T.alloc_var(FP32, init=NEG_INF)  # running max
        s = T.alloc_var(FP32, init=0.0)      # running sum of exp(v - m)
        for k in T.serial(T.ceildiv(n, block_n)):
            for j in T.Parallel(block_n):
                col = k * block_n + j
                buf[j] = T.if_then_else(col < n, T.cast(x[row, col], FP32), NEG_INF)
            T.reduce_max(buf, chunk_max, dim=0)
            m_new = T.max(m, chunk_max[0])
            for j in T.Parallel(block_n):  # -inf entries (and the masked tail) contribute 0, never NaN
                buf[j] = T.if_then_else(buf[j] == NEG_INF, 0.0, T.exp2((buf[j] - m_new) * LOG2E))
            T.reduce_sum(buf, chunk_sum, dim=0)
            s = T.if_then_else(m == NEG_INF, 0.0, s * T.exp2((m - m_new) * LOG2E)) + chunk_sum[0]
            m = m_new
        if one_pass:
            for j in T.Parallel(block_n):
                if j < n:
                    y[row, j] = T.cast(buf[j] / s, dtype)
        else:
            for k in T.serial(T.ceildiv(n, block_n)):
                for j in T.Parallel(block_n):
                    col = k * block_n + j
                    if col < n:
                        y[row, col] = T.cast(T.exp2((T.cast(x[row, col], FP32) - m) * LOG2E) / s, dtype)

    return softmax_row


# Eager: shapes bind from x; the output is declared with T.empty and returned.
@tilelang.jit
def softmax_eager(x, dtype: str = "float32", block_n: int = 1024, threads: int = 128):
    rows, n = T.const("rows, n")
    x: T.Tensor((rows, n), dtype)
    y = T.empty((rows, n), dtype)
    body = row_body(block_n, threads, one_pass=False)
    with T.Kernel(rows, threads=threads) as row:
        body(x, y, row, n, dtype)
    return y


# Lazy: a factory over dynamic (rows, n), compiled once per (dtype, chunk, pass count).
def softmax_program(dtype: str, block_n: int, threads: int, one_pass: bool):
    rows, n = T.dynamic("rows"), T.dynamic("n")
    body = row_body(block_n, threads, one_pass)

    @T.prim_func
    def softmax_kernel(x: T.Tensor((rows, n), dtype), y: T.Tensor((rows, n), dtype)):
        with T.Kernel(rows, threads=threads) as row:
            body(x, y, row, n, dtype)

    return softmax_kernel


softmax_lazy = tilelang.jit(out_idx=[-1])(softmax_program)
softmax_into = tilelang.jit(softmax_program)


def config(n: int) -> dict:
    """(chunk, threads, one_pass) for a row length: one pass while the row fits in one chunk.

    The chunk is the next power of two that holds the row (at least 128), with 8 values a thread (32 to
    256 threads): a fixed 1024- or 8192-wide chunk left most lanes masked for rows of 128 or 1536
    (tilelang ran 4096x128 at 0.34-0.46x and 4080x1536 at 0.32-0.39x of our CUDA in session 2)."""
    if n <= 8192:
        block_n = max(128, 1 << max(n - 1, 0).bit_length())
        return {"block_n": block_n, "threads": min(256, max(32, block_n // 8)), "one_pass": True}
    return {"block_n": 4096, "threads": 256, "one_pass": False}
