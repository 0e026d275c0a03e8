"""Report writers: a rich table, JSON and CSV with provenance, and a matplotlib plot per op."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from operator_runtime_testing.performance import PerformanceResult, geomean_speedups, vs_torch


def table(results: list[PerformanceResult], title: str) -> Table:
    t = Table(title=title)
    others = list(dict.fromkeys(name for r in results for name in r.others))
    cols = ("op", "backend", "case", "dtype", "µs", "GB/s", "% ceil", "torch µs", "torch GB/s", "speedup",
            *(f"{name} µs" for name in others))
    for col in cols:
        t.add_column(col, justify="right" if col not in ("op", "backend", "case", "dtype") else "left")
    for r in results:
        sp = r.speedup
        style = "red" if sp == sp and sp < 0.8 else ("green" if sp == sp and sp >= 1.0 else "")
        t.add_row(r.op, r.backend, r.case, r.dtype, f"{r.latency.median_us:.2f}", f"{r.gbs:.0f}",
                  f"{r.pct_of_ceiling:.0f}", f"{r.peer_latency.median_us:.2f}" if r.peer_latency else "-",
                  f"{r.peer_gbs:.0f}" if r.peer_latency else "-",
                  f"[{style}]{sp:.2f}x[/]" if style else f"{sp:.2f}x",
                  *(f"{r.others[n].median_us:.2f}" if n in r.others else "-" for n in others))
    return t


def write_json(results: list[PerformanceResult], path: Path, extra: dict | None = None) -> None:
    rows = [r.row() for r in results]
    speedups = geomean_speedups(rows)
    doc = {"rows": rows, "geomean_speedup_vs_torch": vs_torch(speedups), "geomean_speedups": speedups,
           **(extra or {})}
    path.write_text(json.dumps(doc, indent=1))


def write_csv(results: list[PerformanceResult], path: Path) -> None:
    rows = [r.row() for r in results]
    if not rows:
        path.write_text("")
        return
    # Rows differ in their peer columns (liger runs on softmax only): the header is the union, in order.
    fieldnames = list(dict.fromkeys(key for row in rows for key in row))
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fieldnames)
        writer.writeheader()
        writer.writerows(rows)


def plot(results: list[PerformanceResult], path: Path, ceiling_gbs: float, title: str) -> None:
    """Per op, GB/s per case for each backend and torch, with the ceiling as a line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ops = sorted({r.op for r in results})
    widest = max((len({(r.case, r.dtype) for r in results if r.op == op}) for op in ops), default=1)
    fig, axes = plt.subplots(len(ops), 1, figsize=(max(12, 0.45 * widest), 4.2 * max(len(ops), 1)), squeeze=False)
    for ax, op in zip(axes[:, 0], ops):
        rows = [r for r in results if r.op == op]
        labels = list(dict.fromkeys(f"{r.case} {r.dtype}" for r in rows))  # first-seen order
        series: dict[str, dict[str, float]] = {}
        for r in rows:
            key = f"{r.case} {r.dtype}"
            series.setdefault(r.backend, {})[key] = r.gbs
            if r.peer_latency:
                series.setdefault("torch", {})[key] = r.peer_gbs
        width = 0.8 / max(len(series), 1)
        for k, (name, vals) in enumerate(series.items()):
            xs = [i + k * width for i in range(len(labels))]
            ax.bar(xs, [vals.get(lbl, 0) for lbl in labels], width, label=name)
        ax.axhline(ceiling_gbs, color="k", linestyle="--", linewidth=1, label=f"ceiling {ceiling_gbs:.0f} GB/s")
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))], labels, fontsize=7, rotation=60,
                      ha="right")
        ax.set_ylabel("GB/s")
        ax.set_title(op)
        ax.legend(fontsize=7, loc="upper right")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(rows: list[dict]) -> str:
    """A markdown table of JSON rows (as `PerformanceResult.row()` writes them), one line per row."""
    others = list(dict.fromkeys(k[:-3] for r in rows for k in r if k.endswith("_us") and k not in
                                ("torch_us",) and not k.startswith("us_")))
    head = ("| op | backend | case | dtype | µs (median) | GB/s | % ceiling | torch µs | torch GB/s | speedup |"
            + "".join(f" {n} µs |" for n in others))
    lines = [head, "|" + " --- |" * (10 + len(others))]
    for r in rows:
        sp = r.get("speedup_vs_torch")
        flag = " ⚠" if sp is not None and sp < 0.8 else ""
        lines.append(f"| {r['op']} | {r['backend']} | {r['case']} | {r['dtype']} | {r['us_median']:.2f} | "
                     f"{r['gbs']:.0f} | {r['pct_ceiling']:.0f} | {r['torch_us']:.2f} | {r['torch_gbs']:.0f} | "
                     f"{sp:.2f}x{flag} |" + "".join(f" {r.get(n + '_us') or '-'} |" for n in others))
    return "\n".join(lines) + "\n"


