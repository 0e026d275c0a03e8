"""`python -m operator_runtime bench`: every op's benchmark_cases() on each backend vs torch, same run.

Reads tests/bench/<op>.py (which reads tests/cases/<op>.py), so run it from a checkout.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

import torch
from rich.console import Console
from rich.progress import track
from rich.table import Table

import operator_runtime as ort
from operator_runtime_testing import host_overhead
from operator_runtime_testing.layouts import make
from operator_runtime_testing.performance import PerformanceResult, geomean_speedups, provenance
from operator_runtime_testing.reports import ROWS_FILE, table, write_all
from operator_runtime_testing.timing import holding_results, rotation_count, time_cuda, time_host


def discover(tests_dir: Path, names: list[str] | None) -> list:
    sys.path.insert(0, str(tests_dir))
    found = sorted(p.stem for p in (tests_dir / "bench").glob("*.py") if not p.stem.startswith("_"))
    chosen = found if not names or names == ["all"] else names
    unknown = set(chosen) - set(found)
    if unknown:
        raise SystemExit(f"--op: unknown op(s) {sorted(unknown)}; known: {found}")
    return [importlib.import_module(f"bench.{n}") for n in chosen]


def measure_ceiling(device: torch.device, timer) -> float:
    """GB/s of the best large copy, ours or torch's (read + write): the run's memory ceiling."""
    n = (1 << 28) if device.type == "cuda" else (1 << 24)
    src = torch.randn(n, device=device)
    out = torch.empty_like(src)
    op = ort.prepare_copy(src, out=out)
    best_us = min(timer([op]).median_us, timer([lambda: out.copy_(src)]).median_us)
    return 2 * src.nbytes / (best_us * 1e3)


def time_others(mod, peer_names, sets, case, reference, timer, notes) -> dict:
    """Times the further peers a bench module offers (`extra_peers`), each checked against torch first.
    A peer that refuses the case (Liger's softmax above 65536 columns) is noted, not timed."""
    timings = {}
    offered = getattr(mod, "extra_peers", lambda s, a: {})(sets[0], case.attrs)
    for name in peer_names:
        if name not in offered:
            continue
        try:
            calls = [mod.extra_peers(s, case.attrs)[name] for s in sets]
            mod.check(calls[0](), reference, sets[0], case.attrs)
            timings[name] = timer(holding_results(calls))
        except Exception as e:  # noqa: BLE001 - a peer's failure is a finding to report, not a crash
            notes.append(f"{name} on {mod.OP}/{case.id}: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
    return timings


def run_case(mod, case, dtype, backend, device, timer, ceiling, prov, peer_names=(), notes=None) -> PerformanceResult:
    def one_set():
        return {name: make(o.shape, dtype, device, o.layout) for name, o in case.inputs.items()}

    first = one_set()
    out0 = mod.make_out(first, case.attrs)
    bytes_per_set = mod.work(first, out0, case.attrs).bytes
    sets = [first] + [one_set() for _ in range(rotation_count(bytes_per_set) - 1 if device.type == "cuda" else 0)]
    outs = [out0] + [mod.make_out(s, case.attrs) for s in sets[1:]]
    ours = [mod.prepare(s, o, case.attrs, backend) for s, o in zip(sets, outs)]
    peers = [mod.torch_peer(s, case.attrs) for s in sets]
    # Correct first: a wrong kernel's timing means nothing.
    mod.check(ours[0](), peers[0](), first, case.attrs)
    latency = timer(ours)
    peer_latency = timer(holding_results(peers))
    others = time_others(mod, peer_names, sets, case, peers[0](), timer, notes if notes is not None else [])
    shape = "x".join(str(s) for s in next(iter(case.inputs.values())).shape)
    return PerformanceResult(mod.OP, backend, case.id, str(dtype).removeprefix("torch."), shape, latency,
                             mod.work(first, out0, case.attrs), peer_latency, ceiling, prov, others)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m operator_runtime bench", description=__doc__)
    p.add_argument("--op", nargs="*", help="ops to run (default: all)")
    p.add_argument("--backend", nargs="*", help="backends (default: every available GPU backend, else cpu)")
    p.add_argument("--mode", choices=("graph", "events"), default="graph", help="GPU timing mode")
    p.add_argument("--case", nargs="*", help="only cases whose id contains one of these")
    p.add_argument("--out", default="bench-results", help="directory for bench.json/csv/png")
    p.add_argument("--tests-dir", default="tests", help="where tests/bench and tests/cases live")
    p.add_argument("--max-mib", type=float, default=None,
                   help="skip cases moving more than this (default: none on a GPU, 96 MiB on the CPU)")
    p.add_argument("--host-overhead", action="store_true", help="also measure host cost per call")
    p.add_argument("--peers", nargs="*", default=[], choices=["liger", "compile"],
                   help="further peers to time where a bench module offers them (GPU only)")
    args = p.parse_args(argv)
    console = Console(width=max(160, Console().width))

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gpu = device.type == "cuda"
    backends = args.backend or [b.value for b in ort.available_backends() if (b is not ort.Backend.CPU) == gpu]
    max_mib = args.max_mib if args.max_mib is not None else (None if gpu else 96)
    max_bytes = max_mib * (1 << 20) if max_mib else None
    timer = (lambda calls: time_cuda(calls, args.mode)) if gpu else time_host
    prov = provenance(device)
    label = prov["device"] + ("" if gpu else " — CPU figures, not GPU results")
    ceiling = measure_ceiling(device, timer)
    console.print(f"[bold]{label}[/]; ceiling (best large copy): {ceiling:.0f} GB/s; timing: "
                  f"{args.mode if gpu else 'host clock'}")

    jobs = []
    for mod in discover(Path(args.tests_dir), args.op):
        for case in mod.benchmark_cases():
            if args.case and not any(part in case.id for part in args.case):
                continue
            for dtype in case.dtypes:
                for backend in backends:
                    jobs.append((mod, case, dtype, backend))
    results, skipped, peer_notes = [], [], []
    peer_names = args.peers if gpu else []
    # Each row also lands here as it is timed: a bench cut off by a timeout keeps the rows it finished
    # (`python -m operator_runtime_testing.reports merge` reads this file like a bench.json).
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / ROWS_FILE).open("w") as rows_file:
        for mod, case, dtype, backend in track(jobs, description="benchmarking", console=console):
            itemsize = torch.empty(0, dtype=dtype).element_size()
            est = 2 * itemsize * sum(torch.Size(o.shape).numel() for o in case.inputs.values())
            if max_bytes and est > max_bytes:
                skipped.append(f"{mod.OP}/{case.id}/{dtype}: ~{est / 2**20:.0f} MiB exceeds --max-mib")
                continue
            try:
                result = run_case(mod, case, dtype, backend, device, timer, ceiling, prov, peer_names, peer_notes)
                results.append(result)
                rows_file.write(json.dumps(result.row()) + "\n")
                rows_file.flush()
            except ValueError as e:  # a backend that refuses a layout says so; the row is reported as skipped
                skipped.append(f"{mod.OP}/{case.id}/{dtype} on {backend}: {e}")
            except AssertionError as e:  # a wrong result is never timed, and is reported loudly
                skipped.append(f"FAILED CORRECTNESS {mod.OP}/{case.id}/{dtype} on {backend}: {str(e)[:300]}")
            if gpu:
                torch.cuda.empty_cache()

    title = f"operator_runtime vs torch on {label}"
    console.print(table(results, title))
    for b, peers in geomean_speedups([r.row() for r in results]).items():
        console.print(f"geomean speedup, {b}: " + ", ".join(f"{g:.2f}x vs {peer}" for peer, g in peers.items()))
    for s in skipped:
        console.print(f"[yellow]skipped[/] {s}")
    for n in dict.fromkeys(peer_notes):
        console.print(f"[yellow]peer[/] {n}")
    extra = {"mode": args.mode if gpu else "host", "skipped": skipped, "peer_notes": list(dict.fromkeys(peer_notes))}
    if args.host_overhead:
        batches = (200, 1)
        costs = {b: host_overhead.measure(device, backends[0] if backends else None, batch=b) for b in batches}
        t = Table(title=f"host cost per call, copy of 1024 fp32 ({label})")
        t.add_column("form")
        for b in batches:
            name = "alone" if b == 1 else f"batch of {b}"
            t.add_column(f"µs/call, {name}", justify="right")
            t.add_column("vs torch eager", justify="right")
        for k in costs[batches[0]]:
            cells = []
            for b in batches:
                v, base = costs[b][k], costs[b]["torch eager (y.copy_(x))"]
                cells += [f"{v:.2f}", f"{v / base:.2f}x"]
            t.add_row(k, *cells)
        console.print(t)
        extra["host_overhead_us"] = {f"batch {b}": c for b, c in costs.items()}
    write_all(results, Path(args.out), ceiling, title, extra, console)
    return 0
