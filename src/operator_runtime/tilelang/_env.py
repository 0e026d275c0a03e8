"""Imports tilelang with a per-user cache directory and without compile chatter (unless asked for)."""

from __future__ import annotations

import os
from pathlib import Path


def _configure() -> None:
    cache_home = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    os.environ.setdefault("TILELANG_CACHE_DIR", str(cache_home / "operator_runtime" / "tilelang"))
    # TileLang prints every compilation; ORT_TILELANG_VERBOSE=1 brings that back.
    if not os.environ.get("ORT_TILELANG_VERBOSE"):
        os.environ.setdefault("TILELANG_PRINT_ON_COMPILATION", "0")


_configure()

import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402

LOG2E = 1.4426950408889634
FP32 = "float32"


def jit(func=None, **options):
    """tilelang.jit with TileLang's cython launcher instead of its default (tvm_ffi).

    In CUDA-graph replay the cython launcher's kernels ran 0.2-0.4 us faster on the small cases (H200, runs
    bo-bq: reduce_sum 144x1280 halves 2.08 -> 1.72 us, copy of 4096 elements 0.87 -> 0.67); with it 76 of the
    bench's 78 TileLang rows reach 0.8x of our CUDA (run bt, session 15), 72 without. Why the default launcher
    costs more in a graph was not measured. A kernel cache built by the other launcher does not serve this one.

    That launcher starts every kernel with programmatic stream serialization (PDL): a kernel may launch before
    the one ahead of it on the stream has finished, and only `griddepcontrol.wait` (T.pdl_sync) guarantees that
    the earlier grid is complete and its writes visible. So every kernel here calls T.pdl_sync() before it
    touches memory (tests/tilelang/test_lowering.py checks), and copy and vector_add call T.pdl_trigger() first,
    as our CUDA kernels do, which lets the next kernel launch while they run (H200, run dn, same call: copy tiny
    0.64 -> 0.55 us, vector_add 1008x2304 fp32 8.68 -> 8.04; vector_add tiny-4096 1.08 -> 1.10). The short-row
    reduce_sum and softmax kernels trigger first only when their grid is at most two waves
    (reduce_sum.short_rows_trigger_early: larger ones lost up to 43 %, run ds).
    """
    options.setdefault("execution_backend", "cython")
    return tilelang.jit(func, **options)


__all__ = ["tilelang", "T", "LOG2E", "FP32", "jit"]
