"""Sweep: TileLang's long-row softmax kernels on the benchmark's long rows, each against the library's choice,
so that the part counts in src/operator_runtime/tilelang/softmax_cluster.py (cluster_registers_parts, cluster_parts) and
the combine's unrolling (combine_part_stats' `unroll`) and the packed kernel's block size (cluster_threads) are
measured, not guessed; rows of at most ONE_PASS_MAX time the one-pass packed kernel's block size
(softmax.packed_threads, `onepass_t<threads>`: where its last packs are masked, other counts leave other numbers of
pack slots empty). Every variant is first
checked against torch, then timed (CUDA graph replays over rotated inputs, as the bench does).

    python tests/bench/sweeps/tilelang_softmax_cluster.py > tilelang_softmax_cluster.csv   (needs tilelang and
    a GPU; scripts/gpu_check.sh --sweep runs it when SWEEPS names it)
    python tests/bench/sweeps/tilelang_softmax_cluster.py --shapes 512x131072 --dtypes float16   (other rows)
    python tests/bench/sweeps/tilelang_softmax_cluster.py --shapes 512x131072 --variants library smem4   (fewer
        compilations)
    python tests/bench/sweeps/tilelang_softmax_cluster.py --shapes 4096x8200 4096x12296 --dtypes float16   (the
        one-pass kernel's block sizes; at 16-bit rows of 520-1024 also `warp`, a warp a row, and at 1024 halves
        `rows_t64` / `rows_t128`, 64 threads x 2 packs or 128 x 1 a row, several rows a block)
    ncu ... python tests/bench/sweeps/tilelang_softmax_cluster.py --profile registers16_u0 --shape 256x262144
        --dtype float32   (one call of one variant inside a profiler range, for Nsight Compute)
"""

import argparse
import csv
import logging
import sys
from typing import NamedTuple

import tilelang
import torch

from operator_runtime._internal.tensor_meta import describe
from operator_runtime.tilelang import reduce_sum as tl_sum
from operator_runtime.tilelang import softmax as tl_softmax
from operator_runtime.tilelang import softmax_cluster as tl_cluster
from operator_runtime.tilelang.descriptors import Softmax
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.profile_once import profile_one_call
from operator_runtime_testing.timing import rotation_count, time_cuda

SHAPES = ((1024, 65536), (256, 262144))
# Elements of a 16-bit part of the shared-memory cluster kernel. Other 16-bit rows of 3-8 whole parts time it as a
# candidate (`smem{parts}`): session 31's run fg timed `smem8` at 262144 halves (77.3 us against the packed
# kernel's 89.0), which the library takes since (tl_cluster.SMEM_PART_COUNTS); since session 33 (runs fq, fr) it
# takes every count of 2-8, so a candidate appears only if a count leaves that tuple.
SMEM_PART = tl_cluster.SMEM_THREADS * tl_cluster.SMEM_PACKS * 8
# The same 64 KB part holds half as many fp32 values. Session 34 held our CUDA's fp32 rows of 262144 in 16 CTAs of
# 64 KB (run fv: 135.6 -> 133.0 us, which left TileLang's 16-part registers kernel at 0.82x of it), so fp32 rows of
# 2-16 whole parts time the library's shared-memory kernel as a candidate (`smem{parts}`; not yet timed: lowered on
# the CPU it reads by float4, 40 registers, 8 bytes spilled).
SMEM_PART_F32 = SMEM_PART // 2

DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def variants(n: int, dtype: torch.dtype) -> list[str]:
    """'library', 'split' (the split pair, which the library runs where no cluster kernel applies), then the
    library's cluster kernel built without --use_fast_math (`_precise`), for fp32 rows held in registers with
    the serial combine's loops unrolled k times (`_u{k}`; 0: fully; at 16 parts the library combines in warps
    instead, and u2 was its choice before session 23), and for the packed kernel in blocks of the other thread
    count (`_t{threads}`; every count where the library holds 16-bit rows of 65536 in shared memory, whose
    `smem2_precise` comes last), and for other 16-bit rows of 3-8 whole 64 KB parts, and fp32 rows of 2-16, the
    library's shared-memory kernel in that many blocks (`smem{parts}`). Each variant is one TileLang compilation
    (5-15 s), hence so few."""
    dt = _name(dtype)
    if n <= tl_softmax.ONE_PASS_MAX:  # the one-pass packed kernel in blocks of other power-of-two thread counts
        threads = tl_softmax.packed_threads(n, dt)
        vec = 16 // dtype.itemsize
        groups = n // vec
        # where the library may run a warp a row (tl_softmax.warp_rows_packs, by row count), the one-pass kernel's
        # own count is another kernel too: the one it ran before; `warp` is the warp a row at any row count (at 3
        # packs a lane, one the library never takes)
        lane_packs = tl_sum.warp_row_packs(n, dt)
        may_warp = lane_packs in tl_softmax.SOFTMAX_WARP_BLOCKS_PER_SM
        own = [threads] if threads and may_warp else []
        others = [t for t in (128, 256, 512, 1024) if threads and t != threads
                  and t <= groups and -(-groups // t) * vec <= tl_softmax.PACKED_MAX_VALUES]
        warp = ["warp"] if lane_packs and 2 < lane_packs <= 4 else []
        # and at 3-4 packs, the same several-rows-a-block kernel with more threads a row and fewer packs a lane
        # (`rows_t<tpr>`, 256 / tpr rows a block): run hi asked whether warps an SM set the warp's loss at 1024-2048
        # rows (perf-notes item 0h; it did not: rows_t64 took 1.03-1.09x the one-pass kernel's time there)
        rows = [f"rows_t{t}" for t in (64, 128) if warp and groups % t == 0 and groups // t <= 4]
        return ["library"] + [f"onepass_t{t}" for t in sorted(own + others)] + warp + rows
    names = ["library", "split"]
    smem = tl_cluster.cluster_smem_parts(n, dt)
    # the library's cluster kernel with the other start (session 47: `_release`, or `_relaxed`, which builds with
    # softmax_cluster.NO_REUSE)
    if parts := tl_cluster.cluster_registers_parts(n, dt):
        names += [f"registers{parts}_{'release' if tl_cluster.REGS_RELAXED_START else 'relaxed'}"]
    elif smem:
        names += [f"smem{smem}_relaxed"]
    elif parts := tl_cluster.cluster_parts(n, dt):
        names += [f"packed{parts}_relaxed"]
    if parts := tl_cluster.cluster_registers_parts(n, dt):
        unrolls = (1, 2, 4, 8) if parts > 8 else (1,)
        names += [f"registers{parts}_u{k}" for k in unrolls] + [f"registers{parts}_precise"]
    elif parts := tl_cluster.cluster_parts(n, dt):
        # Where the library holds the row in shared memory, each packed block size is another kernel than its.
        library = None if smem else tl_cluster.cluster_threads(n, dt, parts)
        names += [f"packed{parts}_t{t}" for t in (tl_softmax.SPLIT_THREADS, tl_cluster.CLUSTER_WIDE_THREADS)
                  if t != library and (n // parts) % (t * tl_softmax.SPLIT_VALUES) == 0]
        names += [f"packed{parts}_precise"]
    # Rows no packed cluster takes (163840 and 229376 halves run the split pair without it) are candidates too:
    # run fq offered no smem5 or smem7 while this sat inside the branch above.
    if smem:
        names += [f"smem{smem}_precise"]
    elif dt != "float32" and n % SMEM_PART == 0 and 2 < n // SMEM_PART <= 8:  # the library's kernel in more blocks
        names += [f"smem{n // SMEM_PART}"]
    elif dt == "float32" and n % SMEM_PART_F32 == 0 and 2 <= n // SMEM_PART_F32 <= 16:
        names += [f"smem{n // SMEM_PART_F32}"]
    return names


class Variant(NamedTuple):
    program: str  # "registers", "packed" or "smem"
    parts: int
    unroll: int | None  # registers: the combine's unrolling; None: the library's choice
    threads: int | None  # packed: the block's threads; None: the library's choice
    fast_math: bool
    start: str | None = None  # "release" or "relaxed" (built with softmax_cluster.NO_REUSE); None: the library's


def parse_variant(variant: str) -> Variant:
    """The cluster kernel that a name such as `registers16_u2`, `registers4_precise`, `packed4_t256`,
    `packed16_precise`, `smem8_relaxed`, `registers16_release` or `smem2` stands for."""
    kind, _, option = variant.partition("_")
    program = next((name for name in ("registers", "packed", "smem") if kind.startswith(name)), "")
    digits = kind.removeprefix(program)
    number = option[1:].isdigit()
    own_option = (program, option[:1]) in (("registers", "u"), ("packed", "t")) and number
    starts = ("release", "relaxed")
    if not program or not digits.isdigit() or not (option in ("", "precise", *starts) or own_option):
        raise ValueError(f"variant: expected library, split, registers<P>[_u<k>|_precise|_<start>], "
                         f"packed<P>[_t<threads>|_precise|_<start>] or smem<P>[_precise|_<start>] (start: "
                         f"release or relaxed), got {variant!r}")
    value = int(option[1:]) if own_option else None
    return Variant(program, int(digits), value if program == "registers" else None,
                   value if program == "packed" else None, option != "precise",
                   option if option in starts else None)


def launcher(variant: str, x: torch.Tensor, out: torch.Tensor):
    rows, n = x.shape
    if variant in ("library", "split"):
        desc = Softmax(describe(out, "out"), describe(x, "x"), -1)
        if variant == "split":
            desc._cluster = None
        size = desc.workspace_size
        workspace = torch.empty(size, dtype=torch.uint8, device=x.device) if size else None
        return lambda: desc.run(out, x, workspace=workspace)
    dt, vec = _name(x.dtype), 16 // x.dtype.itemsize
    if variant == "warp":  # the library's warp-a-row kernel (softmax.warp_rows_packs) at 3-4 packs a lane, any rows
        kernel = tl_softmax.softmax_short_rows_packed_into(dt, 32, False, tl_sum.warp_row_packs(n, dt))
        xv, ov = x.view(rows, n // vec, vec), out.view(rows, n // vec, vec)
        return lambda: kernel(xv, ov)
    if variant.startswith("rows_t"):  # several rows a block, tpr threads a row of groups / tpr packs each
        tpr = int(variant.removeprefix("rows_t"))
        kernel = tl_softmax.softmax_short_rows_packed_into(dt, tpr, False, n // vec // tpr)
        xv, ov = x.view(rows, n // vec, vec), out.view(rows, n // vec, vec)
        return lambda: kernel(xv, ov)
    if variant.startswith("onepass_t"):  # the library's own kernel (and jit), in another block size
        kernel = tl_softmax.softmax_packed_into(dt, n, int(variant.removeprefix("onepass_t")))
        xv, ov = x.view(rows, n // vec, vec), out.view(rows, n // vec, vec)
        return lambda: kernel(xv, ov)
    v = parse_variant(variant)
    parts = v.parts
    relaxed = v.start == "relaxed" if v.start else v.program == "registers" and tl_cluster.REGS_RELAXED_START
    configs = {**(tl_cluster.FAST_MATH if v.fast_math else {}), **(tl_cluster.NO_REUSE if relaxed else {})}
    jit = tilelang.jit(pass_configs=configs)
    if v.program == "registers":
        kernel = jit(tl_cluster.softmax_cluster_registers_program)(dt, parts, v.unroll, relaxed)
    elif v.program == "smem":
        kernel = jit(tl_cluster.softmax_cluster_smem_program)(dt, parts, relaxed)
    else:
        threads = v.threads or tl_cluster.cluster_threads(n, dt, parts)
        kernel = jit(tl_cluster.softmax_cluster_packed_program)(dt, parts, threads, relaxed)
    xv, ov = x.view(rows * parts, n // parts // vec, vec), out.view(rows * parts, n // parts // vec, vec)
    return lambda: kernel(xv, ov)


def sweep(shape: tuple[int, int], dtype: torch.dtype, writer, only: list[str] | None = None) -> None:
    nbytes = 2 * shape[0] * shape[1] * dtype.itemsize  # read once, written once
    sets = rotation_count(nbytes // 2)
    xs = [torch.randn(shape, device="cuda").to(dtype) for _ in range(sets)]
    outs = [torch.empty_like(x) for x in xs]
    reference = torch.softmax(xs[0].double(), -1)
    for variant in variants(shape[1], dtype):
        if only and variant not in only:
            continue
        try:
            runs = [launcher(variant, x, o) for x, o in zip(xs, outs)]
            runs[0]()
            assert_close(outs[0], reference)
        except Exception as e:  # noqa: BLE001 - a variant that fails to compile, launch or match is reported, not timed
            print(f"{variant} {_name(dtype)} {shape}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        us = time_cuda(runs).median_us
        writer.writerow([_name(dtype), f"{shape[0]}x{shape[1]}", variant, f"{us:.2f}", f"{nbytes / us / 1e3:.0f}"])
        sys.stdout.flush()


def profile(variant: str, shape: tuple[int, int], dtype: torch.dtype) -> None:
    x = torch.randn(shape, device="cuda").to(dtype)
    profile_one_call(launcher(variant, x, torch.empty_like(x)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", metavar="VARIANT", help="run one call of VARIANT for a profiler instead of sweeping")
    p.add_argument("--shape", default="256x262144", help="ROWSxN for --profile")
    p.add_argument("--dtype", default="float32", choices=[_name(d) for d in DTYPES], help="dtype for --profile")
    p.add_argument("--dtypes", nargs="+", choices=[_name(d) for d in DTYPES], help="sweep only these dtypes")
    p.add_argument("--shapes", nargs="+", metavar="ROWSxN", help="sweep these shapes instead of the bench's long rows")
    p.add_argument("--variants", nargs="+", metavar="VARIANT",
                   help="time only these of each shape's variants (each is a compilation), e.g. library smem4")
    args = p.parse_args()
    logging.getLogger("tilelang").setLevel(logging.ERROR)  # its cache warnings go to stdout, into the CSV
    if args.profile:
        profile(args.profile, tuple(int(v) for v in args.shape.split("x")), getattr(torch, args.dtype))
        return
    writer = csv.writer(sys.stdout)
    writer.writerow(["dtype", "shape", "variant", "us", "gbps"])
    shapes = [tuple(int(v) for v in shape.split("x")) for shape in args.shapes] if args.shapes else SHAPES
    for shape in shapes:
        for dtype in DTYPES:
            if not args.dtypes or _name(dtype) in args.dtypes:
                sweep(shape, dtype, writer, args.variants)


if __name__ == "__main__":
    main()
