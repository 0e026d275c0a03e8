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


def host_program_lines(tmp_path_factory, name: str, source: str) -> list[str]:
    """Compiles `source` (a host program over the library's headers) with nvcc and returns the lines it prints."""
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    src = tmp_path_factory.mktemp(name) / f"{name}.cu"
    src.write_text(source)
    exe = src.with_suffix("")
    subprocess.run(["nvcc", "-std=c++17", f"-I{ROOT / 'src/cpp'}", str(src), "-o", str(exe)], check=True,
                   capture_output=True, text=True)
    return [line for line in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
            if line]

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
    # reduce_sum's packed_rows where the next grid cannot sit beside it (lane_packs_at_exit): every grid at exit
    (512, 256, H200_SLOTS, "AtExit", "AtExit"),
    (18, 256, H200_SLOTS, "AtExit", "AtExit"),
    (18, 256, 0, "AtExit", "AtExit"),
]

# (blocks, SMs, resident blocks an SM, expected), lane_packs_at_exit in ops/reduce_sum/nvidia/short_rows_plan.cuh
LANE_PACKS_CASES = [
    (512, 132, 6, True),    # 4096 rows, fp16 6 packs (36 registers): 4 an SM, the next grid's 4 do not fit beside
    (510, 132, 5, True),    # 4080 rows, 8 packs (43 registers)
    (512, 132, 8, False),   # 5 packs (30-32 registers): 8 fit, early won
    (128, 132, 5, False),   # 1024 rows: one an SM (at exit lost out of L2 there, run hp)
    (34, 132, 8, False),    # 272 rows: TileLang's window (at exit there) is not ours
    (256, 132, 5, False),   # 2048 rows: 2 an SM, 4 fit beside 5
    (792, 132, 6, True),    # one whole wave
    (793, 132, 6, False),   # past a wave: the launch's own rule
    (512, 132, 0, False),   # occupancy unknown: early, as before
]


@pytest.fixture(scope="module")
def lane_packs_program(tmp_path_factory):
    checks = "\n".join(f'  std::printf("%d %d %d %d\\n", {b}, {sm}, {r}, int(ort::lane_packs_at_exit({b}, {sm}, {r})));'
                       for b, sm, r, _ in LANE_PACKS_CASES)
    lines = host_program_lines(tmp_path_factory, "lane_packs",
                               '#include <cstdio>\n#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"\n'
                               f"int main() {{\n{checks}\n  return 0;\n}}\n")
    return {tuple(line.split()[:3]): line.split()[3] == "1" for line in lines}


@pytest.mark.parametrize(("blocks", "sm_count", "resident", "expected"), LANE_PACKS_CASES)
def test_lane_packs_at_exit(lane_packs_program, blocks, sm_count, resident, expected):
    assert lane_packs_program[(str(blocks), str(sm_count), str(resident))] is expected


