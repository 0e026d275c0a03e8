"""The TileLang cluster-softmax sweep's variant names, on the CPU: every name the sweep generates, and every
name scripts/ncu_profile.sh hands it, must parse, so that a GPU session does not spend device time on a typo
(session 12 wrote `registers16_unrolled`, which the parser read as an unroll count)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import torch

if importlib.util.find_spec("tilelang") is None:
    pytest.skip("tilelang not installed (pip install 'operator-runtime[tilelang]')", allow_module_level=True)

from operator_runtime.tilelang import softmax as tl_softmax  # noqa: E402
from operator_runtime.tilelang import softmax_cluster as tl_cluster  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _sweep():
    spec = importlib.util.spec_from_file_location("tilelang_softmax_cluster",
                                                  ROOT / "tests/bench/sweeps/tilelang_softmax_cluster.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sweep = _sweep()


@pytest.mark.parametrize("n", [n for _, n in sweep.SHAPES])
@pytest.mark.parametrize("dtype", sweep.DTYPES, ids=str)
def test_every_generated_variant_parses_to_the_librarys_part_count(n, dtype):
    names = sweep.variants(n, dtype)
    assert names[:2] == ["library", "split"]
    assert len(names) > 2  # the bench's long rows all have a cluster kernel to compare
    dt = str(dtype).removeprefix("torch.")
    parts = tl_cluster.cluster_registers_parts(n, dt) or tl_cluster.cluster_parts(n, dt)
    smem = tl_cluster.cluster_smem_parts(n, dt)
    other = sweep.parse_variant(names[2])  # the library's kernel with the other start than its own
    assert other.fast_math and other.parts == (smem or parts)
    assert other.program == ("registers" if dtype == torch.float32 else "smem")
    assert other.start == ("release" if dtype == torch.float32 and tl_cluster.REGS_RELAXED_START else "relaxed")
    for name in names[3:]:
        v = sweep.parse_variant(name)
        assert v.start is None
        if v.program == "smem":  # the library's kernel for 16-bit rows of 65536 without fast math, or a candidate
            part = sweep.SMEM_PART_F32 if dtype == torch.float32 else sweep.SMEM_PART  # 64 KB of either
            assert v.parts * part == n
            assert v.fast_math == (not smem)
            continue
        assert v.parts == parts
        assert v.program == ("registers" if dtype == torch.float32 else "packed")
        assert v.fast_math == (not name.endswith("_precise"))
        assert v.unroll is None or v.unroll >= 0
        if v.threads:  # another block size than the library's, of whole steps
            assert smem or v.threads != tl_cluster.cluster_threads(n, dt, parts)
            assert (n // parts) % (v.threads * tl_softmax.SPLIT_VALUES) == 0
    # 16-bit rows of 65536 and 262144 hold their parts in shared memory; the sweep still times the packed kernel
    # each replaced, and the library's shared-memory kernel without fast math last
    assert bool(smem) == (dtype != torch.float32)
    if smem:
        assert f"packed{parts}_t{tl_cluster.cluster_threads(n, dt, parts)}" in names
        assert names[-1] == f"smem{smem}_precise"


@pytest.mark.parametrize("name,parsed", [
    ("registers16_u0", ("registers", 16, 0, None, True, None)),
    ("registers16", ("registers", 16, None, None, True, None)),
    ("registers4_precise", ("registers", 4, None, None, False, None)),
    ("packed16_precise", ("packed", 16, None, None, False, None)),
    ("packed16_t512", ("packed", 16, None, 512, True, None)),
    ("smem2", ("smem", 2, None, None, True, None)),
    ("smem8_relaxed", ("smem", 8, None, None, True, "relaxed")),
    ("registers16_release", ("registers", 16, None, None, True, "release")),
])
def test_variant_names(name, parsed):
    assert sweep.parse_variant(name) == parsed


@pytest.mark.parametrize("name", ["registers16_unrolled", "packed4_u2", "registers4_t512", "packed4_t", "smem8_acquire",
                                  "registers_u1", "split4", "registersX", "smem2_t512"])
def test_bad_variant_names_are_refused(name):
    with pytest.raises(ValueError, match="variant"):
        sweep.parse_variant(name)


def test_the_ncu_script_names_only_variants_that_parse():
    # Cluster variants parse (the sweep offers only some unrollings, the profiler takes any); the library, the
    # one-pass kernels and the warp a row must be offered at the line's shape and dtype (else --profile's defaults).
    script = (ROOT / "scripts/ncu_profile.sh").read_text()
    profiled = re.findall(r"tilelang_softmax_cluster\.py --profile (\S+)(?: --shape (\S+))?(?: --dtype (\S+))?", script)
    assert profiled
    for name, shape, dtype in profiled:
        if name in ("library", "warp") or name.startswith(("onepass_t", "rows_t")):
            n = int((shape or "256x262144").split("x")[1])
            assert name in sweep.variants(n, getattr(torch, dtype or "float32")), (name, shape, dtype)
        else:
            sweep.parse_variant(name)


@pytest.mark.parametrize("n", [6000, 8200, 10000, 12296, 16376, 16384])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_one_pass_rows_time_other_block_sizes_that_hold_the_row(n, dtype):
    # Rows the one-pass packed kernel holds: the sweep offers that kernel in every other power-of-two block whose
    # threads each hold at most PACKED_MAX_VALUES values and at least one pack (session 42: masked rows of 8200-12296
    # halves leave 511 pack slots of 512 x 3-4 empty; 256 threads leave 255).
    names = sweep.variants(n, dtype)
    library = tl_softmax.packed_threads(n, str(dtype).removeprefix("torch."))
    assert names[0] == "library" and len(names) > 1
    assert f"onepass_t{tl_softmax.PACKED_MAX_THREADS}" not in names  # the library's count at these lengths
    for name in names[1:]:
        threads = int(name.removeprefix("onepass_t"))
        assert threads != library and threads & (threads - 1) == 0
        assert -(-(n // 8) // threads) * 8 <= tl_softmax.PACKED_MAX_VALUES


@pytest.mark.parametrize("n,offered", [(264, True), (400, True), (512, True), (1024, True), (1000, True),
                                       (768, False), (520, False)])
def test_warp_rows_time_the_one_pass_kernel_they_ran_before(n, offered):
    # 16-bit rows the library runs a warp a row in large grids (softmax.warp_rows_packs: 2 or 4 packs a lane): the
    # one-pass kernel in its own block size (packed_threads) is another kernel, so the sweep offers it beside the
    # library; at 3 packs a lane the library keeps that kernel, which "library" already times.
    names = sweep.variants(n, torch.float16)
    assert names[0] == "library"
    assert (f"onepass_t{tl_softmax.packed_threads(n, 'float16')}" in names) == offered


@pytest.mark.parametrize("n,warp", [(520, True), (768, True), (1024, True), (512, False), (264, False), (1032, False)])
def test_warp_variant_where_the_library_keeps_the_one_pass_kernel(n, warp):
    # 3-4 packs a lane: `warp` times the warp-a-row kernel at any row count (the library declines it at 3 packs, and
    # at 4 below 2.5 blocks an SM: softmax.SOFTMAX_WARP_BLOCKS_PER_SM); at 2 packs the library runs it from one
    # block an SM, which `library` times; past 4 it cannot.
    assert ("warp" in sweep.variants(n, torch.float16)) == warp


@pytest.mark.parametrize("n,rows", [(1024, ["rows_t64", "rows_t128"]), (1000, []), (768, []), (520, []), (512, [])])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_warp_rows_also_time_more_threads_a_row(n, dtype, rows):
    # perf-notes 0h: where a warp a row has 3-4 packs a lane, the sweep also times 64 and 128 threads a row of
    # whole packs (2 and 1 a lane at 1024 halves); 1000 halves are not whole packs of 64 threads, and at 512 (2
    # packs a lane) the warp a row won everywhere
    names = sweep.variants(n, dtype)
    assert [name for name in names if name.startswith("rows_t")] == rows
    assert ("warp" in names) == (n in (1024, 1000, 768, 520))
