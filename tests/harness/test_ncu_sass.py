"""The per-instruction summary reads ncu's source page: opcodes without predicates, totals, the stall hot spots."""

from __future__ import annotations

import csv
from pathlib import Path

from operator_runtime_testing.ncu_sass import Instruction, main, markdown, read_instructions

# Run cs (session 20, H200): cluster_online at 1024x65536 fp16, trimmed to the columns the summary reads.
RUN_CS = Path(__file__).resolve().parents[2] / "docs/runs/ncu-sass-h200-2026-12-01-cs-cluster_online.csv"

PAGE = '''"Kernel Name","void k<float>(float *)",
"Address","Source","Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)",\
"# Samples","Instructions Executed"
"0x10","      LDC R1, c[0x0][0x28]","2","1","2","64"
"0x20","@!P1  MEMBAR.ALL.GPU","30","30","30","64"
"0x30","@P0   MUFU.EX2 R7, R6","8","2","8","128"
"0x40","      BAR.SYNC.DEFER_BLOCKING 0x0","0","0","0","-"
'''


def test_opcode_drops_the_predicate_and_the_modifiers():
    assert Instruction(0, "@!P1  MEMBAR.ALL.CTA", 1, 1).opcode == "MEMBAR"
    assert Instruction(0, "@!UP0 UIADD3 UR4, UR4, 0x1, URZ", 1, 1).opcode == "UIADD3"
    assert Instruction(0, "HADD2.F32 R14, -RZ, R4.H0_H0", 1, 1).opcode == "HADD2"


def test_a_page_reads_its_kernel_and_instructions(tmp_path):
    path = tmp_path / "k-sass.csv"
    path.write_text(PAGE)
    kernel, ins = read_instructions(path)
    assert kernel == "void k<float>(float *)"
    assert [(i.opcode, i.executed, i.samples) for i in ins] == [("LDC", 64, 2), ("MEMBAR", 64, 30), ("MUFU", 128, 8)]
    text = markdown(kernel, ins, top=2)
    assert "256 " not in text and "0.00 M warp instructions executed, 40 stall samples" in text
    assert "| MUFU | 0.00 | 50.0 | 20.0 |" in text and "| 1 | `@!P1  MEMBAR.ALL.GPU` | 64 | 75.0 |" in text


def test_run_cs_shows_the_membar_that_session_20_removed(capsys):
    kernel, ins = read_instructions(RUN_CS)
    assert kernel.startswith("void ort::softmax_kernels::cluster_online<ort::half_t")
    with RUN_CS.open() as f:
        next(f)  # the kernel-name line
        column = [int(r["Instructions Executed"]) for r in csv.DictReader(f) if r["Instructions Executed"].isdigit()]
    assert len(ins) == len(column) and sum(i.executed for i in ins) == sum(column)
    assert round(sum(column) / 1e6, 2) == 49.98  # the 49.98 M that docs/perf-notes.md quotes
    membar = next(i for i in ins if i.sass.endswith("MEMBAR.ALL.CTA"))
    assert membar.executed == 65536 and round(100 * membar.samples / sum(i.samples for i in ins), 1) == 7.1
    assert main([str(RUN_CS), "--top", "3"]) == 0
    assert "| FADD | 7.43 | 14.9 | 4.0 |" in capsys.readouterr().out