# (blocks, SMs, packs a lane, element bytes, resident blocks an SM, expected), lane_packs_after_wait in
# ops/reduce_sum/nvidia/short_rows_plan.cuh: more than a sixth of the SMs' count of blocks, at most 1.375 an SM (runs
# kr, ku), 1.875 for rows of 3 packs a lane and 16-bit rows of 4-5 (runs lf, lg, lk, ll), 2.375 for rows of 2 (lk,
# ll); inside that, grids the SMs' slots hold a whole number of times to within 1/40 of a grid stay early up to 1.625
# blocks an SM (runs lp, lq).
# Residents as the H200 build has them: 8 for every fp32 row and 16-bit rows of 2-5 packs, 6 for fp16 rows of 6-7,
# 5 for 16-bit rows of 8 (registers: cuobjdump -res-usage).
LANE_AFTER_WAIT_CASES = [
    (18, 132, 5, 2, 8, False),    # rows-144x1280: early was 4 % faster in the bench
    (22, 132, 5, 2, 8, False),    # 132 / 6: the bound is open
    (23, 132, 5, 2, 8, True),     # 184 rows: 1.14-1.42x after the wait
    (132, 132, 6, 2, 0, True),    # 1056 rows: one an SM; resident unknown, the window alone
    (133, 132, 5, 2, 8, True),    # 1064 rows: 1.13-1.80x after the wait (run ku)
    (181, 132, 6, 2, 6, True),    # 1.375 x 132 = 181.5: the bound is closed
    (182, 132, 6, 2, 6, False),   # just above: early (ManyWaves) or at exit (lane_packs_at_exit)
    (189, 132, 6, 2, 6, False),   # 1512 rows: after the wait 3 % slower at 1536 halves (7-8 % at 196 blocks, 1536-2048)
    (189, 132, 8, 2, 5, False),   # 2048 halves: 8 packs keep 1.375
    (189, 132, 4, 2, 8, True),    # 2-4 packs: 1.03-1.48x after the wait at most counts of 182-247 (run lk)
    (189, 132, 4, 4, 8, False),   # fp32 rows of 4 packs (512) keep 1.375: 4-13 % slower at 203, 210 and 245 (run ll)
    (247, 132, 3, 4, 8, True),    # 3 packs: 1.875 x 132 = 247.5, the bound is closed
    (248, 132, 4, 2, 8, False),   # 4 packs just above (248-259 blocks: 5-15 % slower after the wait)
    (313, 132, 2, 2, 8, True),    # 2 packs: 2.375 x 132 = 313.5, the bound is closed (1.03-1.37x to 315)
    (313, 132, 2, 4, 8, True),    # ... fp32 rows of 2 packs (256) too
    (314, 132, 2, 2, 8, False),   # just above (322-350 blocks: 1-7 % slower)
    (248, 132, 3, 2, 8, False),   # 3 packs past 1.875 (252-259 blocks: 5-8 % slower)
    (181, 132, 5, 4, 8, True),    # fp32 rows of 5 packs: 1.375
    (182, 132, 5, 4, 8, False),   # ... lost 5-14 % at 203-210 blocks (run lg)
    (182, 132, 5, 2, 8, True),    # 1456x1040: 1.49-1.61x after the wait (runs lf, lg)
    (247, 132, 5, 2, 8, True),    # 1.875 x 132 = 247.5: the bound is closed
    (248, 132, 5, 2, 8, False),   # just above (252 blocks: bf16 4-14 % slower after the wait)
    (512, 132, 5, 2, 8, False),   # 4096 rows: after the wait 22-31 % slower in 16-bit (runs kp, kt)
    # whole grids (run lp, early / after the wait): 1056 = 8 x 132 = 5 x 211 + 1, 792 = 6 x 132 = 5 x 158 + 2,
    # 660 = 4 x 164 + 4
    (132, 132, 6, 2, 6, False),   # 1056 fp16 rows of 1536: early 1.09x faster
    (132, 132, 3, 4, 8, False),   # fp32 384: 1.03-1.05x
    (24, 132, 4, 2, 8, False),    # just past a sixth, 1056 = 44 x 24: 1.08-1.09x
    (211, 132, 4, 2, 8, False),   # fp16 / bf16 1024: 1.09-1.12x
    (158, 132, 6, 2, 6, False),   # fp16 1536: 1.25x
    (164, 132, 8, 2, 5, False),   # fp16 2048: 1.18-1.20x
    (210, 132, 4, 2, 8, True),    # 6 left over (40 x 6 > 210): after the wait, though early was 1.04-1.11x faster
    (163, 132, 8, 2, 5, True),    # 8 left over: after the wait (early 1.19x faster: the band's cost)
    (50, 132, 4, 2, 8, True),     # 6 left over, 12 % of a grid: early took 1.47x as long in bf16
    (117, 132, 3, 4, 8, True),    # 3 left over (40 x 3 > 117): early 5 % slower in fp32 384
    (158, 132, 6, 2, 8, True),    # bf16 rows of 6 packs hold 8 an SM: 1056 mod 158 = 108, after the wait
    (214, 132, 2, 2, 8, True),    # 1.625 x 132 = 214.5, inside the bound, but 1056 mod 214 = 200: after the wait
    (264, 132, 2, 2, 8, True),    # 1056 = 4 x 264, but past 1.625 an SM: early 6-7 % slower at 2 packs (run lq)
    (263, 132, 2, 4, 8, True),    # 4 left over, fp32 256: early 2-3 % slower (run lq)
    (176, 132, 7, 2, 6, True),    # fp16 1792, 6 resident: 792 mod 176 = 88, after the wait
    (132, 132, 7, 2, 6, False),   # ... and 792 = 6 x 132: early (run lq: 1.21x)
]

