"""Without a GPU: every TileLang kernel, eager and lazy, every op and dtype, lowers to CUDA for sm_90.

This is how CI keeps the TileLang code honest; the GPU script runs the kernels themselves
(`pytest --backend tilelang`).
"""

from __future__ import annotations

import functools
import importlib.util
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import torch

if importlib.util.find_spec("tilelang") is None:
    pytest.skip("tilelang not installed (pip install 'operator-runtime[tilelang]')", allow_module_level=True)

from operator_runtime.tilelang import copy as tl_copy  # noqa: E402
from operator_runtime.tilelang import reduce_sum as tl_sum  # noqa: E402
from operator_runtime.tilelang import softmax as tl_softmax  # noqa: E402
from operator_runtime.tilelang import softmax_cluster as tl_cluster  # noqa: E402
from operator_runtime.tilelang import vector_add as tl_add  # noqa: E402
from operator_runtime.tilelang._env import tilelang  # noqa: E402

TARGET = {"kind": "cuda", "arch": "sm_90"}
FLOATS = ("float32", "float16", "bfloat16")
COPY_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")
SHAPES = ((1, 1), (37, 100), (3, 5000))


def lower(prim_func) -> str:
    from tilelang import tvm

    with tvm.target.Target(TARGET):
        return tilelang.lower(prim_func, target=TARGET).kernel_source


def _signature(src: str) -> str:
    """The kernel's parameter list: shape parameters appear there only when shapes are dynamic."""
    line = next(ln for ln in src.splitlines() if "__global__" in ln and "__launch_bounds__" in ln)
    return line[line.index("("):]


LAZY = (
    [pytest.param(tl_copy.copy_program, (dt,), id=f"copy-{dt}") for dt in COPY_DTYPES]
    + [pytest.param(tl_add.vector_add_program, (dt, bc), id=f"vector_add-{dt}-{'row' if bc else 'full'}")
       for dt in FLOATS for bc in (False, True)]
    # bool has no packed program: TileLang has no CUDA type for 16 bools, so the backend copies bool as uint8.
    + [pytest.param(tl_copy.copy_packed_program, (dt,), id=f"copy_packed-{dt}") for dt in COPY_DTYPES if dt != "bool"]
    + [pytest.param(tl_add.vector_add_packed_program, (dt, bc), id=f"vector_add_packed-{dt}-{'row' if bc else 'full'}")
       for dt in FLOATS for bc in (False, True)]
    + [pytest.param(tl_add.vector_add_packed_program, (dt, bc, tl_add.SMALL_THREADS, tl_add.SMALL_THREADS),
                    id=f"vector_add_packed_small-{dt}-{'row' if bc else 'full'}")
       for dt in FLOATS for bc in (False, True)]
    + [pytest.param(tl_sum.reduce_rows_program, (dt,), id=f"reduce_rows-{dt}") for dt in FLOATS]
    + [pytest.param(tl_sum.reduce_columns_program, (dt,), id=f"reduce_columns-{dt}") for dt in FLOATS]
    # A split sum's two launches: fp32 partials from the input dtype, then the partials' sum into it.
    + [pytest.param(program, dts, id=f"{program.__name__}-{'-to-'.join(dts)}")
       for program in (tl_sum.reduce_rows_program, tl_sum.reduce_columns_program)
       for dt in FLOATS for dts in ((dt, "float32"), ("float32", dt))]
    + [pytest.param(tl_sum.reduce_rows_program, (dt, "", chunk), id=f"reduce_rows-{dt}-chunk{chunk}")
       for dt in FLOATS for chunk in sorted({tl_sum.row_chunk(dt, n) for n in (100, 1000, 2304, 5000)})]
    + [pytest.param(tl_sum.reduce_rows_packed_program, (dt, odt), id=f"reduce_rows_packed-{dt}-to-{odt or dt}")
       for dt in ("float16", "bfloat16") for odt in ("", "float32")]
    + [pytest.param(tl_sum.reduce_rows_packed_program, (dt, "", *tl_sum.packed_row_shape(n, dt)),
                    id=f"reduce_rows_packed-{dt}-n{n}") for dt in ("float16", "bfloat16") for n in (1024, 1536, 2304)]
    + [pytest.param(tl_sum.reduce_columns_packed_program, (dt, odt), id=f"reduce_columns_packed-{dt}-to-{odt or dt}")
       for dt in ("float16", "bfloat16") for odt in ("", "float32")]
    + [pytest.param(tl_sum.reduce_columns_lanes_program, (dt, odt), id=f"reduce_columns_lanes-{dt}-to-{odt or dt}")
       for dt in FLOATS for odt in ("", "float32")]
    + [pytest.param(tl_softmax.softmax_program, (dt, *tl_softmax.config(n).values()), id=f"softmax-{dt}-n{n}")
       for dt in FLOATS for n in (100, 200, 1000, 1536, 4096, 5000, 16384, 70000)]
    + [pytest.param(tl_softmax.softmax_packed_program, (dt, n, tl_softmax.packed_threads(n, dt)),
                    id=f"softmax_packed-{dt}-n{n}")
       for dt in ("float16", "bfloat16") for n in (256, 1536, 2304, 4096, 16384, 1000, 10000, 16376)]
    + [pytest.param(tl_softmax.softmax_stats_program, (dt,), id=f"softmax_stats-{dt}") for dt in FLOATS]
    + [pytest.param(tl_sum.reduce_short_rows_program, (dt,), id=f"reduce_short_rows-{dt}") for dt in FLOATS]
    + [pytest.param(tl_sum.reduce_short_rows_packed_program, (dt, tpr), id=f"reduce_short_rows_packed-{dt}-{tpr}")
       for dt in FLOATS for tpr in sorted({tl_sum.short_rows_packed_threads(n, dt, 1 << 20, 132) for n in (8, 24, 64)})]
    # a warp a row, 2-4 packs a lane: 16-bit rows of 264-1024 (warp_row_packs), both triggers
    + [pytest.param(program, (dt, 32, early, packs),
                    id=f"{program.__name__}-{dt}-32x{packs}{'-early' if early else ''}")
       for program in (tl_sum.reduce_short_rows_packed_program, tl_softmax.softmax_short_rows_packed_program)
       for dt in ("float16", "bfloat16") for packs, early in ((2, False), (3, True), (4, True))]
    # and the row sums' 5-8 packs a lane (1032-2048 halves, warp_row_plan)
    + [pytest.param(tl_sum.reduce_short_rows_packed_program, (dt, 32, early, packs),
                    id=f"reduce_short_rows_packed-{dt}-32x{packs}{'-early' if early else ''}")
       for dt in ("float16", "bfloat16") for packs, early in ((5, True), (6, False), (8, False))]
    + [pytest.param(tl_softmax.softmax_short_rows_program, (dt,), id=f"softmax_short_rows-{dt}") for dt in FLOATS]
    + [pytest.param(tl_softmax.softmax_short_rows_packed_program, (dt, tpr), id=f"softmax_short_rows_packed-{dt}-{tpr}")
       for dt in FLOATS for tpr in sorted({tl_sum.packed_row_threads(n, dt) for n in (8, 24, 128)})]
    + [pytest.param(tl_softmax.softmax_apply_program, (dt, pieces), id=f"softmax_apply-{dt}-{pieces}")
       for dt in FLOATS for pieces in (1, 4)]
    + [pytest.param(tl_softmax.softmax_stats_packed_program, (dt,), id=f"softmax_stats_packed-{dt}") for dt in FLOATS]
    + [pytest.param(tl_softmax.softmax_apply_packed_program, (dt, 4), id=f"softmax_apply_packed-{dt}-4")
       for dt in FLOATS]
    + [pytest.param(tl_softmax.softmax_stats_packed_program, (dt, True), id=f"softmax_stats_packed-{dt}-masked")
       for dt in FLOATS]
    + [pytest.param(tl_softmax.softmax_apply_packed_program, (dt, 4, True), id=f"softmax_apply_packed-{dt}-4-masked")
       for dt in FLOATS]
    + [pytest.param(tl_cluster.softmax_cluster_packed_program, (dt, parts), id=f"softmax_cluster_packed-{dt}-{parts}")
       for dt in FLOATS for parts in (4, 8, 16)]
    + [pytest.param(tl_cluster.softmax_cluster_packed_program, (dt, 4, tl_cluster.CLUSTER_WIDE_THREADS),
                    id=f"softmax_cluster_packed-{dt}-4-wide") for dt in ("float16", "bfloat16")]
    + [pytest.param(tl_cluster.softmax_cluster_packed_program, ("float16", 8, tl_cluster.CLUSTER_WIDE_THREADS),
                    id="softmax_cluster_packed-float16-8-wide")]
    + [pytest.param(tl_cluster.softmax_cluster_registers_program, ("float32", parts),
                    id=f"softmax_cluster_registers-float32-{parts}") for parts in (2, 4, 8, 16)]
)


