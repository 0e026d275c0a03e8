"""The PDL trigger rule of src/cpp/core/cuda_launch.cuh, run on the host (no GPU needed, only nvcc).

Which trigger a launch passes decides how much of the gap between two kernels PDL hides, and a wrong one cost
up to 40 % on the H200 (docs/runs/pdl-trigger-h200-2026-11-30-bm.md); the rule is host code, so it is tested
here rather than only in a GPU session.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (grid blocks, threads a block, thread slots given to the stream, rule, expected trigger), from the H200's rows:
# 132 SMs x 2048 threads = 270336 slots.
H200_SLOTS = 132 * 2048
CASES = [
    (512, 256, H200_SLOTS, "HalfWindow", "AtExit"),   # reduce_sum 4096x1024: 48 % of the slots, faster at exit (run bm)
    (256, 512, H200_SLOTS, "HalfWindow", "AtExit"),   # reduce_sum 256x262144: 48 %
    (18, 256, H200_SLOTS, "HalfWindow", "Early"),     # reduce_sum 144x1280: 2 %
    (2048, 256, H200_SLOTS, "HalfWindow", "Early"),   # reduce_sum 4096x4096 halves: 194 %
    (4096, 256, H200_SLOTS, "HalfWindow", "Early"),   # 388 %: row kernels this large ran 1-2 % slower at exit (run ds)
    (512, 256, 0, "HalfWindow", "Early"),             # no thread slots given (softmax, vector_add, copy): always early
    (370, 256, H200_SLOTS, "HalfWindow", "AtExit"),   # 35.04 %: just inside
    (369, 256, H200_SLOTS, "HalfWindow", "Early"),    # 34.94 %: just outside
    (792, 256, H200_SLOTS, "HalfWindow", "Early"),    # 75.0 %: the upper bound is open
    # short_rows (run ds): early up to two waves, at exit above
    (512, 256, H200_SLOTS, "ManyWaves", "Early"),     # 4096x128: 48 %, 1.41 -> 1.04 us bf16 early
    (2048, 256, H200_SLOTS, "ManyWaves", "Early"),    # 16384x128: 194 %
    (2112, 256, H200_SLOTS, "ManyWaves", "Early"),    # 200 %: the bound is closed
    (2113, 256, H200_SLOTS, "ManyWaves", "AtExit"),   # just above
    (32768, 256, H200_SLOTS, "ManyWaves", "AtExit"),  # 262144x128: 3103 %, 40.5 -> 29.5 us bf16 at exit
    (32768, 256, 0, "ManyWaves", "Early"),            # no thread slots: early
    # reduce_sum's short rows (run kp): ManyWaves' early grids trigger after the wait, its many waves at exit
    (512, 256, H200_SLOTS, "ManyWavesAfterWait", "AfterWait"),   # 4096x128 halves: 1.22-1.27 -> 1.09-1.14 us
    (2112, 256, H200_SLOTS, "ManyWavesAfterWait", "AfterWait"),  # 200 %: the bound is closed
    (2113, 256, H200_SLOTS, "ManyWavesAfterWait", "AtExit"),     # just above
    (512, 256, 0, "ManyWavesAfterWait", "Early"),                # no thread slots: early, as every rule
    # reduce_sum's packed_rows where the next grid cannot sit beside it, or in one block an SM at most
    # (lane_packs_trigger): every grid at exit, or after the wait
    (512, 256, H200_SLOTS, "AtExit", "AtExit"),
    (18, 256, H200_SLOTS, "AtExit", "AtExit"),
    (18, 256, 0, "AtExit", "AtExit"),
    (18, 256, H200_SLOTS, "AfterWait", "AfterWait"),
    (18, 256, 0, "AfterWait", "AfterWait"),
]

# (blocks, SMs, resident blocks an SM, expected rule), lane_packs_trigger in ops/reduce_sum/nvidia/short_rows_plan.cuh
LANE_PACKS_CASES = [
    (512, 132, 6, "AtExit"),      # 4096 rows, fp16 6 packs (36 registers): 4 an SM, the next grid's 4 do not fit
    (510, 132, 5, "AtExit"),      # 4080 rows, 8 packs (43 registers)
    (512, 132, 8, "ManyWaves"),   # 5 packs (30-32 registers): 8 fit, early won
    (132, 132, 8, "AfterWait"),   # 1056 rows: one an SM, the bound closed (run kp)
    (133, 132, 8, "ManyWaves"),   # 1064 rows: past one an SM, 2 an SM fit beside 8
    (133, 132, 3, "AtExit"),      # the same grid where only 3 fit: the next grid's 2 would not
    (18, 132, 8, "AfterWait"),    # 144 rows (the bench's 144x1280)
    (18, 132, 0, "AfterWait"),    # occupancy unknown: one an SM needs none
    (256, 132, 5, "ManyWaves"),   # 2048 rows: 2 an SM, 4 fit beside 5
    (792, 132, 6, "AtExit"),      # one whole wave
    (793, 132, 6, "ManyWaves"),   # past a wave: the launch's own rule
    (512, 132, 0, "ManyWaves"),   # occupancy unknown: early, as before
]


RULE_NAME = ("static const char* name(ort::cuda::TriggerRule r) {\n"
             '  const char* names[] = {"HalfWindow", "ManyWaves", "ManyWavesAfterWait", "AtExit", "AfterWait"};\n'
             "  return names[int(r)];\n}\n")


@pytest.fixture(scope="module")
def lane_packs_program(tmp_path_factory):
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    src = tmp_path_factory.mktemp("lane_packs") / "lane_packs.cu"
    checks = "\n".join(f'  std::printf("%d %d %d %s\\n", {b}, {sm}, {r}, '
                       f"name(ort::lane_packs_trigger({b}, {sm}, {r})));" for b, sm, r, _ in LANE_PACKS_CASES)
    src.write_text('#include <cstdio>\n#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"\n'
                   f"{RULE_NAME}int main() {{\n{checks}\n  return 0;\n}}\n")
    exe = src.with_suffix("")
    subprocess.run(["nvcc", "-std=c++17", f"-I{ROOT / 'src/cpp'}", str(src), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    return {tuple(line.split()[:3]): line.split()[3] for line in out if line}


@pytest.mark.parametrize(("blocks", "sm_count", "resident", "expected"), LANE_PACKS_CASES)
def test_lane_packs_trigger(lane_packs_program, blocks, sm_count, resident, expected):
    assert lane_packs_program[(str(blocks), str(sm_count), str(resident))] == expected


@pytest.fixture(scope="module")
def trigger_program(tmp_path_factory):
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    src = tmp_path_factory.mktemp("trigger") / "trigger.cu"
    checks = "\n".join(
        f"  report({g}, {b}, {s}, \"{rule}\", ort::cuda::trigger_for(dim3({g}), dim3({b}), "
        f"ort::cuda::Stream{{nullptr, true, {s}, ort::cuda::TriggerRule::{rule}}}));"
        for g, b, s, rule, _ in CASES)
    src.write_text('#include <cstdio>\n#include "core/cuda_launch.cuh"\n'
                   "static void report(int g, int b, long long s, const char* rule, ort::cuda::Trigger t) {\n"
                   "  const char* names[] = {\"Early\", \"AtExit\", \"AfterWait\"};\n"
                   '  std::printf("%d %d %lld %s %s\\n", g, b, s, rule, names[int(t)]);\n}\n'
                   f"int main() {{\n{checks}\n  return 0;\n}}\n")
    exe = src.with_suffix("")
    subprocess.run(["nvcc", "-std=c++17", f"-I{ROOT / 'src/cpp'}", str(src), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    return {tuple(line.split()[:4]): line.split()[4] for line in out if line}


@pytest.mark.parametrize(("grid", "block", "slots", "rule", "expected"), CASES)
def test_trigger_by_grid(trigger_program, grid, block, slots, rule, expected):
    assert trigger_program[(str(grid), str(block), str(slots), rule)] == expected
