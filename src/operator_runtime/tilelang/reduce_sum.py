"""reduce_sum in TileLang, eager and lazy. Rows: sum the last dim of a (rows, n) view. Columns: sum the
middle dim of an (outer, length, inner) view, tiles of rows a block (or, for columns of whole lane blocks, row lanes
of 16-byte packs: reduce_columns_lanes_program), walking down the rows.

Each program takes the output dtype apart from the input's, so a long reduction can run as two launches
of the same kernel (see `split_count`): fp32 partial sums of equal pieces into a workspace, then the sum
of the partials into `out`.
"""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

import math
from dataclasses import dataclass

from operator_runtime.tilelang._env import FP32, T, jit
from operator_runtime.tilelang.packs import pack_width

BLOCK_C, THREADS, ROW_TILE, ROW_BLOCK = 256, 128, 16, 64


def row_chunk(dtype: str, n: int) -> int:
    """Elements a pass of the row loop reads (128 threads), from the tile sweep on the H200
    (tests/bench/sweeps/tilelang_reduce_sum.py, docs/runs/tilelang-reduce-sum-h200-2026-11-30-u.csv).

    16-bit rows ran fastest with small chunks: 1024x65536 fp16 43.7 us with 256 against 54.4 with 1024 and
    52.4 with 2048 (the guess "2048, as many bytes in flight as fp32" was wrong); rows up to 2048 with 128.
    fp32 rows: 1024 (66.5 us at 1024x65536, 71.7 with 128), except rows of 128 (3.87 us with 128, 4.00 with
    1024) and of 2049-2560 (below)."""
    if n <= 128:
        return 128
    if dtype in ("float16", "bfloat16"):
        return 128 if n <= 2048 else 256
    # fp32 rows of 2049-2560: one masked pass of 4096 (32 elements a thread) instead of up to three of 1024 (runs jp
    # and jq, H200: 1008x2304 4.08 -> 3.64 us, 1008x2112 3.99 -> 3.45, 4080x2560 11.54 -> 10.98; 3072-4096 within
    # 2 % either way)
    return 4096 if 2048 < n <= 2560 else 1024


def row_sum(chunk: int):
    @T.macro
    def sum_row(x, row, n, total):
        acc = T.alloc_fragment((chunk,), FP32)
        T.clear(acc)
        for k in T.serial(T.ceildiv(n, chunk)):
            for j in T.Parallel(chunk):
                col = k * chunk + j
                acc[j] += T.if_then_else(col < n, T.cast(x[row, col], FP32), 0.0)
        T.reduce_sum(acc, total, dim=0)

    return sum_row


@jit
def reduce_sum_eager(x, dtype: str = "float32"):
    rows, n = T.const("rows, n")
    x: T.Tensor((rows, n), dtype)
    out = T.empty((rows,), dtype)
    sum_row = row_sum(row_chunk(dtype, 1 << 16))  # compiled per shape, but n is symbolic here: the long-row chunk
    with T.Kernel(rows, threads=THREADS) as row:
        T.pdl_sync()  # before any memory access (PDL, _env.jit says why)
        total = T.alloc_fragment((1,), FP32)
        sum_row(x, row, n, total)
        out[row] = T.cast(total[0], dtype)
    return out


def reduce_rows_program(dtype: str, out_dtype: str = "", chunk: int = 1024):
    out_dtype = out_dtype or dtype
    rows, n = T.dynamic("rows"), T.dynamic("n")
    sum_row = row_sum(chunk)

    @T.prim_func
    def reduce_rows_kernel(x: T.Tensor((rows, n), dtype), out: T.Tensor((rows,), out_dtype)):
        with T.Kernel(rows, threads=THREADS) as row:
            T.pdl_sync()
            total = T.alloc_fragment((1,), FP32)
            sum_row(x, row, n, total)
            out[row] = T.cast(total[0], out_dtype)

    return reduce_rows_kernel


SHORT_ROW_MAX = 128  # rows this short take reduce_short_rows_program
SHORT_ROWS_PER_BLOCK = 8  # a warp a row, 8 warps a block: the CUDA backend's shape for short rows
# Short-row grids of at most this many waves (8 blocks of 256 threads an SM) let the next kernel launch at their
# start (T.pdl_trigger); larger grids let it launch as their blocks exit. H200, every arm in one process (run ds,
# docs/runs/short-rows-trigger-h200-2026-12-01-ds.txt): the early trigger took reduce_sum 4096x128 bf16 1.30 ->
# 0.99 us and 16384x128 fp32 3.97 -> 3.37, softmax 4096x128 fp32 2.81 -> 2.23; on reduce_sum grids of four waves
# and more it cost up to 43 % (32768x128 bf16 5.00 -> 5.77, 262144x128 bf16 28.1 -> 40.4, 65536x32 7.5 -> 10.7).
# Softmax there gained 1-5 % on rows of 128 and lost 3-4 % on 65536x32; one bound for both keeps one rule.
SHORT_ROWS_EARLY_WAVES = 2


