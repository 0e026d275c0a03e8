"""Summarise Nsight Compute's per-instruction page (scripts/ncu_profile.sh with NCU_SASS=1) as markdown: where a
kernel's instructions and its warps' stall samples go, by SASS opcode and by instruction.

    python -m operator_runtime_testing.ncu_sass gpu-logs/ncu/softmax-1024x65536-fp16-ours-sass.csv [--top 12]

The CSV is what `ncu -i REPORT --page source --csv --print-source sass` writes for a report taken with
`--section SourceCounters --import-source yes`: a kernel-name line, a header, one row per SASS instruction with
its warp-level "Instructions Executed" and "Warp Stall Sampling (All Samples)". Session 20 found this way that 7 %
of cluster_online's stall samples sat at a `MEMBAR.ALL.GPU` no source line showed (docs/perf-notes.md).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

EXECUTED = "Instructions Executed"
SAMPLES = "Warp Stall Sampling (All Samples)"
_PREDICATE = re.compile(r"^@!?U?P\w+\s+")


@dataclass
class Instruction:
    index: int
    sass: str
    executed: int
    samples: int

    @property
    def opcode(self) -> str:
        """The mnemonic before its first dot, predicate dropped: `@!P1 MEMBAR.ALL.GPU` -> MEMBAR."""
        return _PREDICATE.sub("", self.sass).split(" ")[0].split(".")[0]


def read_instructions(path: Path) -> tuple[str, list[Instruction]]:
    """The kernel's name and its instructions, in address order."""
    rows = list(csv.reader(path.read_text(errors="replace").splitlines()))
    kernel = next((r[1] for r in rows if len(r) > 1 and r[0].lower() in ("kernel name", "kernel")), "?")
    start = next((i for i, r in enumerate(rows) if "Source" in r and EXECUTED in r and SAMPLES in r), None)
    if start is None:
        return kernel, []
    header = rows[start]
    src, ex, st = header.index("Source"), header.index(EXECUTED), header.index(SAMPLES)
    out = []
    for r in rows[start + 1:]:
        if len(r) <= max(src, ex, st):
            continue
        try:
            out.append(Instruction(len(out), r[src].strip(), int(r[ex]), int(r[st])))
        except ValueError:
            continue
    return kernel, out


def markdown(kernel: str, instructions: list[Instruction], top: int = 12) -> str:
    executed = sum(i.executed for i in instructions) or 1
    samples = sum(i.samples for i in instructions) or 1
    by_executed, by_samples = Counter(), Counter()
    for i in instructions:
        by_executed[i.opcode] += i.executed
        by_samples[i.opcode] += i.samples
    lines = [f"**{kernel}**: {executed / 1e6:.2f} M warp instructions executed, {samples} stall samples", "",
             "| opcode | executed (M) | % of executed | % of stall samples |", "| --- | --- | --- | --- |"]
    for op, n in by_executed.most_common(top):
        lines.append(f"| {op} | {n / 1e6:.2f} | {100 * n / executed:.1f} | {100 * by_samples[op] / samples:.1f} |")
    lines += ["", "| # | instruction | executed | % of stall samples |", "| --- | --- | --- | --- |"]
    for i in sorted(sorted(instructions, key=lambda i: -i.samples)[:top], key=lambda i: i.index):
        lines.append(f"| {i.index} | `{i.sass}` | {i.executed} | {100 * i.samples / samples:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("csv", nargs="+", type=Path, help="ncu --page source --csv --print-source sass output")
    p.add_argument("--top", type=int, default=12, help="opcodes and instructions to list (default 12)")
    args = p.parse_args(argv)
    for path in args.csv:
        kernel, instructions = read_instructions(path)
        print(markdown(kernel, instructions, args.top) if instructions else f"(no instructions in {path.name})")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
