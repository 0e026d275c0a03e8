"""Sweep: the TileLang reduce_sum kernels' tile sizes on the benchmark's shapes, so that the choices in
src/operator_runtime/tilelang/reduce_sum.py (elements a row pass reads, rows a column tile loads) are
measured, not guessed. Every variant is first checked against torch, then timed (CUDA graph replays).
The split into pieces is the descriptor's own (tilelang/descriptors.py, tl_sum.plan), so only the tile varies.

    python tests/bench/sweeps/tilelang_reduce_sum.py > tilelang_reduce_sum.csv   (needs tilelang and a GPU;
    scripts/gpu_check.sh --sweep runs it when SWEEPS names it)
    python tests/bench/sweeps/tilelang_reduce_sum.py --only rows --dtypes float16 --shapes 4096x1024 16384x512

16-bit rows a warp a row can take (tl_sum.warp_row_packs: 2-8 packs a lane; sessions 43 and 45) also time `block`,
the one-block-a-row packed kernel (128 threads, one 16-byte load a thread at 1024 halves), and `warp`, the warp a row
with the trigger at exit (`packed` is whatever the library picks: tl_sum.warp_row_plan); 16-bit rows of one pack a
lane past the short rows (136-256 halves) time `warp`, a warp a row, which the library does not run there.
`--variants` keeps only the named ones (e.g. `packed block`). A 16-bit row of whole packs also takes `mTxP` there: the
masked packed row kernel at T threads and P packs a thread a pass (whole passes, then one masked pass), whatever the
library's own pass shape (session 60: 2304 halves run 32 x 9 in three passes, one warp a row), and `block` when
named: the pass shape of packed_row_shape / masked_row_shape alone, the path before the few-rows rule
(tl_sum.few_rows_one_pass_shape; session 61's run kb could not time it at 3328 / 3840 halves without this).
"""

from __future__ import annotations

import argparse
import csv
import logging
import re
import sys

import torch

from operator_runtime._internal.tensor_meta import describe
from operator_runtime.tilelang import reduce_sum as tl_sum
from operator_runtime.tilelang.descriptors import ReduceSum
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.timing import rotation_count, time_cuda

ROW_SHAPES = ((4096, 128), (4096, 1024), (4080, 1536), (4096, 4096), (1024, 65536), (256, 262144))
ROW_CHUNKS = (128, 256, 1024, 2048, 4096, "packed")
COLUMN_SHAPES = ((32768, 4096),)
COLUMN_TILES = ((16, 256), (8, 256), (16, 512), (8, 512), (4, 512), "packed")  # (rows a tile, columns a block)
DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _swap_tile(desc: ReduceSum, x: torch.Tensor, variant) -> None:
    """The descriptor's element-wise first kernel with its tile replaced by `variant`: the row pass for row
    sums, (rows a tile, columns a block) for column sums. A column block width changes the plan (blocks per
    piece), so the plan is re-made with it, as the tile kernels' plan (not the lanes kernel's)."""
    desc._packed = None
    dt = _name(x.dtype)
    if desc._inner == 1:
        desc._kernel = tl_sum.reduce_rows_into(dt, "float32" if desc._pieces > 1 else dt, variant)
        return
    row_tile, block_c = variant
    sm_count = torch.cuda.get_device_properties(x.device).multi_processor_count
    p = tl_sum.plan(desc._outer, desc._length, desc._inner, dt, sm_count, block_c, lanes=False)
    desc._pieces, desc.workspace_size = p.pieces, p.workspace_size
    desc._kernel = tl_sum.reduce_columns_into(dt, "float32" if p.pieces > 1 else dt, row_tile, block_c)
    desc._finish = tl_sum.reduce_columns_into("float32", dt, tl_sum.ROW_TILE, block_c) if p.pieces > 1 else None


def row_variants(n: int, dtype: torch.dtype) -> list:
    """The row-pass variants of a row of n elements: every chunk, then `block` (the kernel it ran before) and `warp`
    where the library runs a warp a row, or `warp` for 16-bit rows of 17-32 packs (one a lane, not the library's)."""
    vec = 16 // dtype.itemsize
    if tl_sum.warp_row_packs(n, _name(dtype)):
        return [*ROW_CHUNKS, "block", "warp"]
    one_lane = dtype != torch.float32 and n % vec == 0 and 16 < n // vec <= 32
    return [*ROW_CHUNKS, *(["warp"] if one_lane else [])]