@functools.cache
def lowered(index: int) -> str:
    """LAZY[index] lowered once per test session (lowering takes most of a second a kernel)."""
    program, args = LAZY[index].values
    return lower(program(*args))


@pytest.mark.lowering
@pytest.mark.parametrize("index", range(len(LAZY)), ids=[p.id for p in LAZY])
def test_lazy_factory_lowers_for_sm90(index):
    assert ", int " in _signature(lowered(index))  # dynamic shapes: one kernel per dtype serves every size


def _waits_for_the_grid_before_memory(src: str) -> bool:
    """griddepcontrol.wait (cudaGridDependencySynchronize) comes before the first use of any pointer parameter."""
    sig = _signature(src)
    body = src[src.index(sig) + len(sig):]
    pointers = re.findall(r"\*\s*(?:__restrict__\s+)?(\w+)[,)]", sig)
    uses = [m.start() for p in pointers for m in [re.search(rf"\b{p}\b", body)] if m]
    wait = body.find("cudaGridDependencySynchronize();")
    return bool(pointers) and 0 <= wait < min(uses)


@pytest.mark.lowering
@pytest.mark.parametrize("index", range(len(LAZY)), ids=[p.id for p in LAZY])
def test_every_kernel_waits_for_the_grid_before_it(index):
    # TileLang's cython launcher launches every kernel with PDL (_env.jit), so a kernel can start while the one
    # before it runs, once that one triggers; copy and vector_add trigger at their start, the short-row kernels
    # when asked (-early). A kernel that touched memory before the wait could read what the kernel before has not
    # written yet.
    src = lowered(index)
    assert _waits_for_the_grid_before_memory(src)
    triggers = "cudaTriggerProgrammaticLaunchCompletion();" in src
    assert triggers == (LAZY[index].id.startswith(("copy", "vector_add")) or LAZY[index].id.endswith("-early"))


PACKED_ELEMENTWISE = [i for i, p in enumerate(LAZY) if p.id.startswith(
    ("copy_packed", "vector_add_packed", "reduce_short_rows_packed", "reduce_rows_packed",
     "softmax_short_rows_packed"))]


@pytest.mark.lowering
@pytest.mark.parametrize("index", PACKED_ELEMENTWISE, ids=[LAZY[i].id for i in PACKED_ELEMENTWISE])
def test_packed_copy_and_add_move_16_byte_words(index):
    # The reason these programs exist: over a dynamic length the element-wise ones move one element an access.
    # Global accesses only (a, b, src, x, out, y); 16-bit adds also move 8-byte words between their local
    # buffers. The packed short-row sum reads x only (its out is one element a row).
    words = set(re.findall(r"\*\((\w+)\*\)\((?:a|b|src|x|out|y) \+", lowered(index)))
    assert words and words <= {"float4", "uint4", "int4", "longlong2", "double2"}, words


SOFTMAX = [i for i, p in enumerate(LAZY) if p.id.startswith("softmax")]


