"""cluster_smem_held's table (src/cpp/ops/softmax/nvidia/softmax_smem_held_table.cuh), run on the host (no GPU
needed, only nvcc): for each 16-bit and fp32 row length, the CTAs a row, the packs a thread, the kernel create()
keeps and the shared memory execute() launches it with.

The table was measured on the H200 (runs ez-ff, session 30; refitted in runs fl, fm and fn, session 32, after session
31 aligned the slots that had made clusters of 4, 5 and 8 lose ~10 %; docs/perf-notes.md), and each thread holds the
fewest packs that hold the row, so the parts are equal (40000 halves cut 32768 + 7232 ran 75.8 us, cut evenly 65.3).
A wrong entry would be a slower kernel, not a wrong answer, so no GPU test would catch it.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (row length, CTAs a row, packs a thread); CTAs 0: the length is outside the table (another kernel takes it)
CASES = [
    (32768, 0, 0),       # rows up to 32768 stay on online / online_held
    (32769, 2, 5),       # the table's first length
    (40000, 2, 5),       # 2 x 20480 + ...: 65.3 us against 75.8 cut 32768 + 7232 (run ez)
    (49152, 2, 6),
    (53248, 2, 7),       # bf16 67.4 us against 4 x 4's 70.9 (run fn)
    (57344, 2, 7),
    (57345, 4, 4),
    (61440, 4, 4),       # 66.5 against 2 x 8's 67.4 (run fn)
    (65536, 4, 4),       # 1024x65536 halves: 66.1 us against 2 x 8's 67.2 (run fm, staged)
    (65537, 4, 5),
    (81920, 4, 5),       # 66.9 us against 3 x 7's 67.8 (run fl)
    (100000, 4, 7),      # four CTAs an SM at 56 KB: 68.1 against 3 x 9's 69.4 (run fl)
    (114688, 4, 7),
    (114689, 8, 4),      # 114696: 8 x 4 69.1 / 4 x 8 69.6 (fp16), 70.6 / 70.2 (bf16) (run fq, beyond)
    (122880, 8, 4),      # 66.5 against 4 x 8's 67.8 (run fq)
    (131072, 8, 4),      # 66.6 against 4 x 8's 67.9, 6 x 6's 67.7 (run fq)
    (131073, 8, 5),
    (147456, 8, 5),      # 67.1 against 6 x 6's 67.5 (run fm)
    (163840, 8, 5),      # 67.0 against 6 x 7's 67.4 (run fm)
    (163841, 8, 6),
    (196608, 8, 6),      # 67.5 against 6 x 8's 67.8 (run fm)
    (229376, 8, 7),      # 67.5 against 7 x 8's 68.3 (run fm)
    (262144, 8, 8),      # 256x262144 halves: 68.4 us against 6 x 11's 69.6 (run fm)
    (262145, 8, 9),
    (270336, 8, 9),      # 68.8 against 6 x 11's 69.3 (run fm); three CTAs an SM at 72 KB
    (270337, 8, 9),
    (294912, 8, 9),      # 68.9 against online's 108.6 (run fp, gaps): 37 % faster, the same 8 x 9 kernel
    (294913, 16, 5),     # a non-portable cluster of 16
    (327680, 16, 5),     # 66.9 against 8 x 10's 69.5 and online's 109.3 (runs fq, fr)
    (393216, 16, 6),     # 67.6 against 8 x 12's 70.6 (run fr)
    (458752, 16, 7),     # 67.9 against 8 x 14's 71.7 (run fr)
    (524288, 16, 8),     # 69.1 against 8 x 16's 79.3 and online's 119.1 (run fq)
    (589824, 16, 9),     # 68.2 against online's 118.9 (run fr)
    (589825, 16, 10),    # two CTAs an SM from here (80 KB)
    (655360, 16, 10),    # 71.9 against online's 123.3 (run ft, beyond3)
    (720896, 16, 11),
    (786432, 16, 12),
    (851968, 16, 13),
    (917504, 16, 14),    # 73.7 against online's 149.4 (run ft); 16 x 112 KB, the most a cluster holds
    (917505, 0, 0),
]

# fp32 rows: packs of 4 values, so a pack of 4 CTAs holds 8192 of them (runs fu, fw, fx: sweeps fp32, fp32b, fp32c)
CASES_F32 = [
    (16384, 0, 0),       # registers (one row a block)
    (16385, 4, 3),       # the table's first length
    (24000, 4, 3),       # 65.5 against cluster_registers' masked 2 CTAs' 95.4 (run fx); 2 x 6 66.3
    (32768, 4, 4),       # 66.0 against cluster_registers' 66.3, every pack filled
    (50000, 4, 7),       # 67.0 against 104.3; 8 x 4 67.4
    (57344, 4, 7),
    (57345, 8, 4),
    (65536, 8, 4),       # 66.1 against cluster_registers' 67.4; 4 x 8 67.3
    (100000, 8, 7),      # 67.1 against 108.3; 16 x 4 69.4
    (114688, 8, 7),
    (114689, 16, 4),
    (131072, 16, 4),     # 66.0 against cluster_registers' 69.0; 8 x 8 67.7
    (131073, 16, 5),
    (140000, 16, 5),     # 67.0 against cluster_registers' masked 16 CTAs' 155.0 (run fw)
    (163840, 16, 5),
    (163841, 16, 6),
    (229376, 16, 7),     # 67.7 against 111.4
    (262144, 16, 8),     # 68.7 against cluster_registers' 70.4 (run fu)
    (262145, 16, 9),
    (294912, 16, 9),     # 67.8 against online's 119.5; 72 KB a CTA, three an SM
    (294913, 16, 10),    # two an SM from here
    (393216, 16, 12),
    (458752, 16, 14),    # 71.1 against online's 131.1; 16 x 112 KB, as 16-bit rows of 917504
    (458753, 0, 0),      # online
]


@pytest.fixture(scope="module")
def table_program(tmp_path_factory):
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    src = tmp_path_factory.mktemp("smem_held") / "table.cu"
    checks = "\n".join([f"  report<ort::half_t, ort::bfloat16_t>({n});" for n, _, _ in CASES] +
                       [f"  report<float, float>({n});" for n, _, _ in CASES_F32])
    src.write_text(
        '#include <cstdio>\n#include "ops/softmax/nvidia/softmax_smem_held_table.cuh"\n'
        "using namespace ort::softmax_kernels;\n"
        "template <class T, size_t... I>\n"
        "int packs_of_kernel(SoftmaxKernel<T> k, std::index_sequence<I...>) {\n"
        "  constexpr int V = kSmemHeldVec<T>;\n"
        "  int packs = -1;  // which instantiation the pointer is, found by comparing against each\n"
        "  constexpr auto& S = kSmemHeldShapes<V>;\n"
        "  ((k == &cluster_smem_held<T, V, kSmemHeldThreads, S[I].packs, S[I].cluster>\n"
        "        ? void(packs = S[I].packs * 100 + S[I].cluster) : void()), ...);\n"
        "  return packs;\n}\n"
        "template <class T>\n"
        "int kernel_of(int s) {\n"
        "  return packs_of_kernel<T>(smem_held_kernel<T>(s),\n"
        "                            std::make_index_sequence<kSmemHeldShapes<kSmemHeldVec<T>>.size()>{});\n}\n"
        "template <class A, class B>  // two dtypes of one pack width, each asked for its own kernel\n"
        "static void report(long long n) {\n"
        "  constexpr int V = kSmemHeldVec<A>;\n"
        "  const int cluster = pick_smem_held_cluster<V>(n), s = smem_held_shape<V>(n);\n"
        '  if (s < 0) { std::printf("%d %lld %d -1 0 0 0\\n", V, n, cluster); return; }\n'
        '  std::printf("%d %lld %d %d %d %d %zu\\n", V, n, smem_held_cluster<A>(s), smem_held_packs<V>(n, cluster),\n'
        "              kernel_of<A>(s), kernel_of<B>(s), smem_held_bytes<A>(s));\n}\n"
        f"int main() {{\n{checks}\n  return 0;\n}}\n")
    exe = src.with_suffix("")
    subprocess.run(["nvcc", "-std=c++17", "-arch=sm_90", "--expt-relaxed-constexpr", f"-I{ROOT / 'src/cpp'}",
                    str(src), "-o", str(exe)], check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split("\n")
    return {(int(line.split()[0]), int(line.split()[1])): [int(v) for v in line.split()[2:]] for line in out if line}


@pytest.mark.parametrize(("vec", "length", "cluster", "packs"),
                         [(8, *case) for case in CASES] + [(4, *case) for case in CASES_F32])
def test_each_length_takes_its_measured_shape(table_program, vec, length, cluster, packs):
    got_cluster, got_packs, kernel_a, kernel_b, smem = table_program[(vec, length)]
    assert got_cluster == cluster
    assert (got_packs == -1) == (cluster == 0)  # smem_held_shape is -1 exactly where the table holds no such row
    if cluster:
        assert got_packs == packs
        # the fewest packs that hold it
        assert cluster * packs * 512 * vec >= length > cluster * (packs - 1) * 512 * vec
        assert kernel_a == kernel_b == packs * 100 + cluster  # the kernel built for exactly that pair (fp16, bf16)
        assert smem == packs * 512 * 16  # the bytes it is launched with: each thread's packs, 16 bytes each
