"""softmax of long rows on Hopper, in TileLang: each row's parts run as one thread-block cluster that trades
(max, sum) through distributed shared memory, in one launch. Three kernels, by how a block keeps its part between
the statistics and the write: re-read from L2 (`softmax_cluster_packed_program`), held in shared memory
(`softmax_cluster_smem_program`, 16-bit rows of 65536-262144), held in registers
(`softmax_cluster_registers_program`, fp32). The descriptor (descriptors.Softmax) asks their `*_parts` rules in the
order registers, shared memory, re-read; rows none accepts run softmax.py's split pair. The kernels reuse
softmax.py's part statistics and combine macros.
"""

# No `from __future__ import annotations`: TileLang evaluates the T.Tensor annotations at definition.

from operator_runtime.tilelang._env import FP32, LOG2E, T, jit, tilelang
from operator_runtime.tilelang.packs import pack_width
from operator_runtime.tilelang.softmax import (
    NEG_INF,
    SPLIT_THREADS,
    SPLIT_VALUES,
    combine_part_stats,
    exp_against,
    packed_part_stats,
    packed_step,
    write_packed_part,
    write_part_stats,
)


@T.macro
def combine_part_stats_in_warp(stats, parts, row):
    """combine_part_stats for a cluster's pairs in shared memory, by every warp at once: lane q takes pair q,
    and two butterfly reductions (T.warp_reduce_max, then T.warp_reduce_sum) give every lane the row's pair. A
    butterfly adds the same two values on both lanes of each exchange, so every lane, warp and block of the row
    gets the same bits, as the serial combine's fixed order gave. Five dependent steps each, where the serial
    combine is a chain of `parts` exps and adds that nvcc overlaps only where it unrolls it fully."""
    lane = T.get_thread_binding() % 32
    q = T.min(lane, parts - 1)
    row[0] = T.warp_reduce_max(T.if_then_else(lane < parts, stats[q, 0], NEG_INF))
    row[1] = T.warp_reduce_sum(T.if_then_else(
        lane < parts and stats[q, 1] != 0.0, stats[q, 1] * T.exp2((stats[q, 0] - row[0]) * LOG2E), 0.0))


@T.macro
def combine_cluster_stats(every, parts, row, unroll, in_warps):
    """The registers kernel's combine of its cluster's pairs: in warps, or serial unrolled `unroll` times
    (softmax_cluster_registers_program says where each won)."""
    if in_warps:
        combine_part_stats_in_warp(every, parts, row)
    else:
        combine_part_stats(every, 0, parts, row, unroll)


# Long 16-bit or fp32 rows on Hopper, in one launch: softmax.py's packed statistics and normalise passes,
# fused, with each row's parts run as one thread-block cluster that trades (max, sum) through distributed
# shared memory. The split pair reads x twice from HBM (116 us for 1024x65536 halves, where our CUDA's
# cluster_online reads it once in 83; batches that keep the second read in L2 lost, session 9). Here a part
# is CLUSTER_PART_BYTES, as in cluster_online: a block's second read of its part finds it in L2. Run as
# (H200): 1024x65536 halves 116 -> 96 us, 256x262144 halves 116 -> 101-102, fp32 1024x65536 221 -> 186.
CLUSTER_PART_BYTES = 32 << 10
CLUSTER_MAX = 16  # H100/H200 run clusters of up to 16 ("non-portable" above 8; TileLang's launcher allows them)
# Blocks of 512 threads where a 16-bit row takes at most 8 parts, else SPLIT_THREADS (256). With 256, eight
# blocks an SM each hold a 32 KB part between their passes, and the second pass missed L2: ncu (session 21, run
# cy) had the kernel read 226.7 MB for 1024x65536 halves (134.2 MB), L2 hit 44.8 % (our CUDA's cluster_online
# 61.0 %); with 512, 137.5 MB and 64.3 % (session 22, run dc). Session 22 (H200): 1024x65536 halves (4 parts)
# 92.4 -> 82.0 us with 512, 110-114 with 1024 (run cz, twice); 512x131072 halves (8 parts) 95.0 -> 85.3 (run
# dc, tests/bench/sweeps/tilelang_softmax_cluster.py); 256x262144 halves (16 parts) 89.2 -> 107.7 with 512
# (run cz), 225 with 1024. At 16 parts ncu (run dc) has 512 reading less (134.3 against 151.3 MB) but holding
# half the clusters at once (21 against 42: 40 registers, three blocks an SM) at 49 % of DRAM bandwidth (62 %).
# Session 23 (run df, twice): 512 at 16 parts with the pairs combined in warps (32 registers by ptxas) lost
# again, 89.6 -> 94.1 us; the warp combine alone lost in blocks of 256 too (88.5 -> 95.4, run dg).
# fp32 parts (one step of 512 threads, as 1024 threads make of a 16-bit part) are not measured: they keep 256.
CLUSTER_WIDE_THREADS, CLUSTER_WIDE_MAX_PARTS = 512, 8


