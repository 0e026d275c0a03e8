"""The wheel that was built: CUDA sources compiled when nvcc was there, stubs and py.typed shipped."""

from __future__ import annotations

import importlib.resources
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import operator_runtime as ort
from operator_runtime import _C

ROOT = Path(__file__).resolve().parents[1]


def _nvcc(*args) -> None:
    """Compiles for sm_90 against the library's headers with the given nvcc arguments; skips without nvcc."""
    if shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH")
    cmd = ["nvcc", "-std=c++17", "-arch=sm_90", f"-I{ROOT / 'src/cpp'}", *map(str, args)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]


def test_cuda_sources_were_compiled_when_nvcc_is_present():
    if os.environ.get("ORT_CUDA") == "OFF" or shutil.which("nvcc") is None:
        pytest.skip("no nvcc on PATH (or ORT_CUDA=OFF): a CPU-only build is expected here")
    assert _C.cuda_built(), "nvcc is on PATH but the nvidia backend was not compiled"
    assert "90" in _C.cuda_architectures()
    assert hasattr(_C, "CopyNvidia")


def test_stubs_and_py_typed_ship_with_the_package():
    files = importlib.resources.files("operator_runtime")
    assert files.joinpath("py.typed").is_file()
    stub = files.joinpath("_C.pyi").read_text()
    assert "class CopyCpu" in stub and "def execute" in stub


def test_tilelang_is_not_imported_by_the_package():
    import sys

    code = "import sys, operator_runtime; print('tilelang' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_public_api_surface():
    for name in ("copy", "prepare_copy", "PreparedOp", "Backend", "available_backends",
                 "OperatorRuntimeError", "BackendUnavailableError"):
        assert hasattr(ort, name), name
    assert issubclass(ort.BackendUnavailableError, ort.OperatorRuntimeError)
    assert issubclass(ort.OperatorRuntimeError, RuntimeError)
    assert ort.Backend("nvidia") is ort.Backend.NVIDIA and ort.Backend.CPU == "cpu"
    assert ort.Backend.CPU in ort.available_backends()


@pytest.mark.parametrize("source", ["softmax_configs.cu", "reduce_sum_splits.cu", "launch_floor.cu", "copy_flat.cu",
                                    "vector_add_rows.cu", "pdl_placement.cu", "vector_add_params.cu",
                                    "reduce_sum_short_rows.cu", "softmax_short_rows.cu", "softmax_waves.cu",
                                    "softmax_held_ceiling.cu", "reduce_sum_trigger.cu", "reduce_sum_lane_packs.cu",
                                    "softmax_bulk.cu", "vector_add_flat_blocks.cu", "reduce_sum_columns.cu",
                                    "softmax_held_throttle.cu", "softmax_held_hints.cu",
                                    "memory_placement.cu", "softmax_held_pipeline.cu"])
def test_gpu_sweeps_still_compile(source, tmp_path):
    # The sweeps launch the library's kernel templates directly; a kernel change that breaks them would
    # otherwise surface only in a GPU session's `gpu_check.sh --sweep`, after its device time is spent.
    # -Werror all-warnings: a constexpr host function called from device code is only a warning here, and
    # the library build (relaxed constexpr) would never show it.
    _nvcc("-O1", "-Werror", "all-warnings", "-c", ROOT / "tests/bench/sweeps" / source, "-o", tmp_path / "sweep.o")


