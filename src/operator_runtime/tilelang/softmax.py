"""softmax over the last dim of a (rows, n) view, in TileLang: eager and lazy share one row body.

The row is walked in chunks of BLOCK_N: a first pass keeps a running max and sum (online softmax), the
second re-reads the row (from L2 for moderate rows) and writes. Rows that fit in one chunk are read
once: the chunk stays in registers between the reduction and the write.
"""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import FP32, LOG2E, T, jit
from operator_runtime.tilelang.packs import pack_width
from operator_runtime.tilelang.reduce_sum import (
    SHORT_ROW_MAX,
    SHORT_ROWS_PER_BLOCK,
    packed_row_threads,
    packed_rows_layout,
    packed_rows_load,
    short_rows_within_half_wave,
    warp_row_packs,
    warp_rows_layout,
)

NEG_INF = -float("inf")


def exp_against(v, m):
    """exp(v - m) for a value v of a set whose max is m, as exp2((v - m) * log2e), subtracting first: scaling v
    by log2e first would round v * log2e and cost 5e-4 relative at |v| ~ 9000 (the CUDA kernels' note says
    more). -inf values give 0, never NaN: while m is -inf every value is -inf (or NaN, which stays NaN), so the
    exps are taken against 0. The test is on m, once a thread, not on each v: `v == -inf ? 0 : exp2(...)` for
    every value lowered to a compare and a branch around each exp (session 12, the PTX of the cluster kernel)."""
    return T.exp2((v - T.if_then_else(m == NEG_INF, 0.0, m)) * LOG2E)


def row_body(block_n: int, threads: int, one_pass: bool):
    """The per-row program as a TileLang macro, shared by the eager kernel and the lazy factory."""

    @T.macro
    def softmax_row(x, y, row, n, dtype):
        buf = T.alloc_fragment((block_n,), FP32)
        chunk_max = T.alloc_fragment((1,), FP32)
        chunk_sum = T.alloc_fragment((1,), FP32)
        m = T.alloc_var(FP32, init=NEG_INF)  # running max
        s = T.alloc_var(FP32, init=0.0)      # running sum of exp(v - m)
        for k in T.serial(T.ceildiv(n, block_n)):
            for j in T.Parallel(block_n):
                col = k * block_n + j
                buf[j] = T.if_then_else(col < n, T.cast(x[row, col], FP32), NEG_INF)
            T.reduce_max(buf, chunk_max, dim=0)
            m_new = T.max(m, chunk_max[0])
            for j in T.Parallel(block_n):  # -inf entries (and the masked tail) contribute 0, never NaN
                buf[j] = exp_against(buf[j], m_new)
            T.reduce_sum(buf, chunk_sum, dim=0)
            # A sum is 0 only while the max is -inf; a NaN sum (a NaN among -inf values) stays NaN.
            s = T.if_then_else(s == 0.0, 0.0, s * T.exp2((m - m_new) * LOG2E)) + chunk_sum[0]
            m = m_new
        # One division a row, then a multiply an element: `v / s` in the loop lowers to an IEEE division
        # per element (div.rn.f32, a subroutine), which nvcc may not turn into a multiply by itself.
        inv = T.alloc_var(FP32, init=1.0 / s)
        if one_pass:
            for j in T.Parallel(block_n):
                if j < n:
                    y[row, j] = T.cast(buf[j] * inv, dtype)
        else:
            for k in T.serial(T.ceildiv(n, block_n)):
                for j in T.Parallel(block_n):
                    col = k * block_n + j
                    if col < n:
                        y[row, col] = T.cast(T.exp2((T.cast(x[row, col], FP32) - m) * LOG2E) * inv, dtype)

    return softmax_row


# Eager: shapes bind from x; the output is declared with T.empty and returned.
@jit
def softmax_eager(x, dtype: str = "float32", block_n: int = 1024, threads: int = 128):
    rows, n = T.const("rows, n")
    x: T.Tensor((rows, n), dtype)
    y = T.empty((rows, n), dtype)
    body = row_body(block_n, threads, one_pass=False)
    with T.Kernel(rows, threads=threads) as row:
        T.pdl_sync()  # before any memory access (PDL, _env.jit says why)
        body(x, y, row, n, dtype)
    return y