def cluster_parts(n: int, dtype: str) -> int | None:
    """Blocks a row of n elements takes in softmax_cluster_packed_program, or None where it does not apply.

    The row's bytes in parts of CLUSTER_PART_BYTES, rounded up to a power of two (at least 2), when that is at
    most CLUSTER_MAX and every part is whole steps of the packed kernels: 65536 halves -> 4, 262144 halves
    -> 16, 65536 floats -> 8; 262144 floats (32) stay on the split pair, as on our CUDA backend."""
    elem = 4 if dtype == "float32" else 2
    parts = 2
    while parts * CLUSTER_PART_BYTES < n * elem:
        parts *= 2
    if parts > CLUSTER_MAX or n % parts or (n // parts) % packed_step(dtype)[1]:
        return None
    return parts


def cluster_threads(n: int, dtype: str, parts: int) -> int:
    """Threads a block of softmax_cluster_packed_program for rows of n elements in `parts` parts: 512 for 16-bit
    rows of up to CLUSTER_WIDE_MAX_PARTS parts that are whole steps of 512 threads, else SPLIT_THREADS."""
    wide_step = CLUSTER_WIDE_THREADS * SPLIT_VALUES
    if dtype != "float32" and parts <= CLUSTER_WIDE_MAX_PARTS and (n // parts) % wide_step == 0:
        return CLUSTER_WIDE_THREADS
    return SPLIT_THREADS


# The relaxed start: no clear and a relaxed arrive. It is right only when `every` has bytes of its own without the
# clear, which NO_REUSE asks of the planner (every shared buffer its own bytes; 16 more bytes a block here), so a
# program built with relaxed_start=True must be compiled with it (tests/tilelang/test_lowering.py checks the lowered
# offsets). Then nothing is written before the arrive and it need not release anything. Session 47 (H200, run hv,
# bench R T R T): the fp32 registers kernel 256x262144 162.9-163.3 -> 158.5-158.6 us, 1024x65536 136.9-137.2 ->
# 135.1-135.2 (ncu: `membar` stalls 7.4 -> 5.3 % of samples); but the 16-bit shared-memory kernel ran 3.5-4.5 %
# slower with it (256x262144 fp16 77.3 -> 80.3-80.7 us, 1024x65536 71.4-71.5 -> 74.7), its lowered CUDA otherwise
# the same but for `red`'s offset (ncu, run hw: `mio_throttle` stalls appear, its 64 KB copies into shared memory
# issued all at once without the release's wait). So only the registers kernel starts relaxed; the other two keep
# the release start (the sweep's `_relaxed` / `_release` arms time the other choice).
NO_REUSE = {tilelang.transform.PassConfigKey.TL_DISABLE_SHARED_MEMORY_REUSE: True}
REGS_RELAXED_START = True  # softmax_cluster_registers_program's start; its jit below carries NO_REUSE with it


@T.macro
def start_exchange(every, relaxed):
    """At the kernel's start: clears `every` and arrives (release) on the cluster barrier that
    exchange_part_stats waits on. The clear is why `every` has bytes of its own: TileLang's shared-memory
    planner sees only this block's accesses, and a buffer first written after the block reductions got their
    workspace's bytes, which an early block's remote store corrupted (session 10, run aq: 26 wrong results,
    clean under compute-sanitizer, which serialises blocks). The release orders the clear before any remote
    store into these bytes. `relaxed` (a Python bool, so one branch is built): the relaxed start above."""
    if relaxed:
        T.cluster_arrive_relaxed()
    else:
        T.clear(every)
        T.cluster_arrive()


@T.macro
def exchange_part_stats(mine, every, parts):
    """Every block of the cluster stores its (max, sum) from `mine` into row `rank` of `every` in each block.
    The wait pairs with start_exchange's arrive, so no block waits for the slowest one's reductions before it
    sends (session 21, run cw, H200, twice: 1024x65536 halves 94.6 -> 92.4 us, fp32 145.7 -> 143.0; 256x262144
    fp32 181.4 -> 175.3, halves 91.2 -> 89.8, against a full cluster barrier here); TileLang syncs the block
    after the wait, before `mine` is read. The barrier after the stores stays: it publishes them, and no block
    exits while others still write into it."""
    T.cluster_wait()
    rank = T.block_rank_in_cluster()
    for q in T.serial(parts):
        T.copy_cluster(mine[0, 0:2], every[rank, 0:2], dst_block=q)
    T.cluster_sync()


def softmax_cluster_packed_program(dtype: str, parts: int, threads: int = SPLIT_THREADS,
                                   relaxed_start: bool = False):
    vec = pack_width(dtype)
    packs, _ = packed_step(dtype)
    blocks, groups = T.dynamic("blocks"), T.dynamic("groups")  # blocks = rows * parts, consecutive per row

    @T.prim_func
    def softmax_cluster_packed_kernel(x: T.Tensor((blocks, groups, vec), dtype),
                                      y: T.Tensor((blocks, groups, vec), dtype)):
        with T.ClusterKernel(blocks, threads=threads, cluster_dims=parts) as i:
            T.pdl_sync()
            raw = T.alloc_fragment((threads, SPLIT_VALUES), dtype)
            buf = T.alloc_fragment((threads, SPLIT_VALUES), FP32)
            res = T.alloc_fragment((threads, SPLIT_VALUES), dtype)
            step_max = T.alloc_fragment((threads,), FP32)
            step_sum = T.alloc_fragment((threads,), FP32)
            m = T.alloc_fragment((threads,), FP32)
            s = T.alloc_fragment((threads,), FP32)
            mine = T.alloc_shared((1, 2), FP32)        # this block's (max, sum)
            every = T.alloc_shared((parts, 2), FP32)   # every block's, written by each block into all
            start_exchange(every, relaxed_start)
            packed_part_stats(x, i, raw, buf, step_max, step_sum, m, s, groups // (threads * packs), packs, vec)
            write_part_stats(m, s, mine, 0)
            exchange_part_stats(mine, every, parts)
            row = T.alloc_local((2,), FP32)
            combine_part_stats(every, 0, parts, row)
            inv = 1.0 / row[1]
            # The part again, now from L2.
            write_packed_part(x, y, i, raw, res, row[0], inv, groups // (threads * packs), packs, vec, dtype)

    return softmax_cluster_packed_kernel


# 16-bit rows of 65536 in a cluster of 2 blocks of 512 threads, each holding its 64 KB part in shared memory, so the
# row is read from HBM once: our CUDA's cluster_smem_held shape (session 29: 74.6 -> 68.2 us there). The packed
# cluster kernel above streams 4 parts of 32 KB twice, the second time from L2. Three 64 KB blocks share an SM only
# at 40 registers a thread, which T.annotate_min_blocks_per_sm(3) asks for (48 without; held rows at two blocks an
# SM lost 16 % in our CUDA, session 29's run eq). Session 30 (run ez, H200, tests/bench/sweeps/
# tilelang_softmax_cluster.py): 1024x65536 fp16 80.56 -> 72.47 us, bf16 81.60 -> 72.60 (our CUDA 67.9 in the same
# call's bench). Session 31 (run fg, same sweep): rows of 262144 halves in 8 such blocks, 89.0 -> 77.3 us (fp16), 89.5
# -> 78.2 (bf16), against the packed kernel's 16 parts streamed twice; run fh: 512x131072 in 4 blocks 82.9 -> 74.9
# (fp16), 83.7 -> 75.2 (bf16), 341x196608 in 6 blocks 91.0 -> 75.9, 91.2 -> 76.6. Session 33 (runs fq, fr): 682x98304
# in 3 blocks 83.5 (the packed kernel) -> 74.7-75.2, and the rows no packed cluster took, which ran the split pair:
# 409x163840 in 5 blocks 110.0 -> 77.1 (fp16), 110.5 -> 77.3 (bf16), 292x229376 in 7 110.3 -> 77.9, 110.8 -> 78.8.
SMEM_THREADS, SMEM_PACKS = 512, 8
SMEM_PART_COUNTS = (2, 3, 4, 5, 6, 7, 8)  # 65536 ... 262144 halves


def cluster_smem_parts(n: int, dtype: str) -> int | None:
    """Blocks a row of n elements takes in softmax_cluster_smem_program: for 16-bit rows of a whole number of
    parts of SMEM_THREADS x SMEM_PACKS packs (32768 halves), that number where it is in SMEM_PART_COUNTS (65536
    to 262144 halves), or None where the kernel does not apply."""
    part = SMEM_THREADS * SMEM_PACKS * pack_width(dtype)
    if dtype == "float32" or n % part or n // part not in SMEM_PART_COUNTS:
        return None
    return n // part


def softmax_cluster_smem_program(dtype: str, parts: int, relaxed_start: bool = False):
    vec = pack_width(dtype)
    groups = SMEM_THREADS * SMEM_PACKS  # a part's packs: thread t holds packs t, t + SMEM_THREADS, ...
    blocks = T.dynamic("blocks")  # rows * parts, consecutive per row

    @T.prim_func
    def softmax_cluster_smem_kernel(x: T.Tensor((blocks, groups, vec), dtype),
                                    y: T.Tensor((blocks, groups, vec), dtype)):
        with T.ClusterKernel(blocks, threads=SMEM_THREADS, cluster_dims=parts) as i:
            T.pdl_sync()
            T.annotate_min_blocks_per_sm(3)
            held = T.alloc_shared((groups, vec), dtype)
            buf = T.alloc_fragment((SMEM_THREADS, vec), FP32)
            res = T.alloc_fragment((SMEM_THREADS, vec), dtype)
            step = T.alloc_fragment((SMEM_THREADS,), FP32)
            m = T.alloc_fragment((SMEM_THREADS,), FP32)
            s = T.alloc_fragment((SMEM_THREADS,), FP32)
            mine = T.alloc_shared((1, 2), FP32)
            every = T.alloc_shared((parts, 2), FP32)
            start_exchange(every, relaxed_start)
            T.copy(x[i, 0:groups, 0:vec], held)
            T.fill(m, NEG_INF)
            for p in T.serial(SMEM_PACKS):
                for t, v in T.Parallel(SMEM_THREADS, vec):
                    buf[t, v] = T.cast(held[p * SMEM_THREADS + t, v], FP32)
                T.reduce_max(buf, step, dim=1)
                for t in T.Parallel(SMEM_THREADS):
                    m[t] = T.max(m[t], step[t])
            T.clear(s)
            for p in T.serial(SMEM_PACKS):
                for t, v in T.Parallel(SMEM_THREADS, vec):  # against each thread's own max: -inf gives 0
                    buf[t, v] = exp_against(T.cast(held[p * SMEM_THREADS + t, v], FP32), m[t])
                T.reduce_sum(buf, step, dim=1)
                for t in T.Parallel(SMEM_THREADS):
                    s[t] += step[t]
            write_part_stats(m, s, mine, 0)
            exchange_part_stats(mine, every, parts)
            row = T.alloc_local((2,), FP32)
            combine_part_stats(every, 0, parts, row)
            inv = 1.0 / row[1]
            for p in T.serial(SMEM_PACKS):
                for t, v in T.Parallel(SMEM_THREADS, vec):
                    res[t, v] = T.cast(T.exp2((T.cast(held[p * SMEM_THREADS + t, v], FP32) - row[0]) * LOG2E) * inv,
                                       dtype)
                for t, v in T.Parallel(SMEM_THREADS, vec):
                    y[i, p * SMEM_THREADS + t, v] = res[t, v]

    return softmax_cluster_smem_kernel


# fp32 rows in a cluster whose blocks hold their part in registers (32 values a thread, blocks of 512 threads),
# so HBM is read once, as our CUDA backend's cluster_registers (session 11: 1024x65536 fp32 186 -> 139 us
# there). Each thread takes exps against its own max before the exchange; the output is each exp times one
# factor a thread, exp(own max - row max) / row sum.
# Run ay (H200): 1024x65536 fp32 (4 parts) 186 -> 148.6 us (our CUDA 139.1); 256x262144 fp32 as 16 parts ran
# 261 us, slower than the split pair's 221 (our CUDA: 157). The reason was in ptxas -v of the lowered source
# (session 12): the combine's unrolled loops made the 16-part kernel 75 registers (ours 56), one block an SM;
# unrolled twice, 54 (combine_part_stats). With that, a test on the max instead of every value (exp_against)
# and --use_fast_math (FAST_MATH below), 16 parts run 256x262144 fp32 in 182-184 us (runs bd, be), where the
# split pair takes 220, so clusters of this kernel go up to REGS_MAX_PARTS = 16.
REGS_THREADS, REGS_VALUES, REGS_MAX_PARTS = 512, 32, 16


def cluster_registers_parts(n: int, dtype: str) -> int | None:
    """Blocks a row of n fp32 elements takes in softmax_cluster_registers_program (2 to REGS_MAX_PARTS parts
    of REGS_THREADS * REGS_VALUES elements), or None where it does not apply: 16-bit rows (the packed cluster
    kernel), rows that are not whole parts, and rows of more parts."""
    part = REGS_THREADS * REGS_VALUES
    if dtype != "float32" or n % part or not 2 <= n // part <= REGS_MAX_PARTS:
        return None
    return n // part


def softmax_cluster_registers_program(dtype: str, parts: int, unroll: int | None = None,
                                      relaxed_start: bool = REGS_RELAXED_START):
    # unroll None: the library's combine. The serial combine's loops are unrolled fully where that fits two
    # blocks an SM (8 parts: 59 registers; 16: 75). Measured (H200, tests/bench/sweeps/tilelang_softmax_cluster.py):
    # at 4 parts fully 148.0, rolled 151.7 us (run bb, 1024x65536); at 16 parts (256x262144) unrolled 2 / 1 / 4 /
    # 8 times 181.8 / 185.0 / 185.6 / 192.4 us (run be), fully 259.4 (run bc). So 16 parts combine in each warp
    # (combine_part_stats_in_warp) instead: session 23 (run dg, twice, with write_part_stats by warps) 256x262144
    # 169.7-170.3 -> 164.2 us; at 8 parts (512x131072) the warp combine lost, 141.8 -> 151.0-151.4, and at 4
    # (1024x65536, run df) 137.6 -> 144.9: fully unrolled, the serial combine's exps overlap. k > 0: the
    # serial combine unrolled k times (the sweep's registers16_u<k>).
    in_warps = unroll is None and parts > 8
    unroll = unroll or 0  # the serial combine's: fully unrolled unless asked
    vec = pack_width(dtype)
    packs = REGS_VALUES // vec
    blocks = T.dynamic("blocks")  # rows * parts, consecutive per row
    # A part is always REGS_THREADS x REGS_VALUES elements: a static width drops a bounds test a pack, which a
    # dynamic one (`groups`) put before every load and store.
    groups = REGS_THREADS * packs

    @T.prim_func
    def softmax_cluster_registers_kernel(x: T.Tensor((blocks, groups, vec), dtype),
                                         y: T.Tensor((blocks, groups, vec), dtype)):
        with T.ClusterKernel(blocks, threads=REGS_THREADS, cluster_dims=parts) as i:
            T.pdl_sync()
            raw = T.alloc_fragment((REGS_THREADS, REGS_VALUES), dtype)
            buf = T.alloc_fragment((REGS_THREADS, REGS_VALUES), FP32)
            m = T.alloc_fragment((REGS_THREADS,), FP32)  # each thread's own max
            s = T.alloc_fragment((REGS_THREADS,), FP32)
            mine = T.alloc_shared((1, 2), FP32)
            every = T.alloc_shared((parts, 2), FP32)
            start_exchange(every, relaxed_start)
            for t, p, v in T.Parallel(REGS_THREADS, packs, vec):  # pack p of every thread together: coalesced
                raw[t, p * vec + v] = x[i, p * REGS_THREADS + t, v]
            for t, j in T.Parallel(REGS_THREADS, REGS_VALUES):
                buf[t, j] = T.cast(raw[t, j], FP32)
            T.reduce_max(buf, m, dim=1)
            for t, j in T.Parallel(REGS_THREADS, REGS_VALUES):  # -inf entries give 0, never NaN
                buf[t, j] = exp_against(buf[t, j], m[t])
            T.reduce_sum(buf, s, dim=1)
            write_part_stats(m, s, mine, 0)
            exchange_part_stats(mine, every, parts)
            row = T.alloc_local((2,), FP32)
            combine_cluster_stats(every, parts, row, unroll, in_warps)
            inv = 1.0 / row[1]
            # A thread of -inf values holds zeros: its factor is 1 / sum, or NaN where the whole row is -inf
            # (exp2(-inf - -inf), as torch's 0/0).
            for t, j in T.Parallel(REGS_THREADS, REGS_VALUES):
                own = T.if_then_else(m[t] == NEG_INF, row[0], m[t])
                raw[t, j] = T.cast(buf[t, j] * (T.exp2((own - row[0]) * LOG2E) * inv), dtype)
            for t, p, v in T.Parallel(REGS_THREADS, packs, vec):
                y[i, p * REGS_THREADS + t, v] = raw[t, p * vec + v]

    return softmax_cluster_registers_kernel


# The cluster kernels are built with nvcc --use_fast_math, so that exp2f is one ex2.approx.ftz, as our CUDA
# kernels' fast_exp2 (TileLang passes no such flag by default, and exp2f then handles subnormal results with
# extra instructions). No finite-math assumption comes with it: -inf and NaN behave as before (the tests'
# -inf and NaN rows). Run bc (H200, tests/bench/sweeps/tilelang_softmax_cluster.py): 256x262144 fp32 188.8 ->
# 184.4 us, halves 99.8 -> 91.6 and 98.9 -> 90.7; 1024x65536 fp32 152.2 -> 145.2, halves within 1 %.
FAST_MATH = {tilelang.transform.PassConfigKey.TL_ENABLE_FAST_MATH: True}
softmax_cluster_packed_into = jit(pass_configs=FAST_MATH)(softmax_cluster_packed_program)
softmax_cluster_registers_into = jit(pass_configs={**FAST_MATH, **NO_REUSE})(softmax_cluster_registers_program)
softmax_cluster_smem_into = jit(pass_configs=FAST_MATH)(softmax_cluster_smem_program)