@pytest.mark.lowering
@pytest.mark.parametrize("index", SOFTMAX, ids=[LAZY[i].id for i in SOFTMAX])
def test_softmax_kernels_test_the_max_for_minus_inf_not_each_value(index):
    # exp_against: `v == -inf ? 0 : exp2(...)` on every value lowered to a compare and a branch around each exp
    # (session 12: 256x262144 fp32 201.7 -> 188.8 us without them); the test belongs on the max, once a thread.
    src = lowered(index)
    assert "exp2f(" in src
    assert re.findall(r"\b(?:buf|tile)\[[^\]]*\] == -CUDART_INF_F", src) == []


def _one_translation_unit(sources: list[str]) -> str:
    """Every kernel in one .cu file (one nvcc run instead of one per kernel): each distinct preamble of
    includes once, each kernel's names prefixed so that the dtypes' copies of a kernel do not collide."""
    preambles, bodies = {}, []
    for i, src in enumerate(sources):
        lines = src.splitlines()
        first = next(k for k, ln in enumerate(lines) if ln.startswith('extern "C"'))
        preambles.setdefault("\n".join(lines[:first]))
        body = "\n".join(lines[first:])
        for name in set(re.findall(r"void (?:__launch_bounds__\([^)]*\) )?(\w+)\(", body)):
            body = re.sub(rf"\b{name}\b", f"k{i}_{name}", body)
        bodies.append(body)
    return "\n".join([*preambles, *bodies])


