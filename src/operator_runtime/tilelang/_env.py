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

__all__ = ["tilelang", "T", "LOG2E", "FP32"]
