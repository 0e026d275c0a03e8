"""`python -m operator_runtime [info|check|bench]`: the backends here, then every op checked vs torch."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import torch
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import operator_runtime as ort
from operator_runtime import _C, ops
from operator_runtime.backend import Backend, default_backend, unavailable_reason


def op_modules() -> list:
    """Every op module under operator_runtime.ops (discovered, so a new op needs no list edit)."""
    return [importlib.import_module(f"operator_runtime.ops.{m.name}") for m in pkgutil.iter_modules(ops.__path__)]


def info(console: Console) -> None:
    table = Table(title="operator_runtime backends")
    table.add_column("backend")
    table.add_column("status")
    for b in Backend:
        reason = unavailable_reason(b)
        table.add_row(b.value, "[green]available[/]" if reason is None else f"[yellow]{escape(reason)}[/]")
    console.print(table)
    cuda = f"CUDA build for sm_{{{_C.cuda_architectures()}}}" if _C.cuda_built() else "CPU-only build"
    console.print(f"operator_runtime {ort.__version__} ({cuda}); torch {torch.__version__}")


def check(console: Console, backend: str | None) -> bool:
    """Runs every op's examples on `backend` (default: the GPU if present) and compares with torch."""
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    chosen = Backend(backend) if backend else default_backend(device)
    if chosen is Backend.CPU:
        device = torch.device("cpu")
    table = Table(title=f"check on backend {chosen.value} ({device})")
    for col in ("op", "case", "shape", "max |ours - torch|", "result"):
        table.add_column(col)
    ok = True
    for mod in op_modules():
        for label, args, kwargs in mod.examples(device):
            ours = getattr(ort, mod.SPEC.name)(*args, backend=chosen, **kwargs)
            ref = mod.reference(*args, **kwargs)
            err = (ours.double() - ref.double()).abs().max().item() if ref.numel() else 0.0
            good = torch.allclose(ours.double(), ref.double(), rtol=2e-2, atol=1e-3) and ours.dtype == ref.dtype
            ok &= good
            table.add_row(mod.SPEC.name, label, str(tuple(args[0].shape)), f"{err:.3g}",
                          "[green]ok[/]" if good else "[red]MISMATCH[/]")
    console.print(table)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m operator_runtime", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("info", help="list backends and build facts")
    p_check = sub.add_parser("check", help="check every op against torch")
    p_check.add_argument("--backend", choices=[b.value for b in Backend])
    sub.add_parser("bench", help="benchmark ops against torch; `bench --help` lists its options", add_help=False)
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # the bench tool owns its own options
        from operator_runtime_testing.bench_cli import main as bench_main

        return bench_main(argv[1:])
    args = parser.parse_args(argv)
    console = Console()
    if args.command in (None, "info"):
        info(console)
    if args.command in (None, "check"):
        return 0 if check(console, getattr(args, "backend", None)) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