def short_rows_trigger_early(rows: int, sm_count: int, rows_per_block: int = SHORT_ROWS_PER_BLOCK) -> bool:
    """Whether a short-row kernel (blocks of 256 threads) over `rows` rows triggers the next launch at its start."""
    return math.ceil(rows / rows_per_block) <= SHORT_ROWS_EARLY_WAVES * 8 * sm_count


def warp_rows_layout(rows_per_block: int, width: int):
    """Fragment layout of a (rows_per_block, width) tile: row r on warp r, element j on lane j % 32 (so a
    warp's loads are consecutive), at index j // 32. TileLang's own choice for a (8, 128) tile spread each
    row over 128 threads and reduced it with four block-wide reductions through shared memory."""
    return T.Fragment((rows_per_block, width), forward_thread_fn=lambda r, j: r * 32 + j % 32,
                      forward_index_fn=lambda r, j: j // 32)


def reduce_short_rows_program(dtype: str, out_dtype: str = "", trigger: bool = False):
    """Rows of at most SHORT_ROW_MAX elements, a warp each, 8 to a block: one block per row (128 threads,
    one element each) ran 4096x128 at 3.7-3.9 us against our CUDA's 2.5 (run ac). `trigger`: let the next
    kernel launch at the start (short_rows_trigger_early says when)."""
    out_dtype = out_dtype or dtype
    rows, n = T.dynamic("rows"), T.dynamic("n")
    per_block, width = SHORT_ROWS_PER_BLOCK, SHORT_ROW_MAX

    @T.prim_func
    def reduce_short_rows_kernel(x: T.Tensor((rows, n), dtype), out: T.Tensor((rows,), out_dtype)):
        with T.Kernel(T.ceildiv(rows, per_block), threads=32 * per_block) as b:
            if trigger:
                T.pdl_trigger()
            T.pdl_sync()
            tile = T.alloc_fragment((per_block, width), FP32)
            totals = T.alloc_fragment((per_block,), FP32)
            T.annotate_layout({tile: warp_rows_layout(per_block, width)})
            for r, j in T.Parallel(per_block, width):
                row = b * per_block + r
                tile[r, j] = T.if_then_else(row < rows and j < n, T.cast(x[row, j], FP32), 0.0)
            T.reduce_sum(tile, totals, dim=1)
            for r in T.Parallel(per_block):
                if b * per_block + r < rows:
                    out[b * per_block + r] = T.cast(totals[r], out_dtype)

    return reduce_short_rows_kernel


def packed_row_threads(n: int, dtype: str) -> int | None:
    """Threads a short row of whole 16-byte packs takes in the packed short-row kernels (a pack a thread): the
    row's packs rounded up to a power of two; None where the row is not whole packs or is longer than
    SHORT_ROW_MAX."""
    vec = pack_width(dtype)
    if n <= 0 or n > SHORT_ROW_MAX or n % vec:
        return None
    return 1 << (n // vec - 1).bit_length()


def short_rows_within_half_wave(rows: int, sm_count: int) -> bool:
    """Whether the warp-a-row kernel's grid over `rows` rows is at most half a wave (8 blocks of 256 an SM)."""
    return math.ceil(rows / SHORT_ROWS_PER_BLOCK) <= 4 * sm_count


def short_rows_packed_threads(n: int, dtype: str, rows: int, sm_count: int) -> int | None:
    """Threads a row for reduce_short_rows_packed_program (packed_row_threads), or None where the row is not
    whole packs or where the warp-a-row kernel is as fast. The CUDA backend's rule (packed_rows_threads), measured
    on both backends in the bench's context (run eh, docs/runs/reduce-sum-packed-probe-h200-2026-12-01-eh.csv): up
    to 8 threads a row won from 4096 rows (bf16 4096x32 0.96 -> 0.78 us, 16384x32 2.93 -> 1.24) and tied at 1024;
    16 threads (rows of 128 halves) lost 5-13 % up to 4096 rows and won from 8192 (1.15-1.40x); 32 (fp32 rows of
    97-128) lost 0.3-10 % at every count."""
    tpr = packed_row_threads(n, dtype)
    if tpr is None:
        return None
    return tpr if tpr <= 8 or (tpr == 16 and not short_rows_within_half_wave(rows, sm_count)) else None


WARP_ROW_MAX_PACKS = 8  # a lane's packs in the warp-a-row kernels, at most (all loaded before the reduction)


def warp_row_packs(n: int, dtype: str) -> int | None:
    """A lane's packs where a warp a row, 8 rows a block, can take 16-bit rows of n elements in the packed short-row
    kernels (tpr 32: reduce_short_rows_packed_program; softmax.warp_rows_packs keeps 2 and 4 a lane), or None: rows
    of whole packs of 2 to WARP_ROW_MAX_PACKS packs a lane (264-2048 halves), the lanes past the row's last pack
    clamped. warp_row_plan says where the row sums take it. fp32 rows keep their 4-byte kernels (0.99-1.07x of our
    CUDA, run y)."""
    vec = pack_width(dtype)
    if dtype == "float32" or n <= 0 or n % vec:
        return None
    lane = -(-(n // vec) // 32)
    return lane if 2 <= lane <= WARP_ROW_MAX_PACKS else None


def warp_row_plan(n: int, dtype: str, rows: int, sm_count: int) -> tuple[int, bool] | None:
    """(a lane's packs, whether the next launch is triggered early) where the row sums run a warp a row over `rows`
    16-bit rows of n elements (warp_row_packs), or None where the one-block-a-row kernels are as fast.

    2-4 packs a lane (264-1024 halves): always, triggered as the other short-row kernels (short_rows_trigger_early)
    but at exit where the grid is more than a quarter of the SMs' and at most one block an SM: run ho's sweep
    (runs/tilelang-reduce-sum-warp-rows-trigger-h200-2026-12-02-ho.csv), 1024 rows of 512 / 768 / 1024 fp16 1.57 /
    1.86 / 2.18 us early against 1.07 / 1.39 / 1.34 at exit; 2048x1024 early 2.63 against 2.81; through the library
    (run hp, runs/tilelang-reduce-sum-2-4-packs-at-exit-h200-2026-12-02-hp.csv) 1.26 / 1.52 us at 1024x512 / 1024x1024
    fp16, 1.10 / 1.32 bf16. Our CUDA's same shape lost at exit there (lane_packs_at_exit). The one-block-a-row
    kernels gave such rows one 16-byte load a thread of up to 128, so each block waited out a DRAM
    latency alone. H200, every kernel in one call (run hf, runs/tilelang-reduce-sum-warp-rows-h200-2026-12-02-hf.csv),
    fp16 / bf16: 4096x1024 4.93 / 4.70 -> 3.87 / 3.44 us, 16384x512 11.43 -> 5.60, 131072x512 80.3 -> 31.4; through
    the library (run hg), 4096 rows of 264-1024 1.35-2.53x, 256x1024 1.23-1.25x.

    5-8 packs a lane (1032-2048 halves), where the one-block-a-row kernels already hold 2-5 packs a thread, the
    trigger decides (run hn, runs/tilelang-reduce-sum-warp-rows-trigger-h200-2026-12-02-hn.csv, against `block`):
    early where the grid is at most a quarter of the SMs (144x1280 / 144x1536 halves 1.06-1.24 -> 1.10-1.13 us; at
    8 packs block stays, 1.27 against 1.34), and between one and two waves of 8 blocks an SM (16384 rows 1.03-1.17x);
    at exit between (early lost 1.2-1.7x at 1024 rows and 1.15x at 4080x1536; at exit 0.97-1.47x of block: 1032
    and 1800 halves, whose block kernels are masked or narrow, gain most)."""
    packs = warp_row_packs(n, dtype)
    if packs is None:
        return None
    blocks = -(-rows // SHORT_ROWS_PER_BLOCK)
    if packs <= 4:
        return packs, short_rows_trigger_early(rows, sm_count) and not sm_count < 4 * blocks <= 4 * sm_count
    if 4 * blocks <= sm_count:
        return (packs, True) if packs <= 6 else None
    return packs, blocks > 8 * sm_count and short_rows_trigger_early(rows, sm_count)


def packed_rows_layout(rows_per_block: int, tpr: int, vec: int, packs: int = 1):
    """Fragment layout of a (rows_per_block, tpr * packs * vec) tile: row r on threads r * tpr ... r * tpr + tpr - 1,
    thread t of the row holding its packs t, t + tpr, ... (index (q // tpr) * vec + j % vec for pack q = j // vec),
    so each of a thread's packs is one 16-byte load and a row's lanes read consecutive packs together."""
    if packs == 1:
        return T.Fragment((rows_per_block, tpr * vec), forward_thread_fn=lambda r, j: r * tpr + j // vec,
                          forward_index_fn=lambda r, j: j % vec)
    return T.Fragment((rows_per_block, tpr * packs * vec),
                      forward_thread_fn=lambda r, j: r * tpr + (j // vec) % tpr,
                      forward_index_fn=lambda r, j: (j // vec) // tpr * vec + j % vec)


def packed_rows_load(per_block: int, tpr: int, vec: int, packs: int = 1):
    """The packed short-row kernels' load: block b's rows into `raw` (one 16-byte access a pack: the row and the
    pack are clamped to the last ones, not masked) and into `tile` as fp32, with `fill` for the packs past a row's
    end (0 for a sum, -inf for a max). The caller states both fragments' layout (packed_rows_layout)."""
    width = tpr * packs * vec

    @T.macro
    def load(x, raw, tile, b, rows, groups, fill):
        for r, j in T.Parallel(per_block, width):
            raw[r, j] = x[T.min(b * per_block + r, rows - 1), T.min(j // vec, groups - 1), j % vec]
        for r, j in T.Parallel(per_block, width):
            tile[r, j] = T.if_then_else(j // vec < groups, T.cast(raw[r, j], FP32), fill)

    return load


def reduce_short_rows_packed_program(dtype: str, tpr: int, trigger: bool = False, packs: int = 1):
    """Rows of whole 16-byte packs up to SHORT_ROW_MAX elements: `tpr` threads a row (short_rows_packed_threads),
    one pack each, 256 / tpr rows a block, the CUDA backend's packed_rows. The warp-a-row kernel above gives each
    lane one element per 32, so a bf16 row of 128 is four 2-byte loads a lane; our CUDA's sweep (run ee) ran the
    packed shape at 262144x128 bf16 in 18.2 us against 28.3. Loads are clamped to the last row and pack instead of
    masked, so that each stays one 16-byte access; the packs past the row's end add 0. x is (rows, groups, vec)
    over 16-byte aligned memory (the descriptor checks at run)."""
    vec = pack_width(dtype)
    per_block, width = 256 // tpr, tpr * packs * vec
    rows, groups = T.dynamic("rows"), T.dynamic("groups")
    load = packed_rows_load(per_block, tpr, vec, packs)

    @T.prim_func
    def reduce_short_rows_packed_kernel(x: T.Tensor((rows, groups, vec), dtype), out: T.Tensor((rows,), dtype)):
        with T.Kernel(T.ceildiv(rows, per_block), threads=256) as b:
            if trigger:
                T.pdl_trigger()
            T.pdl_sync()
            raw = T.alloc_fragment((per_block, width), dtype)
            tile = T.alloc_fragment((per_block, width), FP32)
            totals = T.alloc_fragment((per_block,), FP32)
            layout = packed_rows_layout(per_block, tpr, vec, packs)
            T.annotate_layout({raw: layout, tile: layout})
            load(x, raw, tile, b, rows, groups, 0.0)
            T.reduce_sum(tile, totals, dim=1)
            for r in T.Parallel(per_block):
                if b * per_block + r < rows:
                    out[b * per_block + r] = T.cast(totals[r], dtype)

    return reduce_short_rows_packed_kernel


PACKED_VALUES = 16  # values a thread sums per pass of the packed row kernel
PACKED_MAX_PACKS = 8  # packs a thread loads a pass, at most (16-byte loads in flight)


def packed_row_shape(n: int, dtype: str) -> tuple[int, int] | None:
    """(threads, packs a thread a pass) for reduce_rows_packed_program over 16-bit rows of n elements, or None
    where the row is not whole packs of a shape the kernel can hold without masking a pack.

    Rows of whole default passes (2048 halves) keep the default, 128 threads x 2 packs. Others run one block of
    the largest power of two of at most 128 threads that divides the row's packs (TileLang's block reduction
    needs a power of two), each thread its share in passes of at most PACKED_MAX_PACKS packs: 1024 halves as
    128 x 1, 1536 as 64 x 3, 2304 as 32 x 9 in three passes of 3. Before, those rows took the element-wise
    kernel's 2-byte loads (4080x1536 fp16 0.796x of our CUDA, run ga), as the softmax did before its packed
    kernel held rows by the same rule (packed_threads)."""
    vec = pack_width(dtype)
    if dtype == "float32" or n <= 0 or n % vec:
        return None
    groups = n // vec
    default = PACKED_VALUES // vec
    if groups % (THREADS * default) == 0:
        return THREADS, default
    threads = min(THREADS, groups & -groups)
    if threads < 32:
        return None
    per_thread = groups // threads
    packs = max(p for p in range(1, PACKED_MAX_PACKS + 1) if per_thread % p == 0)
    return threads, packs


ONE_PASS_MAX_PACKS = 4  # packs a thread a pass of that block, at most (measured: 128 x 3 and 128 x 4)
# Rows an SM at most where one masked pass of a block of 128 beats a warp's passes, by how many passes the warp takes
# (the four 16-bit lengths it covers: 2304 and 3840 halves take 3, 2816 takes 11, 3328 13). Three passes: one pass
# wins to 10 rows an SM and loses 0-16 % from 12 (runs kb, ke). Eleven (2816, its one pass masking 32 of 384 slots):
# one pass wins 3-27 % to 20 an SM (ke) and 3-10 % from 20 to 40 (run kk); past 40 bf16 leads 1 % at 48, loses 2-5 %
# from 60, fp16 leads to 80 and loses at 120 (run kl). Thirteen (3328, masking 96 of 512): wins 3-15 % to 10 and
# ties (0.95-1.04) from 12 to 20 (ke) and to 40 (kl), so it keeps 20.
ONE_PASS_ROWS_PER_SM = {3: 10, 11: 40, 13: 20}


def few_rows_one_pass_shape(n: int, dtype: str, rows: int, sm_count: int) -> tuple[int, int] | None:
    """(threads, packs a thread) for reduce_rows_packed_program(masked=True) where packed_row_shape would give a
    16-bit row of 257-512 packs to one warp in several passes (2304 halves: 32 x 3 in three passes; 2816: 32 x 1 in
    eleven) and there are few rows: one masked pass of a block of 128 instead. Run ka (H200) at 264 and 1008 rows:
    2304 halves 3.42 -> 3.06 µs (fp16; bf16 3.04 -> 2.83), 2816 4.47 -> 3.31. Runs ke and kk timed each such length
    at 1056-5280 rows and set the bound by the warp's passes (ONE_PASS_ROWS_PER_SM): a warp that loops eleven times
    over one pack loses to the block longer than one that loops three times over three or five. The CUDA backend's
    rows of these lengths take a block of 256 a row at 200-2016 rows (its kFewRowPacks)."""
    shape = packed_row_shape(n, dtype)
    if not shape or shape[0] != 32:
        return None
    groups = n // pack_width(dtype)
    passes = groups // (32 * shape[1])
    bound = ONE_PASS_ROWS_PER_SM.get(passes, 0)
    packs = -(-groups // THREADS)
    if rows > bound * sm_count or groups <= 32 * PACKED_MAX_PACKS or packs > ONE_PASS_MAX_PACKS:
        return None
    return THREADS, packs


def masked_row_shape(n: int, dtype: str) -> tuple[int, int] | None:
    """(threads, packs a thread a pass) for reduce_rows_packed_program(masked=True): 16-bit rows of whole packs that
    packed_row_shape cannot hold unmasked (10000 halves are 1250 packs, 2 x 625). The default pass shape (one pack a
    thread for rows shorter than a pass), whole passes first and then one pass whose packs past the row add 0. The
    alternative is the element-wise kernel's 2-byte loads, as the softmax's 16-bit rows of such lengths ran at 0.44x
    of our CUDA (session 41, run ha)."""
    vec = pack_width(dtype)
    if dtype == "float32" or n <= 0 or n % vec or packed_row_shape(n, dtype):
        return None
    default = PACKED_VALUES // vec
    return THREADS, default if n // vec >= THREADS * default else 1


def reduce_rows_packed_program(dtype: str, out_dtype: str = "", threads: int = THREADS, packs: int = 0,
                               masked: bool = False):
    """Row sums over whole 16-byte packs (see packs.py): rows of halves ran at 0.79-0.88x of our CUDA with
    2-byte loads (run y), while fp32 rows, whose 4-byte loads already filled the memory pipe, ran at
    0.99-1.07x. A pass is `threads` x `packs` packs (packed_row_shape; the default 128 x 2); rows must be whole
    passes, or with `masked` end in one partial pass (masked_row_shape), and x 16-byte aligned, which the
    descriptor checks."""
    out_dtype = out_dtype or dtype
    vec = pack_width(dtype)
    packs = packs or PACKED_VALUES // vec
    values = packs * vec
    rows, groups = T.dynamic("rows"), T.dynamic("groups")
    # Thread t owns row t of the (threads, values) fragments. TileLang infers a layout for the default shape
    # only (the kernel it has always run); for the others it finds none, as for the packed softmax.
    stated = (threads, packs) != (THREADS, PACKED_VALUES // vec)
    own_rows = T.Fragment((threads, values), forward_thread_fn=lambda t, j: t, forward_index_fn=lambda t, j: j)

    @T.prim_func
    def reduce_rows_packed_kernel(x: T.Tensor((rows, groups, vec), dtype), out: T.Tensor((rows,), out_dtype)):
        with T.Kernel(rows, threads=threads) as row:
            T.pdl_sync()
            raw = T.alloc_fragment((threads, values), dtype)
            acc = T.alloc_fragment((threads, values), FP32)
            if stated:
                T.annotate_layout({raw: own_rows, acc: own_rows})
            per_thread = T.alloc_fragment((threads,), FP32)
            total = T.alloc_fragment((1,), FP32)
            T.clear(acc)
            for k in T.serial(groups // (threads * packs)):
                for t, p, v in T.Parallel(threads, packs, vec):  # pack p of every thread: coalesced
                    raw[t, p * vec + v] = x[row, (k * packs + p) * threads + t, v]
                for t, j in T.Parallel(threads, values):
                    acc[t, j] += T.cast(raw[t, j], FP32)
            if masked:  # the partial pass: loads clamped to the row's last pack (one 16-byte access each), 0 past it
                last = groups // (threads * packs) * packs
                for t, p, v in T.Parallel(threads, packs, vec):
                    raw[t, p * vec + v] = x[row, T.min((last + p) * threads + t, groups - 1), v]
                for t, j in T.Parallel(threads, values):
                    acc[t, j] += T.if_then_else((last + j // vec) * threads + t < groups, T.cast(raw[t, j], FP32), 0.0)
            T.reduce_sum(acc, per_thread, dim=1)
            T.reduce_sum(per_thread, total, dim=0)
            out[row] = T.cast(total[0], out_dtype)

    return reduce_rows_packed_kernel


def column_sums_body(row_tile: int, block_c: int, load_tile, whole_tiles: bool):
    """One block's column sums (block_c columns of one outer index) as a TileLang macro, shared by the
    element-wise and the packed kernels; they differ only in how a tile is loaded (`load_tile(x, tile, o,
    row0, bx, length, inner)` fills `tile` with rows row0 .. row0 + row_tile) and in whether the columns
    and rows need bounds checks (`whole_tiles`: the packed kernel's descriptor guarantees whole blocks and
    tiles)."""

    def tiles(rows):  # tiles in a block of rows; the last one partial unless whole_tiles
        return rows // row_tile if whole_tiles else T.ceildiv(rows, row_tile)

    @T.macro
    def column_sums(x, out, o, bx, length, inner, out_dtype):
        tile = T.alloc_fragment((row_tile, block_c), FP32)
        tile_sum = T.alloc_fragment((block_c,), FP32)
        part = T.alloc_fragment((block_c,), FP32)
        acc = T.alloc_fragment((block_c,), FP32)
        T.clear(acc)
        # A tile of ROW_TILE rows is loaded at once, so each thread has ROW_TILE loads in flight: one
        # row at a time ran 32768x4096 at 265 us whatever the dtype (latency, not bandwidth; session 5).
        # Blocked accumulation: a running fp32 sum over thousands of rows loses digits (its rounding
        # error grows with the length); summing ROW_BLOCK rows at a time keeps it near sqrt(length).
        for r0 in T.serial(T.ceildiv(length, ROW_BLOCK)):
            T.clear(part)
            # A trip count nvcc cannot see: with the constant 4 it unrolled this loop for bf16 only,
            # hoisted 128 loads and took 151 registers (3 blocks an SM; 281 us against fp16's 121 at
            # 56 registers, session 5). It also skips the tiles past the end of the column.
            for t in T.serial(tiles(T.min(ROW_BLOCK, length - r0 * ROW_BLOCK))):
                load_tile(x, tile, o, r0 * ROW_BLOCK + t * row_tile, bx, length, inner)
                T.reduce_sum(tile, tile_sum, dim=0)
                for j in T.Parallel(block_c):
                    part[j] += tile_sum[j]
            for j in T.Parallel(block_c):
                acc[j] += part[j]
        if whole_tiles:
            for j in T.Parallel(block_c):
                out[o, bx * block_c + j] = T.cast(acc[j], out_dtype)
        else:
            for j in T.Parallel(block_c):
                if bx * block_c + j < inner:
                    out[o, bx * block_c + j] = T.cast(acc[j], out_dtype)

    return column_sums


def reduce_columns_program(dtype: str, out_dtype: str = "", row_tile: int = ROW_TILE, block_c: int = BLOCK_C):
    out_dtype = out_dtype or dtype
    outer, length, inner = T.dynamic("outer"), T.dynamic("length"), T.dynamic("inner")

    @T.macro
    def load_tile(x, tile, o, row0, bx, length, inner):
        for r, j in T.Parallel(row_tile, block_c):
            row, col = row0 + r, bx * block_c + j
            tile[r, j] = T.if_then_else(row < length and col < inner, T.cast(x[o, row, col], FP32), 0.0)

    body = column_sums_body(row_tile, block_c, load_tile, whole_tiles=False)

    @T.prim_func
    def reduce_columns_kernel(x: T.Tensor((outer, length, inner), dtype), out: T.Tensor((outer, inner), out_dtype)):
        with T.Kernel(T.ceildiv(inner, block_c), outer, threads=THREADS) as (bx, o):
            T.pdl_sync()
            body(x, out, o, bx, length, inner, out_dtype)

    return reduce_columns_kernel


def reduce_columns_packed_program(dtype: str, out_dtype: str = "", row_tile: int = ROW_TILE, block_c: int = BLOCK_C):
    """Column sums over 16-byte packs (packs.py): x viewed as (outer, length, inner / VEC, VEC), as the packed
    row kernel does for rows (16-bit columns moved 2-byte scalars: 0.55x of our CUDA, run z, where fp32 reached 0.95x).
    No masks, so `inner` must be whole blocks and the length whole tiles; the descriptor checks, and checks
    at run that x is 16-byte aligned."""
    out_dtype = out_dtype or dtype
    vec = pack_width(dtype)
    packs = block_c // vec
    outer, length, groups = T.dynamic("outer"), T.dynamic("length"), T.dynamic("groups")

    @T.macro
    def load_tile(x, tile, o, row0, bx, length, inner):
        for r, c, v in T.Parallel(row_tile, packs, vec):
            tile[r, c * vec + v] = T.cast(x[o, row0 + r, bx * packs + c, v], FP32)

    body = column_sums_body(row_tile, block_c, load_tile, whole_tiles=True)

    @T.prim_func
    def reduce_columns_packed_kernel(x: T.Tensor((outer, length, groups, vec), dtype),
                                     out: T.Tensor((outer, groups * vec), out_dtype)):
        with T.Kernel(groups // packs, outer, threads=THREADS) as (bx, o):
            T.pdl_sync()
            body(x, out, o, bx, length, groups * vec, out_dtype)

    return reduce_columns_packed_kernel


# The lanes kernel: 8 row lanes x 32 packs, 8 rows a lane loaded at once, at most 48 registers so that 5 blocks fit
# an SM (ptxas on the CPU: 86-88 for fp32 and 56 for halves without the bound, no spill with it).
COLUMN_LANES, LANE_PACKS, COLUMN_UNROLL, LANES_BLOCKS_PER_SM = 8, 32, 8, 5
SPLIT_ROWS = 1280  # reduce_sum_cuda.cu's kSplitRows


def _lanes_total(lane_sums, c, v):
    """The sum of pack c's value v over the lanes, in lane order, as one expression (built here, outside the DSL,
    whose variables cannot be reassigned)."""
    total = lane_sums[c, v]
    for lane in range(1, COLUMN_LANES):
        total = total + lane_sums[lane * LANE_PACKS + c, v]
    return total


def reduce_columns_lanes_program(dtype: str, out_dtype: str = "", unroll: int = COLUMN_UNROLL,
                                 min_blocks: int = LANES_BLOCKS_PER_SM):
    """Column sums in row lanes, the CUDA backend's strided_lanes (reduce_sum_kernels.cuh): a block of 256 threads is
    32 threads of 16-byte packs of adjacent columns by COLUMN_LANES row lanes. Lane l reads rows l, l + 8, ... of its
    piece, `unroll` of them at once, into one fp32 sum a column in registers; only at the end are the lanes added, in
    lane order, through shared memory. `column_sums_body` instead reduces each loaded (rows, columns) tile across the
    block before the next. x is viewed as (outer, length, inner / VEC, VEC); the descriptor checks that the columns are
    whole blocks of 32 packs, the length whole steps of 8 x `unroll` rows and x 16-byte aligned."""
    out_dtype = out_dtype or dtype
    vec = pack_width(dtype)
    threads, step = COLUMN_LANES * LANE_PACKS, COLUMN_LANES * unroll
    outer, length, groups = T.dynamic("outer"), T.dynamic("length"), T.dynamic("groups")
    # Thread t (lane t // 32, pack t % 32) owns row t of every (threads, ...) fragment.
    own_raw = T.Fragment((threads, unroll * vec), forward_thread_fn=lambda t, j: t, forward_index_fn=lambda t, j: j)
    own_acc = T.Fragment((threads, vec), forward_thread_fn=lambda t, j: t, forward_index_fn=lambda t, j: j)

    @T.prim_func
    def reduce_columns_lanes_kernel(x: T.Tensor((outer, length, groups, vec), dtype),
                                    out: T.Tensor((outer, groups * vec), out_dtype)):
        with T.Kernel(groups // LANE_PACKS, outer, threads=threads) as (bx, o):
            if min_blocks:
                T.annotate_min_blocks_per_sm(min_blocks)
            T.pdl_sync()
            raw = T.alloc_fragment((threads, unroll * vec), dtype)
            acc = T.alloc_fragment((threads, vec), FP32)
            lane_sums = T.alloc_shared((threads, vec), FP32)
            T.annotate_layout({raw: own_raw, acc: own_acc})
            T.clear(acc)
            for k in T.serial(length // step):
                for t, u, v in T.Parallel(threads, unroll, vec):
                    raw[t, u * vec + v] = x[o, (k * unroll + u) * COLUMN_LANES + t // LANE_PACKS,
                                            bx * LANE_PACKS + t % LANE_PACKS, v]
                for u in range(unroll):  # unrolled here: one add a value a row, in row order
                    for t, v in T.Parallel(threads, vec):
                        acc[t, v] += T.cast(raw[t, u * vec + v], FP32)
            for t, v in T.Parallel(threads, vec):
                lane_sums[t, v] = acc[t, v]
            for c, v in T.Parallel(LANE_PACKS, vec):
                out[o, (bx * LANE_PACKS + c) * vec + v] = T.cast(_lanes_total(lane_sums, c, v), out_dtype)

    return reduce_columns_lanes_kernel


def split_count(blocks: int, length: int, min_piece: int, target_blocks: int) -> int:
    """How many equal pieces to cut the reduced dim into: a power of two that divides `length`, keeps each
    piece at least `min_piece` long, and brings the grid (`blocks` per piece) up to `target_blocks`.

    One block per row or per 256 columns leaves a GPU idle when there are few of them: a single row of
    2^26 ran as one block (15.7 ms, 0.00x our CUDA) and 32768x4096 columns as 16 (12.1 ms, 0.01x) on the
    H200 in session 2. Lengths with no power-of-two factor are not split (1 piece)."""
    pieces = 1
    while (blocks * pieces * 2 <= target_blocks and length % (pieces * 2) == 0
           and length // (pieces * 2) >= min_piece):
        pieces *= 2
    return pieces


BLOCKS_PER_SM = 16  # 128-thread blocks: 2048 resident threads per SM
MIN_ROW_PIECE = 4096  # elements: a piece of a row is several passes of the row loop
MIN_COLUMN_PIECE = 2 * ROW_BLOCK  # rows: a piece of a column is at least 2 row blocks


@dataclass(frozen=True)
class SumPlan:
    """How the descriptor runs one reduce_sum: `pieces` == 1 is one launch, else fp32 partials of the pieces
    into `workspace_size` bytes, then a finishing launch. `chunk` / `finish_chunk`: the row loop's pass
    (rows only; 0 for column sums)."""

    pieces: int
    workspace_size: int
    chunk: int
    finish_chunk: int
    block_c: int = BLOCK_C  # columns a block of the column kernel sums
    lanes: bool = False  # column sums that reduce_columns_lanes_program takes when x is aligned


def lanes_fit(length: int, inner: int, dtype: str, pieces: int) -> bool:
    """Whether reduce_columns_lanes_program can sum these columns in `pieces`: whole blocks of 32 packs of columns,
    and each piece whole steps of 8 lanes x COLUMN_UNROLL rows."""
    step = COLUMN_LANES * COLUMN_UNROLL
    return inner % (LANE_PACKS * pack_width(dtype)) == 0 and length % pieces == 0 and (length // pieces) % step == 0


def plan(outer: int, length: int, inner: int, dtype: str, sm_count: int, block_c: int = BLOCK_C,
         lanes: bool = True) -> SumPlan:
    """The plan for summing the middle dim of an (outer, length, inner) view; pure, so CPU tests check it. Columns of
    whole lane blocks are cut for the lanes kernel's blocks (5 an SM), the others (and every column sum when `lanes`
    is off: the tile sweep's variants) for the tile kernels' (16 an SM)."""
    rows = inner == 1
    if lanes and not rows and outer:  # lanes_fit, below, asks for whole lane blocks of columns
        blocks = outer * inner // (LANE_PACKS * pack_width(dtype))
        pieces = split_count(blocks, length, COLUMN_LANES * COLUMN_UNROLL, LANES_BLOCKS_PER_SM * sm_count)
        # The CUDA backend's edge rule: no split where the rows are under SPLIT_ROWS x the share of a wave the
        # unsplit grid fills. Timed here in session 54 (run is, A B A B): 256x65536 bf16 11.05 -> 9.58 us,
        # 512x81920 bf16 22.5 -> 20.9, 256x32768 fp32 11.4 -> 9.7; the shapes that still split within 1 %.
        if length * LANES_BLOCKS_PER_SM * sm_count < SPLIT_ROWS * blocks:
            pieces = 1
        if lanes_fit(length, inner, dtype, pieces):
            return SumPlan(pieces, 4 * outer * pieces * inner if pieces > 1 else 0, 0, 0, block_c, lanes=True)
    blocks = outer * (1 if rows else -(-inner // block_c))
    pieces = split_count(blocks, length, MIN_ROW_PIECE if rows else MIN_COLUMN_PIECE,
                         BLOCKS_PER_SM * sm_count) if blocks else 1
    workspace = 4 * outer * pieces * inner if pieces > 1 else 0
    if not rows:
        return SumPlan(pieces, workspace, 0, 0, block_c)
    return SumPlan(pieces, workspace, row_chunk(dtype, length // pieces),
                   row_chunk("float32", pieces) if pieces > 1 else 0)


reduce_rows_lazy = jit(out_idx=[-1])(reduce_rows_program)
reduce_rows_into = jit(reduce_rows_program)
reduce_rows_packed_into = jit(reduce_rows_packed_program)
reduce_short_rows_into = jit(reduce_short_rows_program)
reduce_short_rows_packed_into = jit(reduce_short_rows_packed_program)
reduce_columns_lazy = jit(out_idx=[-1])(reduce_columns_program)
reduce_columns_packed_into = jit(reduce_columns_packed_program)
reduce_columns_into = jit(reduce_columns_program)
reduce_columns_lanes_into = jit(reduce_columns_lanes_program)