# (blocks of 256 threads, thread slots, expected), packed_rows_after_wait: more than a sixth of a wave, at most 1.5
PACKED_AFTER_WAIT_CASES = [
    (128, H200_SLOTS, False),    # 0.12 waves (16384x16 halves): 1-8 % slower after the wait
    (176, H200_SLOTS, False),    # 176 x 256 = H200_SLOTS / 6: the bound is open
    (177, H200_SLOTS, True),     # just inside
    (192, H200_SLOTS, True),     # 0.18 (12288x32 fp16 1.30x)
    (1584, H200_SLOTS, True),    # 1.5 waves: the bound is closed
    (1585, H200_SLOTS, False),   # just above
    (2048, H200_SLOTS, False),   # 1.94 waves: 0-1.3 % slower
    (512, 0, False),             # no thread slots: early, as before
]


@pytest.fixture(scope="module")
def after_wait_program(tmp_path_factory):
    checks = [f'  std::printf("lane %d %d %d %d %d %d\\n", {b}, {sm}, {packs}, {size}, {res}, '
              f'int(ort::lane_packs_after_wait({b}, {sm}, {packs}, {size}, {res})));'
              for b, sm, packs, size, res, _ in LANE_AFTER_WAIT_CASES]
    checks += [f'  std::printf("packed %d %d %d\\n", {b}, {slots}, int(ort::packed_rows_after_wait({b}, {slots})));'
               for b, slots, _ in PACKED_AFTER_WAIT_CASES]
    lines = host_program_lines(tmp_path_factory, "after_wait",
                               '#include <cstdio>\n#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"\n'
                               "int main() {\n" + "\n".join(checks) + "\n  return 0;\n}\n")
    return {tuple(line.split()[:-1]): line.split()[-1] == "1" for line in lines}


@pytest.mark.parametrize(("blocks", "sm_count", "lane_packs", "elem_size", "resident", "expected"),
                         LANE_AFTER_WAIT_CASES)
def test_lane_packs_after_wait(after_wait_program, blocks, sm_count, lane_packs, elem_size, resident, expected):
    key = ("lane", str(blocks), str(sm_count), str(lane_packs), str(elem_size), str(resident))
    assert after_wait_program[key] is expected


@pytest.mark.parametrize(("blocks", "thread_slots", "expected"), PACKED_AFTER_WAIT_CASES)
def test_packed_rows_after_wait(after_wait_program, blocks, thread_slots, expected):
    assert after_wait_program[("packed", str(blocks), str(thread_slots))] is expected


@pytest.fixture(scope="module")
def trigger_program(tmp_path_factory):
    checks = "\n".join(
        f"  report({g}, {b}, {s}, \"{rule}\", ort::cuda::trigger_for(dim3({g}), dim3({b}), "
        f"ort::cuda::Stream{{nullptr, true, {s}, ort::cuda::TriggerRule::{rule}}}) == ort::cuda::Trigger::AtExit);"
        for g, b, s, rule, _ in CASES)
    lines = host_program_lines(tmp_path_factory, "trigger",
                               '#include <cstdio>\n#include "core/cuda_launch.cuh"\n'
                               "static void report(int g, int b, long long s, const char* rule, bool at_exit) {\n"
                               '  std::printf("%d %d %lld %s %s\\n", g, b, s, rule, at_exit ? "AtExit" : "Early");\n}\n'
                               f"int main() {{\n{checks}\n  return 0;\n}}\n")
    return {tuple(line.split()[:4]): line.split()[4] for line in lines}


@pytest.mark.parametrize(("grid", "block", "slots", "rule", "expected"), CASES)
def test_trigger_by_grid(trigger_program, grid, block, slots, rule, expected):
    assert trigger_program[(str(grid), str(block), str(slots), rule)] == expected
