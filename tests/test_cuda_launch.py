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

# (grid blocks, threads a block, thread slots given to the stream, expected trigger), from the H200's rows:
# 132 SMs x 2048 threads = 270336 slots.
H200_SLOTS = 132 * 2048
CASES = [
    (512, 256, H200_SLOTS, "AtExit"),   # reduce_sum 4096x1024: 48 % of the slots, faster at exit (run bm)
    (256, 512, H200_SLOTS, "AtExit"),   # reduce_sum 256x262144: 48 %
    (18, 256, H200_SLOTS, "Early"),     # reduce_sum 144x1280: 2 %
    (2048, 256, H200_SLOTS, "Early"),   # reduce_sum 4096x4096 halves: 194 %
    (512, 256, 0, "Early"),             # no thread slots given (softmax, vector_add, copy): always early
    (370, 256, H200_SLOTS, "AtExit"),   # 35.04 %: just inside
    (369, 256, H200_SLOTS, "Early"),    # 34.94 %: just outside
    (792, 256, H200_SLOTS, "Early"),    # 75.0 %: the upper bound is open
]


@pytest.fixture(scope="module")
def trigger_program(tmp_path_factory):
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    src = tmp_path_factory.mktemp("trigger") / "trigger.cu"
    checks = "\n".join(
        f"  report({g}, {b}, {s}, ort::cuda::trigger_for(dim3({g}), dim3({b}), "
        f"ort::cuda::Stream{{nullptr, true, {s}}}) == ort::cuda::Trigger::AtExit);"
        for g, b, s, _ in CASES)
    src.write_text('#include <cstdio>\n#include "core/cuda_launch.cuh"\n'
                   "static void report(int g, int b, long long s, bool at_exit) {\n"
                   '  std::printf("%d %d %lld %s\\n", g, b, s, at_exit ? "AtExit" : "Early");\n}\n'
                   f"int main() {{\n{checks}\n  return 0;\n}}\n")
    exe = src.with_suffix("")
    subprocess.run(["nvcc", "-std=c++17", f"-I{ROOT / 'src/cpp'}", str(src), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    return {tuple(int(v) for v in line.split()[:3]): line.split()[3] for line in out if line}


@pytest.mark.parametrize(("grid", "block", "slots", "expected"), CASES)
def test_trigger_by_grid(trigger_program, grid, block, slots, expected):
    assert trigger_program[(grid, block, slots)] == expected