def test_every_kernel_waits_for_the_kernel_before_it():
    # Every nvidia kernel is launched with programmatic dependent launch (core/cuda_launch.cuh): it may start
    # while the kernel before it still runs, so it must wait (pdl_prologue) before it touches memory. A kernel
    # without the call, or a launch that bypasses cuda::launch, would race on the GPU only, where CI cannot see.
    root = ROOT / "src/cpp"
    kernels = 0
    for path in sorted(root.rglob("*.cu*")):
        text = path.read_text()
        assert "<<<" not in re.sub(r"//.*", "", text), f"{path.name}: launch through cuda::launch, not <<<>>>"
        for m in re.finditer(r"^__global__ .*?\)\s*\{[^\n]*\n([^\n]*)\n", text, re.M | re.S):
            kernels += 1
            first = m.group(1).strip()
            # cuda::pdl_prologue<AFTER_WAIT>(trigger): the instantiations that trigger after the wait (reduce_sum's
            # packed_rows) wait first too
            assert re.fullmatch(r"cuda::pdl_prologue(<\w+>)?\(trigger\);", first), f"{path.name}: {first}"
            assert "cuda::Trigger trigger)" in m.group(0), f"{path.name}: the trigger is the kernel's last parameter"
    assert kernels >= 15


@pytest.fixture(scope="module")
def softmax_ptx(tmp_path_factory) -> str:
    """The sm_90 PTX of softmax_cuda.cu, compiled once for the checks below."""
    ptx = tmp_path_factory.mktemp("softmax") / "softmax.ptx"
    _nvcc("-O3", "--expt-relaxed-constexpr", "-DORT_WITH_CUDA=1", "-ptx",
          ROOT / "src/cpp/ops/softmax/nvidia/softmax_cuda.cu", "-o", ptx)
    return ptx.read_text()


def test_cluster_exchange_arms_its_mbarrier_at_cta_scope(softmax_ptx):
    # cluster_combine's thread 0 arms its CTA's mbarrier with the bytes the cluster's st.async pairs bring. With a
    # release at cluster scope that arm compiled to MEMBAR.ALL.GPU, on the exchange's critical path: 7 % of
    # cluster_online's stall samples, 2-7 % of every cluster row's time on the H200 (session 20, runs cs and ct).
    # The pairs are published by st.async's own complete-tx, so a CTA-scope release is all the arm needs; a
    # cluster- or GPU-scope one would cost that time again without a test failing anywhere else.
    arms = re.findall(r"mbarrier\.arrive\.expect_tx\.(\w+)\.(\w+)\.", softmax_ptx)
    assert arms, "no cluster kernel armed an mbarrier: did the exchange change?"
    assert set(arms) == {("release", "cta")}, sorted(set(arms))


def test_cluster_kernels_wait_on_their_cluster_once_before_reading(softmax_ptx):
    # The cluster kernels arrive on their one cluster barrier and wait on it at the start, and have none before
    # their exit: a CTA passes its mbarrier only when every pair sent to it has landed (session 21, run cu:
    # cluster_online ~1 % on the 16-bit rows of 65536 and 262144; session 22, run da: cluster_registers 1 % on
    # fp32 rows of 262144). A second barrier between or after the passes would cost that again, and no other
    # test would fail. cluster_smem_held (session 29) reads the row by cp.async into shared memory.
    entries = (chunk.partition("(") for chunk in softmax_ptx.split(".entry ")[1:])  # each kernel to the next one
    names = ("cluster_online", "cluster_registers", "cluster_smem_held")
    kernels = [(name, body) for name, _, body in entries if any(n in name for n in names)]
    online = [name for name, _ in kernels if "cluster_online" in name]
    held = [name for name, _ in kernels if "cluster_smem_held" in name]
    assert len(online) == 9, online  # clusters of 4, 8 and 16 CTAs for each dtype
    assert len(held) == 66, held  # the 16-bit table's 23 (CTAs, packs) pairs, fp16 and bf16; the fp32 table's 20
    assert len(kernels) > len(online) + len(held), "no cluster_registers kernel in the PTX"
    for name, body in kernels:
        assert body.count("barrier.cluster.arrive") == 1, name
        assert body.count("barrier.cluster.wait") == 1, name
        first_read = min(body.index(op) for op in ("ld.global", "cp.async") if op in body)
        assert body.index("barrier.cluster.wait") < first_read, name