# Lazy: a factory over dynamic (rows, n), compiled once per (dtype, chunk, pass count).
def softmax_program(dtype: str, block_n: int, threads: int, one_pass: bool):
    rows, n = T.dynamic("rows"), T.dynamic("n")
    body = row_body(block_n, threads, one_pass)

    @T.prim_func
    def softmax_kernel(x: T.Tensor((rows, n), dtype), y: T.Tensor((rows, n), dtype)):
        with T.Kernel(rows, threads=threads) as row:
            T.pdl_sync()
            body(x, y, row, n, dtype)

    return softmax_kernel


# Rows of n 16-bit elements, the row held in registers, through (rows, n / VEC, VEC) views: 16-byte loads
# and stores (packs.py says why the view matters). Run y, with 2-byte accesses: 4096x16384 halves 149 us and
# 32768x4096 218 us, where fp32 (4-byte accesses) took 145 and 263 for twice the bytes. Thread t holds packs
# t, t + threads, ... of its row: packed_threads() picks a thread count that divides the row's packs where one
# of at least 32 does, so that no pack is masked; elsewhere the last packs are (`masked`: loads clamped to the
# row's last pack so each stays one 16-byte access, -inf past the end, no store there). The descriptor takes it
# for 16-bit rows of whole packs when x and out are 16-byte aligned.
def softmax_packed_program(dtype: str, n: int, threads: int):
    vec = pack_width(dtype)
    groups = n // vec
    packs = -(-groups // threads)
    values = packs * vec
    masked = packs * threads != groups
    # Thread t owns row t of the fragments: its packs t, t + threads, ... For rows that are not powers of
    # two (2304 = 32 threads x 9 packs) TileLang's layout inference finds no layout without this; for
    # powers of two it found one that pairs threads oddly (thread 2k + 1 held packs 256 on of a 4096 row)
    # and reduced twice: 4096x16384 halves 93.3 -> 84.4-84.9 us with the stated layout (session 8).
    own_rows = T.Fragment((threads, values), forward_thread_fn=lambda t, j: t, forward_index_fn=lambda t, j: j)
    rows = T.dynamic("rows")

    @T.prim_func
    def softmax_packed_kernel(x: T.Tensor((rows, groups, vec), dtype), y: T.Tensor((rows, groups, vec), dtype)):
        with T.Kernel(rows, threads=threads) as row:
            T.pdl_sync()
            raw = T.alloc_fragment((threads, values), dtype)
            buf = T.alloc_fragment((threads, values), FP32)
            per_thread = T.alloc_fragment((threads,), FP32)
            row_max = T.alloc_fragment((1,), FP32)
            row_sum = T.alloc_fragment((1,), FP32)
            T.annotate_layout({raw: own_rows, buf: own_rows})
            if masked:  # clamped, not masked, so that each load stays one 16-byte access; packs past the end: -inf
                for t, p, v in T.Parallel(threads, packs, vec):
                    raw[t, p * vec + v] = x[row, T.min(p * threads + t, groups - 1), v]
                for t, j in T.Parallel(threads, values):
                    buf[t, j] = T.if_then_else((j // vec) * threads + t < groups, T.cast(raw[t, j], FP32), NEG_INF)
            else:
                for t, p, v in T.Parallel(threads, packs, vec):  # pack p of every thread: coalesced
                    raw[t, p * vec + v] = x[row, p * threads + t, v]
                for t, j in T.Parallel(threads, values):
                    buf[t, j] = T.cast(raw[t, j], FP32)
            T.reduce_max(buf, per_thread, dim=1)
            T.reduce_max(per_thread, row_max, dim=0)
            for t, j in T.Parallel(threads, values):  # -inf entries give exp2(-inf) = 0
                buf[t, j] = T.exp2((buf[t, j] - row_max[0]) * LOG2E)
            T.reduce_sum(buf, per_thread, dim=1)
            T.reduce_sum(per_thread, row_sum, dim=0)
            inv = T.alloc_var(FP32, init=1.0 / row_sum[0])  # one division a row (row_body says why)
            for t, j in T.Parallel(threads, values):
                raw[t, j] = T.cast(buf[t, j] * inv, dtype)
            if masked:
                for t, p, v in T.Parallel(threads, packs, vec):
                    if p * threads + t < groups:
                        y[row, p * threads + t, v] = raw[t, p * vec + v]
            else:
                for t, p, v in T.Parallel(threads, packs, vec):
                    y[row, p * threads + t, v] = raw[t, p * vec + v]

    return softmax_packed_kernel


# Rows of at most SHORT_ROW_MAX elements, a warp each, 8 to a block (reduce_sum.warp_rows_layout): one
# block of 32 threads per row ran 4096x128 at 3.9-4.2 us against our CUDA's 2.0-3.1 (run ad). `trigger` as
# reduce_sum's short rows (reduce_sum.short_rows_trigger_early says when).
def softmax_short_rows_program(dtype: str, trigger: bool = False):
    rows, n = T.dynamic("rows"), T.dynamic("n")
    per_block, width = SHORT_ROWS_PER_BLOCK, SHORT_ROW_MAX

    @T.prim_func
    def softmax_short_rows_kernel(x: T.Tensor((rows, n), dtype), y: T.Tensor((rows, n), dtype)):
        with T.Kernel(T.ceildiv(rows, per_block), threads=32 * per_block) as b:
            if trigger:
                T.pdl_trigger()
            T.pdl_sync()
            tile = T.alloc_fragment((per_block, width), FP32)
            row_max = T.alloc_fragment((per_block,), FP32)
            row_sum = T.alloc_fragment((per_block,), FP32)
            T.annotate_layout({tile: warp_rows_layout(per_block, width)})
            for r, j in T.Parallel(per_block, width):
                row = b * per_block + r
                tile[r, j] = T.if_then_else(row < rows and j < n, T.cast(x[row, j], FP32), NEG_INF)
            T.reduce_max(tile, row_max, dim=1)
            for r, j in T.Parallel(per_block, width):  # -inf entries (and the masked tail) give 0, never NaN
                tile[r, j] = exp_against(tile[r, j], row_max[r])
            T.reduce_sum(tile, row_sum, dim=1)
            for r in T.Parallel(per_block):  # one division a row (row_body says why)
                row_sum[r] = 1.0 / row_sum[r]
            for r, j in T.Parallel(per_block, width):
                if b * per_block + r < rows and j < n:
                    y[b * per_block + r, j] = T.cast(tile[r, j] * row_sum[r], dtype)

    return softmax_short_rows_kernel


# A lane's packs where the softmax runs a warp a row -> the fewest 8-row blocks an SM it needs there (16-bit rows of
# 264-512 and of 993-1024 halves; 3 packs a lane never won)
SOFTMAX_WARP_BLOCKS_PER_SM = {2: 1.0, 4: 2.5}


def warp_rows_packs(n: int, dtype: str, rows: int, sm_count: int) -> int | None:
    """A lane's packs where softmax_short_rows_packed_program (tpr 32) takes 16-bit rows of n, or None: the row sums'
    rows (reduce_sum.warp_row_packs) of 2 packs a lane in grids of at least one 8-row block an SM, and of 4 packs a
    lane in grids of at least 2.5 (SOFTMAX_WARP_BLOCKS_PER_SM). H200, a warp a row against the one-pass kernel:
    2 packs a lane won at every row count timed (runs hg and hh, runs/tilelang-warp-rows-probe-h200-2026-12-02-hg.csv
    and runs/tilelang-softmax-warp-rows-bound-h200-2026-12-02-hh.csv: 264 halves at 1056-4096 rows 1.22-1.47x, 512
    at 1056-131072 rows 1.03-1.27x), and 256x1024 (32 blocks against 256) ran 1.44 -> 2.20-2.44 us. 4 packs a lane
    (1024 halves, fp16; run hi, runs/tilelang-softmax-rows-1024-h200-2026-12-02-hi.csv) lost at 1024 rows (0.95x, one
    block an SM), tied at 2048 (1.94 an SM: 3.69 against 3.71 us) and won from 3072 (2.9 an SM: 1.03x; 4096 rows 6.24
    -> 5.97 us, 8192 1.02x); runs hg / hh had 1.02-1.07x at 4096 rows of 1000-1024. 3 packs lost at 2048-8192 rows
    (768 halves 0.93-0.97x)."""
    packs = warp_row_packs(n, dtype)
    least = SOFTMAX_WARP_BLOCKS_PER_SM.get(packs)
    if least is None or -(-rows // SHORT_ROWS_PER_BLOCK) < least * sm_count:
        return None
    return packs


def short_rows_packed_threads(n: int, dtype: str, rows: int, sm_count: int) -> int | None:
    """Threads a row for softmax_short_rows_packed_program, or None: rows of whole 16-byte packs
    (reduce_sum.packed_row_threads) past half a wave of the warp-a-row kernel's blocks, the CUDA backend's rule
    for its short_rows (softmax_cuda.cu: the warp a row won 2-6 % up to half a wave and lost 1.2-4.2x from 32768
    rows to 16-byte packs, runs ea and eb)."""
    tpr = packed_row_threads(n, dtype)
    return None if tpr is None or short_rows_within_half_wave(rows, sm_count) else tpr


def softmax_short_rows_packed_program(dtype: str, tpr: int, trigger: bool = False, packs: int = 1):
    """Short rows of whole 16-byte packs, `tpr` threads a row of `packs` packs each, 256 / tpr rows a block: the
    shape of the CUDA backend's registers kernel for such rows (and, at tpr 32 with 2 or 4 packs a lane, 16-bit
    rows of 264-512 and 993-1024: warp_rows_packs). Loads are clamped to the last row and pack, not masked,
    so that each stays one 16-byte access; packs past the row's end hold -inf (an exp of 0) and are not stored. x
    and y are (rows, groups, vec) over 16-byte aligned memory (the descriptor checks at run)."""
    vec = pack_width(dtype)
    per_block, width = 256 // tpr, tpr * packs * vec
    rows, groups = T.dynamic("rows"), T.dynamic("groups")
    load = packed_rows_load(per_block, tpr, vec, packs)

    @T.prim_func
    def softmax_short_rows_packed_kernel(x: T.Tensor((rows, groups, vec), dtype),
                                         y: T.Tensor((rows, groups, vec), dtype)):
        with T.Kernel(T.ceildiv(rows, per_block), threads=256) as b:
            if trigger:
                T.pdl_trigger()
            T.pdl_sync()
            raw = T.alloc_fragment((per_block, width), dtype)
            tile = T.alloc_fragment((per_block, width), FP32)
            row_max = T.alloc_fragment((per_block,), FP32)
            row_sum = T.alloc_fragment((per_block,), FP32)
            layout = packed_rows_layout(per_block, tpr, vec, packs)
            T.annotate_layout({raw: layout, tile: layout})
            load(x, raw, tile, b, rows, groups, NEG_INF)
            T.reduce_max(tile, row_max, dim=1)
            for r, j in T.Parallel(per_block, width):  # -inf entries give 0, never NaN
                tile[r, j] = exp_against(tile[r, j], row_max[r])
            T.reduce_sum(tile, row_sum, dim=1)
            for r in T.Parallel(per_block):  # one division a row (row_body says why)
                row_sum[r] = 1.0 / row_sum[r]
            for r, j in T.Parallel(per_block, width):
                raw[r, j] = T.cast(tile[r, j] * row_sum[r], dtype)
            for r, j in T.Parallel(per_block, width):
                if b * per_block + r < rows and j // vec < groups:
                    y[b * per_block + r, j // vec, j % vec] = raw[r, j]

    return softmax_short_rows_packed_kernel


softmax_lazy = jit(out_idx=[-1])(softmax_program)
softmax_into = jit(softmax_program)
softmax_packed_into = jit(softmax_packed_program)
softmax_short_rows_into = jit(softmax_short_rows_program)
softmax_short_rows_packed_into = jit(softmax_short_rows_packed_program)

# Long rows, split: the row is cut into `pieces` equal parts (reshaped to (rows * pieces, piece)), one block
# each. `stats` writes each part's (max, sum of exp(v - max)) to a small fp32 workspace; `apply` combines
# its row's parts and writes its own part. HBM sees read, read, write (the one-block-per-row kernel above
# does the same), but a 262144-long row becomes several blocks and the reduction loop has no barrier:
# every thread keeps its own running (max, sum) over V values a step, and the block combines them once.
SPLIT_THREADS, SPLIT_VALUES = 256, 16  # 16 loads in flight a thread


@T.macro
def fold_step(m, s, step_max, step_sum):
    """Each thread's running (max, sum) takes in one step's: the old sum rescaled to the new max."""
    for t in T.Parallel(m.shape[0]):
        # s == 0 only while m is -inf; testing m == -inf instead dropped a NaN met among -inf values
        rescaled = T.if_then_else(s[t] == 0.0, 0.0, s[t] * T.exp2((m[t] - step_max[t]) * LOG2E))
        s[t] = rescaled + step_sum[t]
        m[t] = step_max[t]


@T.macro
def take_step(buf, step_max, step_sum, m, s, dim):
    """One step of a part's statistics, shared by the element-wise and packed kernels: each thread's max and
    sum of exp over its values of `buf` (along `dim`; the other axis is the thread), folded into its running
    (m, s). The element-wise kernel holds buf as (values, threads), the packed one as (threads, values)."""
    T.reduce_max(buf, step_max, dim=dim)
    for t in T.Parallel(step_max.shape[0]):
        step_max[t] = T.max(step_max[t], m[t])
    for a, b in T.Parallel(*buf.shape):  # a step of all -inf has max -inf: 0, not NaN
        t = b if dim == 0 else a
        buf[a, b] = exp_against(buf[a, b], step_max[t])
    T.reduce_sum(buf, step_sum, dim=dim)
    fold_step(m, s, step_max, step_sum)


@T.macro
def block_reduce_in_warps(value, red, out, k, warp_reduce, identity):  # red: (reductions, warps), shared
    """`value` (one element a thread) reduced over the block into out[k] of every thread: each warp by shuffles,
    its lane 0 into red[k, warp], then every warp reduces that row by shuffles. One block barrier, before red is
    read (TileLang's ThreadSync places it). T.reduce_max / T.reduce_sum over the block's threads lower to
    tl::AllReduce, a butterfly through shared memory with two barriers a level above 32 lanes: the 16-part fp32
    cluster kernel's PTX had 22 bar.sync for write_part_stats' two reductions, 4 with this (our CUDA's
    cluster_registers: 1). Session 23 (H200, run df, twice): 1024x65536 fp32 143.1 -> 137.6 us, halves -2 %;
    256x262144 fp32 174.8 -> 169.1, halves -0.5 %."""
    threads = value.shape[0]
    warps = threads // 32
    for t in T.Parallel(threads):
        w = warp_reduce(value[t])
        if t % 32 == 0:
            red[k, t // 32] = w
    lane = T.get_thread_binding() % 32
    out[k] = warp_reduce(T.if_then_else(lane < warps, red[k, T.min(lane, warps - 1)], identity))


@T.macro
def write_part_stats(m, s, stats, i):
    """The part's (max, sum) from its threads': every thread's sum rescaled to the part's max, then summed;
    thread 0 writes the pair (every thread holds it)."""
    # A row a reduction: no barrier between them. TileLang's planner may give the cluster kernels' `mine` some
    # of red's bytes; only row 0's are safe (the exchange's lowering test checks where it puts them).
    red = T.alloc_shared((2, m.shape[0] // 32), FP32)
    part = T.alloc_local((2,), FP32)
    block_reduce_in_warps(m, red, part, 0, T.warp_reduce_max, NEG_INF)
    for t in T.Parallel(m.shape[0]):
        s[t] = T.if_then_else(s[t] == 0.0, 0.0, s[t] * T.exp2((m[t] - part[0]) * LOG2E))
    block_reduce_in_warps(s, red, part, 1, T.warp_reduce_sum, 0.0)
    if T.get_thread_binding() == 0:
        stats[i, 0] = part[0]
        stats[i, 1] = part[1]


@T.macro
def packed_part_stats(x, i, raw, buf, step_max, step_sum, m, s, steps, packs, vec, masked=False):
    """The statistics pass of the packed kernels over part i of a (parts, groups, vec) view: each thread's
    running (max, sum) in m, s. Pack p of every thread is read together, so each load is coalesced. The block's
    threads are raw's first dimension. `masked`: after the `steps` whole steps, one more whose loads are clamped
    to the part's last pack (each stays one 16-byte access) and whose packs past the part hold -inf."""
    threads = raw.shape[0]
    groups = x.shape[1]
    T.fill(m, NEG_INF)
    T.clear(s)
    for k in T.serial(steps):
        for t, p, v in T.Parallel(threads, packs, vec):
            raw[t, p * vec + v] = x[i, (k * packs + p) * threads + t, v]
        for t, j in T.Parallel(threads, SPLIT_VALUES):
            buf[t, j] = T.cast(raw[t, j], FP32)
        take_step(buf, step_max, step_sum, m, s, 1)
    if masked:
        for t, p, v in T.Parallel(threads, packs, vec):
            raw[t, p * vec + v] = x[i, T.min((steps * packs + p) * threads + t, groups - 1), v]
        for t, j in T.Parallel(threads, SPLIT_VALUES):
            buf[t, j] = T.if_then_else((steps * packs + j // vec) * threads + t < groups, T.cast(raw[t, j], FP32),
                                       NEG_INF)
        take_step(buf, step_max, step_sum, m, s, 1)


@T.macro
def write_packed_part(x, y, i, raw, res, m, inv, steps, packs, vec, dtype, masked=False):
    """The normalising pass of the packed kernels over part i of (parts, groups, vec) views: y = exp(x - m) * inv,
    thread t of the block's threads (raw's first dimension) taking the packs at t, t + threads, ... of each step.
    `masked`: one more step after the whole ones, loads clamped as in packed_part_stats, each 16-byte store
    guarded whole."""
    threads = raw.shape[0]
    groups = x.shape[1]
    for k in T.serial(steps):
        for t, p, v in T.Parallel(threads, packs, vec):
            raw[t, p * vec + v] = x[i, (k * packs + p) * threads + t, v]
        for t, j in T.Parallel(threads, SPLIT_VALUES):
            res[t, j] = T.cast(T.exp2((T.cast(raw[t, j], FP32) - m) * LOG2E) * inv, dtype)
        for t, p, v in T.Parallel(threads, packs, vec):
            y[i, (k * packs + p) * threads + t, v] = res[t, p * vec + v]
    if masked:
        for t, p, v in T.Parallel(threads, packs, vec):
            raw[t, p * vec + v] = x[i, T.min((steps * packs + p) * threads + t, groups - 1), v]
        for t, j in T.Parallel(threads, SPLIT_VALUES):
            res[t, j] = T.cast(T.exp2((T.cast(raw[t, j], FP32) - m) * LOG2E) * inv, dtype)
        for t, p, v in T.Parallel(threads, packs, vec):
            if (steps * packs + p) * threads + t < groups:
                y[i, (steps * packs + p) * threads + t, v] = res[t, p * vec + v]


def softmax_stats_program(dtype: str):
    parts, length = T.dynamic("parts"), T.dynamic("length")
    step = SPLIT_THREADS * SPLIT_VALUES

    @T.prim_func
    def softmax_stats_kernel(x: T.Tensor((parts, length), dtype), stats: T.Tensor((parts, 2), FP32)):
        with T.Kernel(parts, threads=SPLIT_THREADS) as i:
            T.pdl_sync()
            # (values, threads): consecutive threads read consecutive elements, and the reductions over
            # dim 0 stay inside each thread (no barrier in the loop).
            buf = T.alloc_fragment((SPLIT_VALUES, SPLIT_THREADS), FP32)
            step_max = T.alloc_fragment((SPLIT_THREADS,), FP32)
            step_sum = T.alloc_fragment((SPLIT_THREADS,), FP32)
            m = T.alloc_fragment((SPLIT_THREADS,), FP32)  # each thread's running max
            s = T.alloc_fragment((SPLIT_THREADS,), FP32)  # and sum of exp(v - m)
            T.fill(m, NEG_INF)
            T.clear(s)
            for k in T.serial(T.ceildiv(length, step)):
                for v, t in T.Parallel(SPLIT_VALUES, SPLIT_THREADS):
                    col = k * step + v * SPLIT_THREADS + t
                    buf[v, t] = T.if_then_else(col < length, T.cast(x[i, col], FP32), NEG_INF)
                take_step(buf, step_max, step_sum, m, s, 0)
            write_part_stats(m, s, stats, i)

    return softmax_stats_kernel


@T.macro
def combine_part_stats(stats, first, parts, row, unroll=0):
    """The row's (max, sum) into row[0], row[1] from its parts' pairs, rows first .. first + parts - 1 of
    `stats`, in a fixed order, so every block of the row gets the same pair. A part of -inf only has (-inf, 0):
    it adds 0, never NaN. (`row` is a local buffer: a T.alloc_var does not pass through a T.macro in TileLang
    0.1.15.) Shared by the split pair's apply kernels (pairs in the workspace) and the cluster kernels (pairs in
    shared memory, softmax_cluster.py).
    unroll: 0 unrolls the loops fully; k > 0 asks nvcc for `#pragma unroll k`, for kernels that hold a part
    in registers across the combine. Fully unrolled at 16 parts, nvcc kept all 32 pairs live beside the 32
    held values: 75 registers, one block of 512 threads an SM, so a 16-block cluster needed 16 SMs of one GPC
    (session 12, ptxas -v on the lowered source; with `unroll` 1 to 4, 54; 8, 57). The split pair's apply kernels
    read their pairs from global memory and keep the loads in flight fully unrolled."""
    row[0] = NEG_INF
    for q in T.unroll(parts, unroll_factor=unroll) if unroll else T.serial(parts):
        row[0] = T.max(row[0], stats[first + q, 0])
    row[1] = 0.0
    for q in T.unroll(parts, unroll_factor=unroll) if unroll else T.serial(parts):
        row[1] += T.if_then_else(stats[first + q, 1] == 0.0, 0.0,
                                 stats[first + q, 1] * T.exp2((stats[first + q, 0] - row[0]) * LOG2E))


def softmax_apply_program(dtype: str, pieces: int):
    parts, length = T.dynamic("parts"), T.dynamic("length")
    step = SPLIT_THREADS * SPLIT_VALUES

    @T.prim_func
    def softmax_apply_kernel(x: T.Tensor((parts, length), dtype), stats: T.Tensor((parts, 2), FP32),
                             y: T.Tensor((parts, length), dtype)):
        with T.Kernel(parts, threads=SPLIT_THREADS) as i:
            T.pdl_sync()
            row = T.alloc_local((2,), FP32)
            combine_part_stats(stats, (i // pieces) * pieces, pieces, row)
            m = row[0]
            inv = 1.0 / row[1]  # one division a part (row_body says why)
            for k in T.serial(T.ceildiv(length, step)):
                for v, t in T.Parallel(SPLIT_VALUES, SPLIT_THREADS):
                    col = k * step + v * SPLIT_THREADS + t
                    if col < length:
                        y[i, col] = T.cast(T.exp2((T.cast(x[i, col], FP32) - m) * LOG2E) * inv, dtype)

    return softmax_apply_kernel


# The same two kernels over whole 16-byte packs (packs.py): with 2-byte accesses 256x262144 halves ran at
# 1.27 TB/s, no faster than fp32 in time (run y). Parts must be whole packs, and both tensors 16-byte aligned;
# the descriptor checks and keeps the kernels above for the rest. Parts of whole steps (SPLIT_THREADS * 16
# values) run unmasked; the others (`masked`) end in one step whose last packs are masked.
def packed_step(dtype: str) -> tuple[int, int]:
    """(packs a thread loads a step, elements a block covers a step): 16 values a thread for every dtype."""
    packs = SPLIT_VALUES // pack_width(dtype)
    return packs, SPLIT_THREADS * SPLIT_VALUES


def softmax_stats_packed_program(dtype: str, masked: bool = False):
    vec = pack_width(dtype)
    packs, _ = packed_step(dtype)
    parts, groups = T.dynamic("parts"), T.dynamic("groups")

    @T.prim_func
    def softmax_stats_packed_kernel(x: T.Tensor((parts, groups, vec), dtype), stats: T.Tensor((parts, 2), FP32)):
        with T.Kernel(parts, threads=SPLIT_THREADS) as i:
            T.pdl_sync()
            # (threads, values): thread t holds its own packs, so the reductions over dim 1 stay inside it.
            raw = T.alloc_fragment((SPLIT_THREADS, SPLIT_VALUES), dtype)
            buf = T.alloc_fragment((SPLIT_THREADS, SPLIT_VALUES), FP32)
            step_max = T.alloc_fragment((SPLIT_THREADS,), FP32)
            step_sum = T.alloc_fragment((SPLIT_THREADS,), FP32)
            m = T.alloc_fragment((SPLIT_THREADS,), FP32)
            s = T.alloc_fragment((SPLIT_THREADS,), FP32)
            packed_part_stats(x, i, raw, buf, step_max, step_sum, m, s, groups // (SPLIT_THREADS * packs), packs, vec,
                              masked)
            write_part_stats(m, s, stats, i)

    return softmax_stats_packed_kernel


def softmax_apply_packed_program(dtype: str, pieces: int, masked: bool = False):
    vec = pack_width(dtype)
    packs, _ = packed_step(dtype)
    parts, groups = T.dynamic("parts"), T.dynamic("groups")

    @T.prim_func
    def softmax_apply_packed_kernel(x: T.Tensor((parts, groups, vec), dtype), stats: T.Tensor((parts, 2), FP32),
                                    y: T.Tensor((parts, groups, vec), dtype)):
        with T.Kernel(parts, threads=SPLIT_THREADS) as i:
            T.pdl_sync()
            first = (i // pieces) * pieces
            raw = T.alloc_fragment((SPLIT_THREADS, SPLIT_VALUES), dtype)
            res = T.alloc_fragment((SPLIT_THREADS, SPLIT_VALUES), dtype)
            row = T.alloc_local((2,), FP32)
            combine_part_stats(stats, first, pieces, row)
            inv = 1.0 / row[1]
            write_packed_part(x, y, i, raw, res, row[0], inv, groups // (SPLIT_THREADS * packs), packs, vec, dtype,
                              masked)

    return softmax_apply_packed_kernel


softmax_stats_into = jit(softmax_stats_program)
softmax_apply_into = jit(softmax_apply_program)
softmax_stats_packed_into = jit(softmax_stats_packed_program)
softmax_apply_packed_into = jit(softmax_apply_packed_program)


PACKED_MAX_VALUES = 96  # values a thread holds in the packed kernel: 2304 = 32 x 72 compiles without spills
# config(n) gives rows past 8192 blocks of 512; the packed kernel holds 16-bit rows in 256 (up to 64 values a
# thread). H200, fp16, 4096 rows, every block size in one call (run he, runs/tilelang-softmax-onepass-threads-h200-
# 2026-12-02-he.csv): 256 threads against 512: 8200 41.13 -> 34.50 us, 10000 45.21 -> 41.59, 12296 62.44 -> 51.51,
# 16376 73.43 -> 67.38, 16384 69.76 -> 67.19 (3.85 -> 4.00 TB/s); 1024 lost 6.5-54 %, 128 tied 256 at 8200-10000.
PACKED_MAX_THREADS = 256


def packed_threads(n: int, dtype: str) -> int | None:
    """Threads for softmax_packed_program on rows of n 16-bit elements, or None where it does not apply.

    config(n)'s thread count, lowered to the largest power of two that divides the row's packs, so that
    every thread holds whole packs and none is masked. Masked packs lost where such a divisor exists: the
    last packs of a 2304-element row in a 4096-wide block ran 1008x2304 in 12.1 us against 9.0 element-wise
    (session 7), and 64 threads x 5 packs (32 of 320 past the end) in 6.83-6.84 us (session 8) where 32 x 9
    ran 6.60 (run ag). Where none of at least 32 threads does (10000 halves are 1250 packs, 2 x 625), config(n)'s
    threads hold the packs with the last ones masked (softmax_packed_program): the alternative is the
    element-wise kernel's 2-byte accesses, 0.44x of our CUDA at 4096x10000 halves (session 41, run ha) against
    the masked kernel's 0.91-0.92x (session 42, run hc).
    A power of two because TileLang's block reductions need one, and at most PACKED_MAX_THREADS. None for fp32
    (4-byte accesses already), rows of a length that is not a multiple of the pack, rows of fewer than 32 packs,
    and rows that would ask more than PACKED_MAX_VALUES values a thread."""
    vec = pack_width(dtype)
    if dtype == "float32" or n <= 0 or n > ONE_PASS_MAX or n % vec:
        return None
    groups = n // vec
    most = min(config(n)["threads"], PACKED_MAX_THREADS)
    threads = min(most, groups & -groups)
    if threads >= 32 and n // threads <= PACKED_MAX_VALUES:
        return threads
    return most if groups >= 32 and -(-groups // most) * vec <= PACKED_MAX_VALUES else None  # masked


ONE_PASS_MAX = 16384  # longer rows take the split kernels (descriptors.Softmax); this two-pass form stays for eager


def config(n: int) -> dict:
    """(chunk, threads, one_pass) for a row length: one pass while the row fits in one chunk.

    The chunk is the next power of two that holds the row (at least 128), with 8 values a thread (32 to
    256 threads): a fixed 1024- or 8192-wide chunk left most lanes masked for rows of 128 or 1536
    (tilelang ran 4096x128 at 0.34-0.46x and 4080x1536 at 0.32-0.39x of our CUDA in session 2). Rows up to
    16384 stay in registers too (4096x16384 read the row twice in 4096-wide chunks: 0.41-0.47x, session 4)."""
    if n <= 8192:
        block_n = max(128, 1 << max(n - 1, 0).bit_length())
        return {"block_n": block_n, "threads": min(256, max(32, block_n // 8)), "one_pass": True}
    if n <= ONE_PASS_MAX:  # 32 values a thread in 512 threads: 56 registers, no spill (ptxas, sm_90)
        return {"block_n": ONE_PASS_MAX, "threads": 512, "one_pass": True}
    return {"block_n": 4096, "threads": 256, "one_pass": False}
