"""Run one benchmark case once inside a CUDA profiler range, for Nsight Compute.

    ncu --profile-from-start off --clock-control none ... \\
        python -m operator_runtime_testing.profile_once --op softmax --case 32768x4096 --dtype bfloat16 --who ours

Warm-up calls (and torch.compile's compilation) happen before the range opens, so the profile holds only
the kernels of one call. scripts/ncu_profile.sh runs the list of cases that docs/perf-notes.md discusses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from operator_runtime_testing.bench_cli import discover
from operator_runtime_testing.layouts import make


def build_call(mod, case, dtype: torch.dtype, who: str, backend: str):
    inputs = {name: make(o.shape, dtype, "cuda", o.layout) for name, o in case.inputs.items()}
    if who == "ours":
        return mod.prepare(inputs, mod.make_out(inputs, case.attrs), case.attrs, backend)
    if who == "torch":
        return mod.torch_peer(inputs, case.attrs)
    peers = getattr(mod, "extra_peers", lambda i, a: {})(inputs, case.attrs)
    if who not in peers:
        raise SystemExit(f"--who {who}: {mod.OP} offers {sorted(peers)} for case {case.id}")
    return peers[who]


def profile_one_call(call, warmups: int = 3) -> None:
    """`call` a few times, then once more inside a CUDA profiler range (ncu --profile-from-start off sees
    only that one): compilation and first-launch costs stay outside it."""
    for _ in range(warmups):
        call()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    call()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m operator_runtime_testing.profile_once", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--op", required=True)
    p.add_argument("--case", required=True, help="exact benchmark case id, e.g. 32768x4096")
    p.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    p.add_argument("--who", default="ours", help="ours, torch, or a peer the bench module offers (liger, compile)")
    p.add_argument("--backend", default="nvidia")
    p.add_argument("--tests-dir", default="tests")
    args = p.parse_args(argv)
    if not torch.cuda.is_available():
        raise SystemExit("profile_once needs a CUDA device")
    (mod,) = discover(Path(args.tests_dir), [args.op])
    cases = {c.id: c for c in mod.benchmark_cases()}
    if args.case not in cases:
        raise SystemExit(f"--case {args.case}: {args.op} has {sorted(cases)}")
    profile_one_call(build_call(mod, cases[args.case], getattr(torch, args.dtype), args.who, args.backend))
    return 0


if __name__ == "__main__":
    sys.exit(main())