def chosen_row_variants(n: int, dtype: torch.dtype, keep: set[str]) -> list:
    """The row variants to time at a row of n: those row_variants offers (all, or the ones `keep` names), and for a
    16-bit row of whole packs the named `mTxP` and `block` wherever the library's own choice is."""
    variants = [v for v in row_variants(n, dtype) if not keep or str(v) in keep]
    if dtype != torch.float32 and n % (16 // dtype.itemsize) == 0:
        variants += sorted(v for v in keep if re.fullmatch(r"m\d+x\d+", v))
        variants += ["block"] if "block" in keep and "block" not in variants else []
    return variants


def _launcher(x: torch.Tensor, dim: int, out: torch.Tensor, variant):
    """One reduce_sum exactly as the descriptor runs it (its split, workspace and finishing kernel): as the
    library builds it for "packed" (its 16-byte kernel where it has one), else with the tile swapped; `warp` and
    `block` launch their kernel themselves (rows this short are never split). `warp` triggers the next launch as its
    blocks exit, so beside `packed` where the library runs a warp a row (early, short_rows_trigger_early) it times
    the trigger alone."""
    rows, n = x.shape
    dt, vec = _name(x.dtype), 16 // x.dtype.itemsize
    if variant == "warp":
        kernel = tl_sum.reduce_short_rows_packed_into(dt, 32, False, -(-n // (32 * vec)))
        xv = x.view(rows, n // vec, vec)
        return (lambda: kernel(xv, out)), 1
    if isinstance(variant, str) and re.fullmatch(r"m\d+x\d+", variant):  # the masked packed kernel at this pass shape
        threads, packs = map(int, variant[1:].split("x"))
        kernel = tl_sum.reduce_rows_packed_into(dt, dt, threads, packs, True)
        xv = x.view(rows, n // vec, vec)
        return (lambda: kernel(xv, out)), 1
    if variant == "block":  # the packed row kernel by the rules warp_row_plan precedes
        if shape := tl_sum.packed_row_shape(n, dt):  # called as the descriptor calls it: one jit key
            kernel = tl_sum.reduce_rows_packed_into(dt, dt, *shape)
        else:
            kernel = tl_sum.reduce_rows_packed_into(dt, dt, *tl_sum.masked_row_shape(n, dt), True)
        xv = x.view(rows, n // vec, vec)
        return (lambda: kernel(xv, out)), 1
    desc = ReduceSum(describe(out, "out"), describe(x, "x"), dim, False)
    if variant != "packed":
        _swap_tile(desc, x, variant)
    workspace = torch.empty(desc.workspace_size, dtype=torch.uint8, device=x.device) if desc.workspace_size else None
    return (lambda: desc.run(out, x, workspace=workspace)), desc._pieces


def sweep(shape: tuple[int, int], dim: int, dtype: torch.dtype, variants, kind: str, writer) -> None:
    nbytes = shape[0] * shape[1] * dtype.itemsize
    sets = rotation_count(nbytes)
    xs = [torch.randn(shape, device="cuda").to(dtype) for _ in range(sets)]
    outs = [torch.empty(shape[1 - dim], device="cuda", dtype=dtype) for _ in range(sets)]
    reference = xs[0].double().sum(dim)
    for variant in variants:
        try:
            runs = [_launcher(x, dim, o, variant) for x, o in zip(xs, outs)]
            runs[0][0]()
            assert_close(outs[0], reference, atol_scale=shape[dim] ** 0.5)
        except Exception as e:  # noqa: BLE001 - a variant that fails to compile or to match is reported, not timed
            print(f"{kind} {variant} {_name(dtype)} {shape}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        us = time_cuda([r for r, _ in runs]).median_us
        label = "x".join(map(str, variant)) if isinstance(variant, tuple) else variant
        writer.writerow([_name(dtype), f"{shape[0]}x{shape[1]}", kind, label, runs[0][1], f"{us:.2f}",
                         f"{nbytes / us / 1e3:.0f}"])
        sys.stdout.flush()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", choices=("rows", "columns"), help="sweep one kernel only")
    p.add_argument("--dtypes", nargs="+", choices=[_name(d) for d in DTYPES], help="sweep only these dtypes")
    p.add_argument("--shapes", nargs="+", metavar="ROWSxN", help="row sums of these shapes instead of the bench's")
    p.add_argument("--variants", nargs="+", metavar="VARIANT",
                   help="row variants to time, of those a shape offers (e.g. packed block warp 1024)")
    args = p.parse_args()
    keep = set(args.variants or [])
    row_shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes] if args.shapes else ROW_SHAPES
    logging.getLogger("tilelang").setLevel(logging.ERROR)  # its cache warnings go to stdout, into the CSV
    writer = csv.writer(sys.stdout)
    writer.writerow(["dtype", "shape", "kernel", "variant", "pieces", "us", "gbps"])
    for dtype in DTYPES:
        if args.dtypes and _name(dtype) not in args.dtypes:
            continue
        if args.only != "rows":
            for shape in COLUMN_SHAPES:
                sweep(shape, 0, dtype, COLUMN_TILES, "columns_tile", writer)
        if args.only != "columns":
            for shape in row_shapes:
                sweep(shape, 1, dtype, chosen_row_variants(shape[1], dtype, keep), "rows_chunk", writer)


if __name__ == "__main__":
    main()