def ptxas_report(src: str, tmp_path: Path) -> str:
    """ptxas's report (-v) on `src` compiled for sm_90 with TileLang's templates, as TileLang compiles it on the GPU;
    skips where this machine has no nvcc or the tilelang wheel no CUDA templates."""
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc not found: TileLang kernels are lowered but not compiled")
    templates = Path(tilelang.__file__).parent
    includes = [templates / "src", templates / "3rdparty" / "cutlass" / "include"]
    if not all((d / sub).exists() for d, sub in zip(includes, ("tl_templates", "cutlass"))):
        pytest.skip(f"this tilelang ships no CUDA templates under {templates}")
    source = tmp_path / "kernels.cu"
    source.write_text(src)
    result = subprocess.run(["nvcc", "-std=c++17", "-arch=sm_90", "-O3", "-DENABLE_BF16", *[f"-I{d}" for d in includes],
                            "-c", str(source), "-o", str(tmp_path / "kernels.o"), "-Xptxas", "-v"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stderr


@pytest.mark.lowering
def test_lazy_kernels_compile_for_sm90_without_spills(tmp_path):
    # The CUDA kernels build with ORT_PTXAS_STRICT (ptxas fails on any spill); this holds TileLang's to the
    # same bar. nvcc unrolled a bf16 column loop into 151 registers once (session 5): spills would be next.
    report = ptxas_report(_one_translation_unit([lowered(i) for i in range(len(LAZY))]), tmp_path)
    spills = re.findall(r"Function properties for (\w+)\n\s+\d+ bytes stack frame, (\d+) bytes spill stores, "
                        r"(\d+) bytes spill loads", report)
    assert len(spills) == len(LAZY)
    assert [name for name, stores, loads in spills if int(stores) or int(loads)] == []
    # The registers-cluster kernels must fit two blocks of REGS_THREADS an SM (<= 64 registers), as our CUDA
    # kernel does: at one block an SM a cluster of 16 needs 16 SMs of one GPC (75 registers ran 261 us
    # where 56 ran 157, session 12).
    used = dict(re.findall(r"Function properties for (\w+)\n[^\n]*\n[^\n]*Used (\d+) registers", report))
    regs = {name: int(n) for name, n in used.items() if "cluster_registers" in name}
    assert len(regs) == sum("cluster_registers" in p.id for p in LAZY)
    assert {name: n for name, n in regs.items() if n > 65536 // (2 * tl_cluster.REGS_THREADS)} == {}


EAGER = [
    ("copy", lambda t, dt: tl_copy.copy_eager.get_tir(t.view(-1), dtype=dt)),
    ("vector_add", lambda t, dt: tl_add.vector_add_eager.get_tir(t, t, dtype=dt)),
    ("reduce_sum", lambda t, dt: tl_sum.reduce_sum_eager.get_tir(t, dtype=dt)),
    ("softmax", lambda t, dt: tl_softmax.softmax_eager.get_tir(t, dtype=dt)),
]


@pytest.mark.lowering
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op,get_tir", EAGER, ids=[e[0] for e in EAGER])
def test_eager_kernel_lowers_for_sm90(op, get_tir, dtype, shape):
    t = torch.empty(shape, dtype=getattr(torch, dtype))
    src = lower(get_tir(t, dtype))
    assert ", int " not in _signature(src)  # eager kernels are specialised to the shape they were called with
    assert _waits_for_the_grid_before_memory(src)


@pytest.mark.parametrize("blocks,length,min_piece,target,expected", [
    (1, 2**26, 4096, 2112, 2048),     # one long row: 2048 pieces of 32768
    (256, 262144, 4096, 2112, 8),     # 256 rows: 2048 blocks
    (4096, 16384, 4096, 2112, 1),     # enough rows already
    (16, 32768, 128, 2112, 128),      # 32768x4096 columns: 16 blocks of 256 columns, 128 pieces of 256 rows
    (1, 3 * 4096, 4096, 2112, 2),     # only powers of two that divide the length: 3 * 4096 = 2 * 6144
    (1, 65537, 128, 2112, 1),         # an odd length is not split
    (1, 8192, 4096, 2112, 2),         # no piece shorter than min_piece
])
def test_split_count(blocks, length, min_piece, target, expected):
    pieces = tl_sum.split_count(blocks, length, min_piece, target)
    assert pieces == expected
    assert length % pieces == 0 and blocks * pieces <= max(target, blocks)


@pytest.mark.parametrize("outer,length,inner,dtype", [
    (1, 2**26, 1, "float32"), (256, 262144, 1, "bfloat16"), (4096, 16384, 1, "float16"),
    (1, 32768, 4096, "bfloat16"), (2, 4096, 5, "float32"), (1, 65537, 1, "float32"), (0, 8, 1, "float32"),
])
def test_reduce_sum_plan_has_a_workspace_exactly_when_it_splits(outer, length, inner, dtype):
    plan = tl_sum.plan(outer, length, inner, dtype, sm_count=132)
    assert plan.workspace_size == (4 * outer * plan.pieces * inner if plan.pieces > 1 else 0)
    if inner == 1:  # rows: the pass suits the piece each launch sums, and the finish exists only when split
        assert plan.chunk == tl_sum.row_chunk(dtype, length // plan.pieces)
        assert (plan.finish_chunk > 0) == (plan.pieces > 1)


@pytest.mark.parametrize("outer,length,inner,dtype,lanes,pieces", [
    (1, 32768, 4096, "bfloat16", True, 32),  # 16 lane blocks x 32 pieces: 512 blocks, under 5 an SM on 132 SMs
    (1, 32768, 4096, "float32", True, 16),   # fp32 packs hold 4 columns: 32 lane blocks
    (1, 262144, 256, "float16", True, 512),
    (6, 700, 48, "float32", False, 4),        # 48 columns: not whole blocks of 32 packs
    (1, 4100, 4096, "float16", False, 4),     # 4 pieces of 1025 rows: not whole steps of 64, so the tile kernels
    # the edge rule (run is): rows under SPLIT_ROWS x the unsplit grid's share of a wave stay whole
    (1, 256, 65536, "bfloat16", True, 1), (1, 512, 81920, "bfloat16", True, 1), (1, 256, 32768, "float32", True, 1),
    (1, 512, 65536, "bfloat16", True, 2),    # 256 lane blocks fill 39 % of a wave: 512 rows still split
])
def test_reduce_sum_plan_takes_the_lanes_kernel_for_whole_lane_blocks_and_steps(outer, length, inner, dtype, lanes,
                                                                                pieces):
    plan = tl_sum.plan(outer, length, inner, dtype, sm_count=132)
    assert (plan.lanes, plan.pieces) == (lanes, pieces)
    if lanes:
        assert tl_sum.lanes_fit(length, inner, dtype, plan.pieces)
        blocks = outer * inner // (tl_sum.LANE_PACKS * tl_sum.pack_width(dtype)) * plan.pieces
        assert blocks <= tl_sum.LANES_BLOCKS_PER_SM * 132  # one wave at most
    # the tile sweep's variants keep the tile kernels' plan (16 blocks of 128 an SM)
    tiles = tl_sum.plan(outer, length, inner, dtype, sm_count=132, lanes=False)
    assert not tiles.lanes
    assert tiles.pieces == tl_sum.split_count(outer * -(-inner // tl_sum.BLOCK_C), length, tl_sum.MIN_COLUMN_PIECE,
                                              tl_sum.BLOCKS_PER_SM * 132)


@pytest.mark.parametrize("n,dtype,parts", [
    (65536, "float16", 2), (65536, "bfloat16", 2),  # 2 parts of 512 threads x 8 packs, held in shared memory
    (131072, "float16", 4), (196608, "bfloat16", 6), (262144, "float16", 8), (262144, "bfloat16", 8),
    (65536, "float32", None), (262144, "float32", None), (65528, "float16", None), (262136, "bfloat16", None),
    (98304, "float16", 3), (163840, "bfloat16", 5), (229376, "float16", 7), (32768, "bfloat16", None),
    (294912, "float16", None)])
def test_cluster_smem_parts_only_where_timed(n, dtype, parts):
    # The shared-memory cluster kernel was timed at rows of 65536 halves (session 30, run ez: 80.6 -> 72.5 us), of
    # 262144 (session 31, run fg: 89.0 -> 77.3), 131072 and 196608 (run fh: 82.9 -> 74.9, 91.0 -> 75.9), 98304 (session
    # 33, run fq: 83.5 -> 74.7), 163840 and 229376 (run fr); 9 parts (294912) is not taken untimed.
    assert tl_cluster.cluster_smem_parts(n, dtype) == parts


@pytest.mark.parametrize("n,dtype,threads", [
    (4096, "float16", 256), (256, "float16", 32),  # powers of two: config(n)'s threads
    (16384, "bfloat16", 256),  # config(n)'s 512, capped at PACKED_MAX_THREADS (run he)
    (2304, "float16", 32), (1536, "bfloat16", 64), (1280, "float16", 32),  # the largest power of 2 dividing the packs
    (128, "float16", None),    # 16 packs: fewer than 32 threads
    # packs that no power of two of at least 32 threads divides (or only at more than 96 values a thread, as 11520's
    # 1440 packs at 32 threads): config(n)'s threads up to PACKED_MAX_THREADS, the last packs masked
    (11520, "float16", 256), (1000, "float16", 128), (4104, "bfloat16", 256), (10000, "bfloat16", 256),
    (8200, "float16", 256), (16376, "bfloat16", 256), (200, "float16", None),  # 25 packs: fewer than 32
    (4096, "float32", None), (65536, "float16", None)])  # fp32: no packed kernel; longer rows: split kernels
def test_packed_softmax_threads(n, dtype, threads):
    assert tl_softmax.packed_threads(n, dtype) == threads


@pytest.mark.parametrize("n,dtype,rows,tpr", [
    (64, "float16", 1024, 8), (32, "float32", 1024, 8),  # up to 8 threads a row: at any row count
    (24, "float32", 100, 8), (24, "bfloat16", 100, 4),  # 6 and 3 packs: rounded up to a power of two
    (4, "float32", 1, 1), (8, "float16", 1, 1),  # one pack a row
    (128, "bfloat16", 4224, None), (128, "bfloat16", 4225, 16),  # 16 threads: past half a wave (528 blocks of 8 rows)
    (64, "float32", 4224, None), (64, "float32", 4225, 16),
    (128, "float32", 1 << 20, None),  # 32 threads a row: never
    (100, "bfloat16", 1 << 20, None), (2, "float32", 1 << 20, None),  # not whole packs: the warp-a-row kernel
    (256, "float16", 1 << 20, None)])  # longer than SHORT_ROW_MAX
def test_packed_short_row_threads(n, dtype, rows, tpr):
    assert tl_sum.short_rows_packed_threads(n, dtype, rows, sm_count=132) == tpr


@pytest.mark.parametrize("n,dtype,packs", [
    (512, "float16", 2), (768, "bfloat16", 3), (1024, "float16", 4),  # whole lanes of packs
    (264, "float16", 2), (1000, "bfloat16", 4), (520, "float16", 3),  # the last lanes' packs clamped
    (1032, "float16", 5), (1536, "bfloat16", 6), (2048, "float16", 8),  # 5-8 a lane (warp_row_plan: by rows)
    (256, "float16", None), (2056, "float16", None),  # one pack a lane (short-row shapes); 9 a lane (the block)
    (1020, "float16", None), (512, "float32", None)])  # not whole packs; fp32 reads 4-byte words already
def test_warp_row_packs(n, dtype, packs):
    assert tl_sum.warp_row_packs(n, dtype) == packs
    if packs:  # the row's packs fill the last pass of the warp's lanes
        assert 32 * (packs - 1) < n // 8 <= 32 * packs


@pytest.mark.parametrize("n,dtype,rows,plan", [
    (1024, "float16", 2048, (4, True)), (512, "bfloat16", 20000, (2, False)),  # 2-4: short_rows_trigger_early,
    (1024, "float16", 1024, (4, False)), (768, "float16", 272, (3, False)),  # at exit from a quarter of the SMs'
    (512, "float16", 264, (2, True)), (1000, "bfloat16", 1056, (4, False)),  # blocks to one an SM
    (1024, "bfloat16", 1064, (4, True)),
    (1280, "float16", 144, (5, True)), (1536, "bfloat16", 264, (6, True)),  # a quarter of the SMs at most: early
    (2048, "float16", 144, None), (1800, "float16", 264, None),  # 8 packs there: the block kernel
    (1280, "float16", 272, (5, False)), (1536, "float16", 4080, (6, False)),  # between: at exit
    (2048, "bfloat16", 8448, (8, False)), (1032, "float16", 8456, (5, True)),  # past one wave of 8 an SM: early
    (1280, "float16", 16896, (5, True)), (1280, "float16", 16904, (5, False)),  # past two waves: at exit
    (2056, "float16", 4096, None), (1024, "float32", 4096, None)])  # 9 packs a lane; fp32
def test_warp_row_plan(n, dtype, rows, plan):
    assert tl_sum.warp_row_plan(n, dtype, rows, sm_count=132) == plan


@pytest.mark.parametrize("n,dtype,rows,packs", [
    (512, "float16", 4096, 2), (264, "bfloat16", 1056, 2), (400, "float16", 131072, 2),  # 2 packs a lane
    (512, "float16", 1048, None), (264, "bfloat16", 256, None),  # fewer 8-row blocks than the 132 SMs (131, 32)
    (1024, "bfloat16", 4096, 4), (1000, "float16", 3300, 4),  # 4 packs a lane from 2.5 8-row blocks an SM (330)
    (1024, "float16", 2632, None), (1024, "float16", 2048, None), (1000, "float16", 1100, None),  # fewer (256, 137)
    (520, "float16", 4096, None), (768, "float16", 8192, None),  # 3 packs a lane lost
    (256, "float16", 4096, None), (512, "float32", 4096, None)])  # one pack a lane; fp32
def test_softmax_warp_rows_packs(n, dtype, rows, packs):
    assert tl_softmax.warp_rows_packs(n, dtype, rows, sm_count=132) == packs


@pytest.mark.parametrize("n,dtype,shape", [
    (2048, "float16", (128, 2)), (65536, "bfloat16", (128, 2)),  # whole default passes: the default shape
    (1024, "float16", (128, 1)), (1536, "bfloat16", (64, 3)), (2304, "float16", (32, 3)), (1280, "float16", (32, 5)),
    (3072, "bfloat16", (128, 3)), (2560, "float16", (64, 5)),
    (1000, "float16", None),  # 125 packs: no power of two of 32 or more divides them
    (100, "float16", None), (4096, "float32", None)])  # not whole packs; fp32 reads 4-byte words already
def test_packed_row_shape(n, dtype, shape):
    assert tl_sum.packed_row_shape(n, dtype) == shape
    if shape:  # every pack held, none masked: the row is whole passes of threads x packs
        threads, packs = shape
        assert (n // 8) % (threads * packs) == 0 and threads & (threads - 1) == 0 and 32 <= threads <= 128


@pytest.mark.parametrize("n,dtype,shape", [
    (10000, "float16", (128, 2)), (1000, "bfloat16", (128, 1)),  # 1250 and 125 packs: no power of two >= 32 divides
    (200, "float16", (128, 1)),  # 25 packs, shorter than a pass
    (2048, "float16", None), (2304, "bfloat16", None),  # held unmasked (packed_row_shape)
    (100, "float16", None), (10000, "float32", None)])  # not whole packs; fp32 reads 4-byte words already
def test_masked_row_shape(n, dtype, shape):
    assert tl_sum.masked_row_shape(n, dtype) == shape


@pytest.mark.parametrize("n,dtype,rows,shape", [
    (2304, "float16", 1008, (128, 3)), (2304, "bfloat16", 264, (128, 3)),  # 288 packs: a warp's 32 x 3 in 3 passes
    (2304, "float16", 1320, (128, 3)), (2304, "float16", 1321, None),  # 3 passes: to 10 rows an SM (run ke)
    (3840, "bfloat16", 500, (128, 4)),  # 480 packs: 32 x 5 in 3 passes; one pass of 512 packs, 32 masked
    (3840, "bfloat16", 1320, (128, 4)), (3840, "bfloat16", 1321, None),
    (2816, "float16", 2640, (128, 3)), (2816, "bfloat16", 5280, (128, 3)),  # 352 packs: 32 x 1 in 11 passes
    (2816, "float16", 5281, None),  # 11 passes: to 40 an SM (run kk)
    (3328, "bfloat16", 2640, (128, 4)), (3328, "bfloat16", 2641, None),  # 416 packs: 13 passes
    (2560, "float16", 1008, None), (3584, "bfloat16", 1008, None),  # 64 x 5, 64 x 7: one pass already
    (4352, "float16", 100, None),  # 544 packs: more than 4 a thread of 128
    (2304, "float32", 1008, None)])  # fp32 reads 4-byte words already
def test_few_rows_one_pass_shape(n, dtype, rows, shape):
    assert tl_sum.few_rows_one_pass_shape(n, dtype, rows, sm_count=132) == shape


@pytest.mark.lowering
@pytest.mark.parametrize("n,shape_of", [(1000, "masked"), (10000, "masked"), (2304, "one_pass"), (3840, "one_pass")])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_masked_row_sum_keeps_16_byte_loads(dtype, n, shape_of):
    # 16-bit rows that no unmasked pass shape holds sum whole passes, then one pass whose loads are clamped to the
    # row's last pack (so each stays one 16-byte access) and whose packs past the row add 0. Few rows that a warp
    # would sum in several passes take that one masked pass alone (few_rows_one_pass_shape).
    shape = (tl_sum.masked_row_shape(n, dtype) if shape_of == "masked"
             else tl_sum.few_rows_one_pass_shape(n, dtype, rows=1008, sm_count=132))
    src = lower(tl_sum.reduce_rows_packed_program(dtype, "", *shape, True))
    loads = re.findall(r"= \*\(uint4\*\)\(x \+ [^;]*;", src)
    assert len(loads) >= 2 and any("min(" in ld for ld in loads), loads  # the whole passes' and the clamped one
    assert not re.search(r"\bx\[", src)  # no element-wise access


@pytest.mark.parametrize("n,dtype,rows,tpr", [
    (128, "float32", 4224, None), (128, "float32", 4225, 32),  # past half a wave (528 blocks of 8 rows on 132 SMs)
    (128, "bfloat16", 1 << 20, 16), (24, "float16", 1 << 20, 4), (8, "float16", 1 << 20, 1),
    (32, "float32", 100, None),  # few rows: the warp-a-row kernel at any length
    (100, "bfloat16", 1 << 20, None), (200, "float32", 1 << 20, None)])  # not whole packs; longer than 128
def test_packed_short_softmax_threads(n, dtype, rows, tpr):
    assert tl_softmax.short_rows_packed_threads(n, dtype, rows, sm_count=132) == tpr


@pytest.mark.parametrize("n,dtype,parts", [
    (65536, "float16", 4), (262144, "bfloat16", 16), (65536, "float32", 8),  # a part is 32 KB
    (32768, "float16", 2), (16400 * 2, "float32", None),  # at least 2 parts; parts of whole 4096-element steps
    (262144, "float32", None),  # 32 parts of 32 KB: more than a cluster holds, so the split pair
    (65537, "float16", None), (100000, "bfloat16", None)])
def test_cluster_softmax_parts(n, dtype, parts):
    assert tl_cluster.cluster_parts(n, dtype) == parts
    if parts:
        assert n * (4 if dtype == "float32" else 2) <= parts * tl_cluster.CLUSTER_PART_BYTES
        assert (n // parts) % tl_softmax.packed_step(dtype)[1] == 0


@pytest.mark.parametrize("n,dtype,threads", [
    (65536, "float16", 512), (32768, "bfloat16", 512), (131072, "float16", 512),  # 4, 2 and 8 parts (session 22)
    (49152, "float16", 256),  # 4 parts of 12288: not whole steps of 512 threads
    (262144, "bfloat16", 256),  # 16 parts: 512 lost there
    (65536, "float32", 256)])  # fp32 parts: not measured
def test_cluster_softmax_threads(n, dtype, threads):
    parts = tl_cluster.cluster_parts(n, dtype)
    assert parts and tl_cluster.cluster_threads(n, dtype, parts) == threads
    assert (n // parts) % (threads * tl_softmax.SPLIT_VALUES) == 0  # every part is whole steps of the block


@pytest.mark.parametrize("n,parts", [(32768, 2), (65536, 4), (131072, 8), (65536 + 16384, 5), (262144, 16),
                                     (70000, None), (16384, None), (524288, None)])
def test_cluster_registers_parts(n, parts):
    assert tl_cluster.cluster_registers_parts(n, "float32") == parts
    assert tl_cluster.cluster_registers_parts(n, "bfloat16") is None  # 16-bit rows: the packed cluster kernel


@pytest.mark.lowering
@pytest.mark.parametrize("program,args,combines_in_warps", [
    (tl_softmax.softmax_stats_program, ("float32",), False),
    (tl_softmax.softmax_stats_packed_program, ("bfloat16",), False),
    (tl_cluster.softmax_cluster_packed_program, ("float16", 16), False),
    (tl_cluster.softmax_cluster_packed_program, ("bfloat16", 4, tl_cluster.CLUSTER_WIDE_THREADS), False),
    (tl_cluster.softmax_cluster_registers_program, ("float32", 4), False),
    (tl_cluster.softmax_cluster_registers_program, ("float32", 8), False),
    (tl_cluster.softmax_cluster_registers_program, ("float32", 16), True),
    (tl_cluster.softmax_cluster_registers_program, ("float32", 16, 2), False)])  # the sweep's registers16_u2
def test_long_row_part_statistics_reduce_by_warp_shuffles(program, args, combines_in_warps):
    # Session 23: write_part_stats' two block reductions by warp shuffles and one shared row, not tl::AllReduce
    # (a butterfly through shared memory, two barriers a level above 32 lanes); each is two warp reductions
    # (the warps', then their row's). Only the 16-part registers kernel combines the cluster's pairs in warps
    # (two more); at 4 and 8 parts the serial combine, fully unrolled, won (runs df, dg).
    src = lower(program(*args))
    assert "tl::AllReduce" not in src
    assert src.count("tl::warp_reduce_max") == 2 + combines_in_warps
    assert src.count("tl::warp_reduce_sum") == 2 + combines_in_warps


@pytest.mark.lowering
@pytest.mark.parametrize("program,dtype,parts,threads", [
    (tl_cluster.softmax_cluster_packed_program, "float16", 4, tl_cluster.CLUSTER_WIDE_THREADS),
    (tl_cluster.softmax_cluster_packed_program, "bfloat16", 16, tl_softmax.SPLIT_THREADS),
    (tl_cluster.softmax_cluster_packed_program, "float32", 8, tl_softmax.SPLIT_THREADS),
    (tl_cluster.softmax_cluster_registers_program, "float32", 4, None),
    (tl_cluster.softmax_cluster_registers_program, "float32", 8, None)])
def test_cluster_softmax_gives_the_exchanged_pairs_bytes_of_their_own(program, dtype, parts, threads):
    # The release start, which the packed and shared-memory kernels take (the registers kernel since session 47 only
    # as the sweep's `_release` arm: the next test covers its relaxed start).
    # The race of session 10's first run, checked where CI can see it: TileLang's shared-memory planner gave
    # the buffer that other blocks write into (`every`) the bytes of the block reductions' workspace, so a
    # block that arrived at the kernel's start let early blocks corrupt late blocks' sums. Since session 21 the
    # blocks arrive at the start again, which is right only because `every` is written first (start_exchange):
    # no other shared buffer may share its bytes, the arrive must release that write, and the wait must come
    # before any remote store.
    src = lower(program(dtype, parts, *([threads] if threads else []), relaxed_start=False))
    declared = re.findall(r"void\* (\w+) = \(\(void\*\)\(\(char\*\)buf_dyn_shmem \+ (\d+)\)\)", src)
    offsets = {name: int(off) for name, off in declared}
    start = offsets.pop("every")
    end = start + parts * 2 * 4  # (parts, 2) fp32
    assert offsets, "the kernel's other shared buffers were not found in the lowered source"
    assert all(off >= end for off in offsets.values()), (start, end, offsets)  # every comes first, alone
    # The planner may give `mine` bytes of `red` (write_part_stats' (2, warps) rows, dead after their last read):
    # only the first row's are safe. Every thread has read row 0 before the barrier that precedes row 1's reads,
    # and thread 0 writes mine after that barrier, while other warps may still be reading row 1.
    warps = (threads or tl_cluster.REGS_THREADS) // 32
    red, mine = offsets["red"], offsets["mine"]
    row1 = (red + warps * 4, red + 2 * warps * 4)
    assert mine + 8 <= row1[0] or mine >= row1[1], (mine, row1)
    first_remote_write = src.index("map_shared_rank")
    before = src[:first_remote_write]
    assert "cluster_arrive_relaxed" not in src  # a relaxed arrive would not order the clear before remote stores
    reductions = [r.start() for r in re.finditer(r"tl::warp_reduce_", before)]  # write_part_stats' (session 23)
    assert reductions
    arrive = before.index("tl::cluster_arrive()")
    assert re.search(r"\(\(float\*\)every\)\[.*\] = ", before[:arrive])  # the clear, before the arrive ...
    assert arrive < reductions[0]  # ... at the start, before the statistics' block reductions
    assert before.rindex("tl::cluster_wait()") > reductions[-1]  # the wait before any remote store
    after = src[first_remote_write:]
    local_read = re.search(r"\(\(float\*\)every\)\[\(", after)  # every[q, ...] read back, not the remote store
    assert local_read and "tl::cluster_sync()" in after[:local_read.start()]  # every pair arrived before any read


@pytest.mark.lowering
@pytest.mark.parametrize("program,args", [
    (tl_cluster.softmax_cluster_registers_program, ("float32", 16)),
    (tl_cluster.softmax_cluster_registers_program, ("float32", 4)),
    (tl_cluster.softmax_cluster_smem_program, ("float16", 8, True)),
    (tl_cluster.softmax_cluster_packed_program, ("bfloat16", 16, tl_softmax.SPLIT_THREADS, True))],
    ids=["registers16", "registers4", "smem8-relaxed", "packed16-relaxed"])
def test_relaxed_start_needs_no_clear_because_no_buffer_shares_bytes(program, args):
    # The relaxed start (the registers kernel's since session 47, the others' sweep arm): no clear of `every` and a
    # relaxed arrive, right only because NO_REUSE gives every shared buffer bytes of its own, so no remote store can
    # land in a workspace this block still uses. The wait still comes before the first remote store, and the sync
    # before `every` is read back. The library's registers kernel is compiled with NO_REUSE.
    from tilelang import tvm

    assert tl_cluster.NO_REUSE.items() <= tl_cluster.softmax_cluster_registers_into.pass_configs.items()
    with tvm.transform.PassContext(config=tl_cluster.NO_REUSE), tvm.target.Target(TARGET):
        src = tilelang.lower(program(*args), target=TARGET).kernel_source
    declared = re.findall(r"void\* (\w+) = \(\(void\*\)\(\(char\*\)buf_dyn_shmem \+ (\d+)\)\)", src)
    sizes = {"every": args[1] * 2 * 4, "mine": 8}
    spans = sorted((int(off), name) for name, off in declared)
    assert [name for _, name in spans][:1] == ["every"] and "red" in dict(declared)
    for (off, name), (next_off, _) in zip(spans, spans[1:]):  # no two buffers overlap
        assert off + sizes.get(name, 1) <= next_off, spans
    first_remote_write = src.index("map_shared_rank")
    before = src[:first_remote_write]
    assert "tl::cluster_arrive_relaxed()" in before and "tl::cluster_arrive()" not in before
    assert not re.search(r"\(\(float\*\)every\)\[.*\] = ", before)  # no clear
    assert before.index("tl::cluster_arrive_relaxed()") < before.rindex("tl::cluster_wait()")
    assert "tl::cluster_sync()" in src[first_remote_write:]


@pytest.mark.lowering
@pytest.mark.parametrize("parts", tl_cluster.SMEM_PART_COUNTS, ids=lambda p: f"parts-{p}")
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_smem_cluster_kernel_holds_its_part_at_three_blocks_an_sm(dtype, parts, tmp_path):
    # TileLang's twin of our CUDA's cluster_smem_held (2 blocks a row of 65536 halves, each holding its 64 KB part
    # in shared memory; session 30, run ez: 80.6 -> 72.5 us). It only pays at three blocks an SM (held rows at two
    # lost 16 % in our CUDA, run eq): TileLang gave it 48 registers until T.annotate_min_blocks_per_sm(3) asked
    # for 40. This keeps the bound, the 16-byte accesses and no spill, at each part count the library takes (4, 6
    # and 8: rows of 131072, 196608 and 262144 halves, session 31's runs fg and fh).
    src = lower(tl_cluster.softmax_cluster_smem_program(dtype, parts))
    assert "__launch_bounds__(512, 3)" in src
    assert "*(uint4*)(x + " in src and "*(uint4*)(y + " in src
    report = ptxas_report(src, tmp_path)
    assert re.search(r"0 bytes spill stores, 0 bytes spill loads", report), report[-2000:]
    registers = int(re.search(r"Used (\d+) registers", report).group(1))
    assert registers <= 65536 // (3 * 512), registers


@pytest.mark.lowering
@pytest.mark.parametrize("n", [1000, 10000, 16376])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_masked_packed_softmax_keeps_16_byte_accesses(dtype, n, tmp_path):
    # Rows whose packs no power of two of at least 32 threads divides (10000 halves: 1250 packs) hold them in
    # config(n)'s threads with the last packs masked, instead of the element-wise kernel's 2-byte accesses (0.44x of
    # our CUDA at 4096x10000, session 41). The mask must not split a pack: the loads are clamped, not predicated, and
    # each store is guarded as a whole; and it must not spill.
    threads = tl_softmax.packed_threads(n, dtype)
    groups = n // 8
    assert threads is not None and groups % threads != 0
    src = lower(tl_softmax.softmax_packed_program(dtype, n, threads))
    assert re.search(r"= \*\(uint4\*\)\(x \+ [^;]*min\(", src)  # clamped 16-byte loads
    store = re.search(r"if \(.*\) \{\s*\*\(uint4\*\)\(y \+ ", src)  # guarded 16-byte stores
    assert store, src
    assert not re.search(r"\b(x|y)\[", src)  # no element-wise access
    report = ptxas_report(src, tmp_path)
    assert re.search(r"0 bytes spill stores, 0 bytes spill loads", report), report[-2000:]


@pytest.mark.lowering
@pytest.mark.parametrize("dtype", FLOATS)
def test_split_pair_masks_its_last_step_by_whole_packs(dtype):
    # Parts of whole packs that are not whole 4096-element steps (rows of 20000 or 24000 halves in one part, 40000
    # in four of 10000) end in one masked step instead of running the element-wise pair's 2-byte accesses. The mask
    # must not split a pack: loads clamped to the part's last pack, each store guarded whole.
    word = "float4" if dtype == "float32" else "uint4"
    stats = lower(tl_softmax.softmax_stats_packed_program(dtype, True))
    apply = lower(tl_softmax.softmax_apply_packed_program(dtype, 4, True))
    for src in (stats, apply):
        assert re.search(rf"= \*\({word}\*\)\(x \+ \(\(min\(", src), src  # the masked step's clamped loads
        assert not re.search(r"\b(x|y)\[", src)  # no element-wise access
    assert re.search(rf"if \(.*< groups\) \{{\s*\*\({word}\*\)\(y \+ ", apply), apply  # guarded whole-pack stores
    # the whole steps stay as they were: the unmasked kernel's loop is in the masked one
    assert len(re.findall(rf"\*\({word}\*\)\(x \+ ", stats)) == 2


@pytest.mark.lowering
@pytest.mark.parametrize("op,packs", [(op, packs) for op in ("reduce_sum", "softmax") for packs in (2, 3, 4)]
                         + [("reduce_sum", packs) for packs in (6, 8)])
def test_warp_rows_load_every_pack_of_a_lane_before_reducing(op, packs):
    # 16-bit rows of 264-1024 (warp_row_packs), a warp a row: each lane's packs are 16-byte loads of consecutive
    # packs across the warp (pack i * 32 + lane), clamped, all issued before the warp's first reduction; the softmax
    # stores its packs whole, each guarded by the row's end.
    program = {"reduce_sum": tl_sum.reduce_short_rows_packed_program,
               "softmax": tl_softmax.softmax_short_rows_packed_program}[op]
    src = lower(program("float16", 32, False, packs))
    loop = re.search(rf"for \(int i = 0; i < {packs}; \+\+i\) \{{(.*?)\n  \}}", src, re.S)
    lane_pack = r"\*\(uint4\*\)\(x \+ \(\(min\(\(\(\(\(int64_t\)i\) \* \(int64_t\)32\) \+ .*& \(int64_t\)31"
    assert loop and re.search(lane_pack, loop.group(1)), src
    assert src.index("AllReduce") > loop.end()
    assert not re.search(r"\b(x|y)\[", src)  # no element-wise access
    if op == "softmax":
        assert re.search(r"if \(.*< groups\).*\s*\*\(uint4\*\)\(y \+ ", src), src
