"""The TileLang reduce_sum sweep's row variants, on the CPU: which rows time the warp-a-row packed kernel, so that a
GPU session does not spend device time on a shape the variant cannot hold."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
import torch

if importlib.util.find_spec("tilelang") is None:
    pytest.skip("tilelang not installed (pip install 'operator-runtime[tilelang]')", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("tilelang_reduce_sum",
                                               ROOT / "tests/bench/sweeps/tilelang_reduce_sum.py")
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)


@pytest.mark.parametrize("n,dtype,warp", [
    (512, torch.float16, True), (768, torch.bfloat16, True), (1024, torch.float16, True),  # 2, 3, 4 packs a lane
    (256, torch.float16, False),  # one pack a lane: the short-row kernels' shape already
    (1536, torch.float16, False), (1000, torch.float16, False),  # 6 packs a lane; not whole lanes of packs
    (1024, torch.float32, False)])  # fp32 rows read 4-byte words at 0.99-1.07x already
def test_warp_variant_only_where_a_lane_holds_2_to_4_packs(n, dtype, warp):
    variants = sweep.row_variants(n, dtype)
    assert variants[:len(sweep.ROW_CHUNKS)] == list(sweep.ROW_CHUNKS)
    assert ("warp" in variants) == warp
