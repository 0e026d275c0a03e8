"""Sweep: TileLang's long-row softmax kernels on the benchmark's long rows, each against the library's choice,
so that the part counts in src/operator_runtime/tilelang/softmax.py (cluster_registers_parts, cluster_parts) and
the combine's unrolling (combine_part_stats' `unroll`) are measured, not guessed. Every variant is first
checked against torch, then timed (CUDA graph replays over rotated inputs, as the bench does).

    python tests/bench/sweeps/tilelang_softmax_cluster.py > tilelang_softmax_cluster.csv   (needs tilelang and
    a GPU; scripts/gpu_check.sh --sweep runs it when SWEEPS names it)
    ncu ... python tests/bench/sweeps/tilelang_softmax_cluster.py --profile registers16_u0 --shape 256x262144
        --dtype float32   (one call of one variant inside a profiler range, for Nsight Compute)
"""

from __future__ import annotations

import argparse
import csv
import logging
import sys

import tilelang
import torch

from operator_runtime._internal.tensor_meta import describe
from operator_runtime.tilelang import softmax as tl_softmax
from operator_runtime.tilelang.descriptors import Softmax
from operator_runtime_testing.assertions import assert_close
from operator_runtime_testing.profile_once import profile_one_call
from operator_runtime_testing.timing import rotation_count, time_cuda

SHAPES = ((1024, 65536), (256, 262144))
DTYPES = (torch.float32, torch.bfloat16, torch.float16)


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def variants(n: int, dtype: torch.dtype) -> list[str]:
    """'library', 'split' (the split pair, which the library runs where no cluster kernel applies), then the
    library's cluster kernel built without --use_fast_math (`_precise`) and, for fp32 rows held in registers,
    with its combine's loops unrolled k times (`_u{k}`; 0: fully). Each variant is one TileLang
    compilation (5-15 s), hence so few."""
    names = ["library", "split"]
    dt = _name(dtype)
    if parts := tl_softmax.cluster_registers_parts(n, dt):
        names += [f"registers{parts}_u{k}" for k in ((1, 4, 8) if parts > 8 else (1,))] + [f"registers{parts}_precise"]
    elif parts := tl_softmax.cluster_parts(n, dt):
        names += [f"packed{parts}_precise"]
    return names


def parse_variant(variant: str) -> tuple[str, int, int | None, bool]:
    """(program, parts, unroll, fast_math) of a cluster-kernel variant name such as `registers16_u2`,
    `registers4_precise` or `packed16_precise`; unroll None is the library's choice."""
    kind, _, option = variant.partition("_")
    program = next((name for name in ("registers", "packed") if kind.startswith(name)), "")
    digits = kind.removeprefix(program)
    unroll_option = program == "registers" and option[:1] == "u" and option[1:].isdigit()
    if not program or not digits.isdigit() or not (option in ("", "precise") or unroll_option):
        raise ValueError(f"variant: expected library, split, registers<P>[_u<k>|_precise] or packed<P>[_precise], "
                         f"got {variant!r}")
    unroll = int(option[1:]) if option.startswith("u") else None
    return program, int(digits), unroll, option != "precise"


def launcher(variant: str, x: torch.Tensor, out: torch.Tensor):
    rows, n = x.shape
    if variant in ("library", "split"):
        desc = Softmax(describe(out, "out"), describe(x, "x"), -1)
        if variant == "split":
            desc._cluster = None
        size = desc.workspace_size
        workspace = torch.empty(size, dtype=torch.uint8, device=x.device) if size else None
        return lambda: desc.run(out, x, workspace=workspace)
    program, parts, unroll, fast_math = parse_variant(variant)
    dt, vec = _name(x.dtype), 16 // x.dtype.itemsize
    jit = tilelang.jit(pass_configs=tl_softmax.FAST_MATH) if fast_math else tilelang.jit
    if program == "registers":
        kernel = jit(tl_softmax.softmax_cluster_registers_program)(dt, parts, unroll)
    else:
        kernel = jit(tl_softmax.softmax_cluster_packed_program)(dt, parts)
    xv, ov = x.view(rows * parts, n // parts // vec, vec), out.view(rows * parts, n // parts // vec, vec)
    return lambda: kernel(xv, ov)


def sweep(shape: tuple[int, int], dtype: torch.dtype, writer) -> None:
    nbytes = 2 * shape[0] * shape[1] * dtype.itemsize  # read once, written once
    sets = rotation_count(nbytes // 2)
    xs = [torch.randn(shape, device="cuda").to(dtype) for _ in range(sets)]
    outs = [torch.empty_like(x) for x in xs]
    reference = torch.softmax(xs[0].double(), -1)
    for variant in variants(shape[1], dtype):
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
    args = p.parse_args()
    logging.getLogger("tilelang").setLevel(logging.ERROR)  # its cache warnings go to stdout, into the CSV
    if args.profile:
        profile(args.profile, tuple(int(v) for v in args.shape.split("x")), getattr(torch, args.dtype))
        return
    writer = csv.writer(sys.stdout)
    writer.writerow(["dtype", "shape", "variant", "us", "gbps"])
    for shape in SHAPES:
        for dtype in DTYPES:
            if not args.dtypes or _name(dtype) in args.dtypes:
                sweep(shape, dtype, writer)


if __name__ == "__main__":
    main()