def _ratio(v: float | None) -> str:
    return "-" if not v else f"{v:.2f}x" + (" ⚠" if v < 1.0 else "")


def peers_markdown(rows: list[dict], backend: str = "nvidia") -> str:
    """One line per `backend` row with every peer's time and ratio from the same run (⚠: below 1.0x)."""
    peers = list(dict.fromkeys(k.removeprefix("speedup_vs_") for r in rows if r["backend"] == backend
                               for k in r if k.startswith("speedup_vs_")))
    head = "| op | case | dtype | ours µs | TB/s | " + "".join(f"{p} µs | " for p in peers)
    head += "".join(f"vs {p} | " for p in peers)
    lines = [head.rstrip(), "|" + " --- |" * (5 + 2 * len(peers))]
    for r in rows:
        if r["backend"] != backend:
            continue
        times = "".join(f" {r[p + '_us']:.2f} |" if r.get(p + "_us") else " - |" for p in peers)
        ratios = "".join(f" {_ratio(r.get('speedup_vs_' + p))} |" for p in peers)
        lines.append(f"| {r['op']} | {r['case']} | {r['dtype']} | {r['us_median']:.2f} | {r['gbs'] / 1000:.2f} |"
                     + times + ratios)
    return "\n".join(lines) + "\n"


def backend_ratio_markdown(rows: list[dict], backend: str = "tilelang", base: str = "nvidia",
                           goal: float = 0.8) -> tuple[str, int, int]:
    """`backend` against `base` on the cases both ran: the table, how many reach `goal`, how many compared."""
    by_key = {(r["op"], r["case"], r["dtype"]): r for r in rows if r["backend"] == base}
    lines = [f"| op | case | dtype | {backend} µs | {base} µs | {backend} / {base} |", "|" + " --- |" * 6]
    met = total = 0
    for r in rows:
        b = by_key.get((r["op"], r["case"], r["dtype"]))
        if r["backend"] != backend or b is None:
            continue
        ratio = b["us_median"] / r["us_median"]
        total += 1
        met += ratio >= goal
        flag = " ⚠" if ratio < goal else ""
        lines.append(f"| {r['op']} | {r['case']} | {r['dtype']} | {r['us_median']:.2f} | {b['us_median']:.2f} | "
                     f"{ratio:.2f}x{flag} |")
    return "\n".join(lines) + "\n", met, total


ROWS_FILE = "bench.rows.jsonl"  # the bench's rows as they are timed, one JSON object a line


def write_all(results: list[PerformanceResult], out_dir: Path, ceiling_gbs: float, title: str,
              extra: dict | None = None, console: Console | None = None) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(results, out_dir / "bench.json", {"ceiling_gbs": ceiling_gbs, **(extra or {})})
    write_csv(results, out_dir / "bench.csv")
    (out_dir / "bench.md").write_text(markdown([r.row() for r in results]))
    if results:
        plot(results, out_dir / "bench.png", ceiling_gbs, title)
    if console:
        console.print(f"wrote {out_dir}/bench.json, bench.csv, bench.png")


