"""Run one op (or all) on one backend: its tests, its benchmark, or both.

    python tests/run_ops.py --op softmax --backend nvidia --mode all
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
OPS = sorted(p.stem for p in (TESTS / "cases").glob("*.py") if not p.stem.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--op", default="all", choices=["all", *OPS])
    p.add_argument("--backend", default=None, help="cpu, nvidia, tilelang, metax (default: the tests' default)")
    p.add_argument("--mode", default="test", choices=["test", "bench", "all"])
    p.add_argument("--out", default="bench-results", help="bench output directory")
    args = p.parse_args(argv)
    ops = OPS if args.op == "all" else [args.op]
    status = 0
    if args.mode in ("test", "all"):
        files = [str(TESTS / "ops" / f"test_{op}.py") for op in ops]
        # The fuzz tests are named after their op; -k keeps the ones for the chosen ops.
        selector = " or ".join(ops)
        pytest_args = [*files, str(TESTS / "fuzz"), "-k", f"not fuzz or {selector}", "-q"]
        if args.backend:
            pytest_args += ["--backend", args.backend]
        status |= pytest.main(pytest_args)
    if args.mode in ("bench", "all"):
        from operator_runtime_testing.bench_cli import main as bench_main

        bench_args = ["--op", *ops, "--out", args.out, "--tests-dir", str(TESTS)]
        if args.backend:
            bench_args += ["--backend", args.backend]
        status |= bench_main(bench_args)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
