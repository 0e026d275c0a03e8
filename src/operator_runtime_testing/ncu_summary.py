"""Summarise Nsight Compute raw CSVs (scripts/ncu_profile.sh) as one markdown table, a row per kernel.

    python -m operator_runtime_testing.ncu_summary gpu-logs/ncu/*.csv

Columns: time, DRAM bytes read/written against the bytes the op must move, DRAM throughput as % of peak,
L2 hit rate, achieved vs theoretical occupancy, registers, issue-slot use and warp instructions executed,
and the top warp stall reasons (cycles per issued instruction), which are what a memory-bound kernel's time is spent on.
"""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

# ncu's units, scaled to bytes and microseconds.
_SCALE = {"byte": 1, "kbyte": 1e3, "mbyte": 1e6, "gbyte": 1e9, "ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1,
          "ms": 1e3, "msecond": 1e3}
_STALL = re.compile(r"smsp__average_warps?_(?:latency_)?issue_stalled_(\w+?)_per_issue_active\.ratio$")


def _num(value: str, unit: str = "") -> float:
    try:
        v = float(value.replace(",", ""))
    except ValueError:
        return float("nan")
    return v * _SCALE.get(unit.strip().lower(), 1)


def read_rows(path: Path) -> list[dict]:
    """The kernels of one raw CSV, each a dict of metric -> (value, unit)."""
    lines = path.read_text(errors="replace").splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return []
    table = list(csv.reader(lines[start:]))
    header, units, body = table[0], table[1], table[2:]
    return [{h: (v, u) for h, u, v in zip(header, units, row)} for row in body if len(row) == len(header)]


def summarise(path: Path, kernel: dict) -> dict:
    def val(name, scale_unit=True):
        v, u = kernel.get(name, ("nan", ""))
        return _num(v, u if scale_unit else "")

    stalls = sorted(((val(k), m.group(1)) for k in kernel if (m := _STALL.match(k))), reverse=True)
    name = kernel.get("Kernel Name", ("?", ""))[0]
    return {
        "case": path.stem,
        "kernel": re.sub(r"\(.*", "", name)[:60],
        "us": val("gpu__time_duration.sum"),
        "read_MB": val("dram__bytes_read.sum") / 1e6,
        "write_MB": val("dram__bytes_write.sum") / 1e6,
        "dram_pct": val("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", False),
        "l2_hit_pct": val("lts__t_sector_hit_rate.pct", False),
        "occ_pct": val("sm__warps_active.avg.pct_of_peak_sustained_active", False),
        "occ_theory_pct": val("sm__maximum_warps_per_active_cycle_pct", False),
        "regs": val("launch__registers_per_thread", False),
        "grid": val("launch__grid_size", False),
        "block": val("launch__block_size", False),
        "issue_pct": val("smsp__issue_active.avg.pct_of_peak_sustained_active", False),
        "inst_M": val("inst_executed", False) / 1e6,
        "stalls": ", ".join(f"{r} {v:.1f}" for v, r in stalls[:3] if v == v),
    }


def markdown(rows: list[dict]) -> str:
    cols = ["case", "kernel", "us", "read_MB", "write_MB", "dram_pct", "l2_hit_pct", "occ_pct", "occ_theory_pct",
            "regs", "grid", "block", "issue_pct", "inst_M", "stalls"]
    out = ["| " + " | ".join(cols) + " |", "|" + " --- |" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join(f"{r[c]:.1f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    kernels = {Path(p): read_rows(Path(p)) for p in (argv if argv is not None else sys.argv[1:])}
    rows = [summarise(p, k) for p, ks in kernels.items() for k in ks]
    missing = [p.name for p, ks in kernels.items() if not ks]
    print(markdown(rows))
    for m in missing:
        print(f"\n(no kernel rows in {m}: see its .err file)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
