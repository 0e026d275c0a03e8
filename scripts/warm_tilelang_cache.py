"""Compile every TileLang kernel the benchmark needs, many at once, before the bench times anything.

The bench prepares its cases one after another, and a TileLang kernel compiles (nvcc, one core) the first
time its shape is prepared: with an empty cache the bench spends most of its time compiling (session 14:
32 rows did not finish in 175 s). Here each (case, dtype) is prepared in its own worker process, so the
compilations share the machine's cores; the kernels land in TILELANG_CACHE_DIR, where the bench then finds
them. Nothing is timed.

    python scripts/warm_tilelang_cache.py [--op OP ...] [--case PART ...] [--jobs N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"


def _jobs(ops: list[str] | None, parts: list[str] | None) -> list[tuple[str, str, str]]:
    sys.path.insert(0, str(TESTS))
    from operator_runtime_testing.bench_cli import discover

    found = []
    for mod in discover(TESTS, ops):
        for case in mod.benchmark_cases():
            if parts and not any(p in case.id for p in parts):
                continue
            found += [(mod.OP, case.id, str(dtype).removeprefix("torch.")) for dtype in case.dtypes]
    return found


def _prepare(op: str, case_id: str, dtype_name: str) -> str:
    """Prepare one case on the tilelang backend (which compiles its kernel) and run it once, as the profiler's
    `build_call` does for ncu; returns what happened."""
    sys.path.insert(0, str(TESTS))
    import importlib

    import torch

    from operator_runtime_testing.profile_once import build_call

    mod = importlib.import_module(f"bench.{op}")
    case = next(c for c in mod.benchmark_cases() if c.id == case_id)
    start = time.perf_counter()
    try:
        build_call(mod, case, getattr(torch, dtype_name), "ours", "tilelang")()
    except ValueError as e:  # the backend refuses this layout: the bench reports it as skipped too
        return f"refused ({e})"
    torch.cuda.synchronize()
    return f"{time.perf_counter() - start:.1f} s"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--op", nargs="*", help="ops (default: all)")
    p.add_argument("--case", nargs="*", help="only cases whose id contains one of these")
    p.add_argument("--jobs", type=int, default=os.cpu_count(), help="worker processes (default: one a core)")
    args = p.parse_args()
    jobs = _jobs(args.op, args.case)
    failed = 0
    # spawn: each worker gets its own CUDA context (a forked one cannot use the parent's).
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(_prepare, *job): job for job in jobs}
        for f in as_completed(futures):
            name = "/".join(futures[f])
            try:
                print(f"{name}: {f.result()}", flush=True)
            except Exception as e:  # noqa: BLE001 - report every case, then fail the step
                failed += 1
                print(f"{name}: FAILED {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
    print(f"{len(jobs)} cases prepared on tilelang, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