def _replot(json_path: str, out_dir: str) -> None:
    """Re-renders bench.md and bench.png from a bench.json (e.g. one fetched from the GPU machine)."""
    import json as _json

    from operator_runtime_testing.performance import Work
    from operator_runtime_testing.timing import Stats

    doc = _json.loads(Path(json_path).read_text())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tables = markdown(doc["rows"])
    if any(k.startswith("speedup_vs_") and k != "speedup_vs_torch" for r in doc["rows"] for k in r):
        tables += "\n## nvidia with every peer (same run)\n\n" + peers_markdown(doc["rows"])
    ratio, met, total = backend_ratio_markdown(doc["rows"])
    if total:
        tables += f"\n## tilelang vs nvidia ({met} of {total} at >= 0.8x)\n\n" + ratio
    (out / "bench.md").write_text(tables)
    results = [PerformanceResult(r["op"], r["backend"], r["case"], r["dtype"], r["shape"],
                                 Stats(r["us_median"], r["us_min"], r["us_max"]), Work(r["bytes"], r["flops"]),
                                 Stats(r["torch_us"], r["torch_us"], r["torch_us"]) if r["torch_us"] else None,
                                 r["ceiling_gbs"], {}) for r in doc["rows"]]
    plot(results, out / "bench.png", doc["ceiling_gbs"], f"operator_runtime vs torch on {doc['rows'][0]['device']}")


def _read_doc(path: Path) -> dict:
    """A bench.json, or the rows file of a bench that was cut off before writing one (one row a line)."""
    if path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {"rows": rows, "ceiling_gbs": max((r["ceiling_gbs"] for r in rows), default=0.0)}
    return json.loads(path.read_text())


def merge(sources: list[str]) -> dict:
    """One bench document from several runs. Each source is `bench.json` or `bench.json=OP/BACKEND[/CASE]`
    with fnmatch patterns (`runs/f.json=copy/nvidia`, `runs/a.json=*/tilelang`, `runs/u.json=*/*/columns-*`);
    a `bench.rows.jsonl` (what a cut-off bench had timed) reads the same. A later source's row replaces an
    earlier one for the same (op, backend, case, dtype). Every row keeps its own run's torch and peer
    timings, so each speedup is still a same-run ratio."""
    from fnmatch import fnmatch

    rows: dict[tuple, dict] = {}
    used = {}
    ceiling = 0.0
    for source in sources:
        path, _, pattern = source.partition("=")
        op_pat, backend_pat, case_pat = ((pattern or "*").split("/", 2) + ["*", "*"])[:3]
        doc = _read_doc(Path(path))
        taken = [r for r in doc["rows"] if fnmatch(r["op"], op_pat) and fnmatch(r["backend"], backend_pat)
                 and fnmatch(r["case"], case_pat)]
        for r in taken:
            rows[(r["op"], r["backend"], r["case"], r["dtype"])] = {**r, "source": Path(path).name}
        used[source] = len(taken)
        ceiling = max(ceiling, doc.get("ceiling_gbs", 0.0))
    merged = list(rows.values())
    speedups = geomean_speedups(merged)
    return {"rows": merged, "ceiling_gbs": ceiling,
            "geomean_speedup_vs_torch": vs_torch(speedups),
            "geomean_speedups": speedups, "sources": used}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m operator_runtime_testing.reports", description=__doc__)
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("render", help="bench.md and bench.png from a bench.json")
    r.add_argument("json")
    r.add_argument("out_dir")
    m = sub.add_parser("merge", help="merge runs (see merge()), then render")
    m.add_argument("out_dir")
    m.add_argument("sources", nargs="+", help="bench.json or bench.json=OP/BACKEND[/CASE] (fnmatch patterns)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in ("render", "merge", "-h", "--help"):
        argv.insert(0, "render")  # the original form: reports bench.json outdir
    args = p.parse_args(argv)
    if args.cmd == "merge":
        out = Path(args.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench.json").write_text(json.dumps(merge(args.sources), indent=1))
        _replot(str(out / "bench.json"), str(out))
    elif args.cmd == "render":
        _replot(args.json, args.out_dir)
    else:
        p.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
