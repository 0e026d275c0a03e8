"""The TileLang reduce_sum sweep's row variants, on the CPU: which rows time the warp-a-row packed kernel or the
one-block-a-row kernel beside the library's choice, so that a GPU session does not spend device time on a shape the
variant cannot hold."""

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


@pytest.mark.parametrize("n,dtype,extra", [
    # the library runs a warp a row: `block`, the one-block-a-row kernel it ran before, and `warp`, the trigger at exit
    (512, torch.float16, ["block", "warp"]), (768, torch.bfloat16, ["block", "warp"]),
    (1024, torch.float16, ["block", "warp"]), (1000, torch.float16, ["block", "warp"]),
    (264, torch.bfloat16, ["block", "warp"]), (1536, torch.float16, ["block", "warp"]),
    (256, torch.float16, ["warp"]), (136, torch.bfloat16, ["warp"]),  # one pack a lane: `warp`, not the library's
    (128, torch.float16, []),  # the short-row kernels' rows
    (2056, torch.float16, []), (1020, torch.float16, []),  # 9 packs a lane; not whole packs
    (1024, torch.float32, [])])  # fp32 rows read 4-byte words at 0.99-1.07x already
def test_row_variants_time_the_other_of_warp_and_block(n, dtype, extra):
    variants = sweep.row_variants(n, dtype)
    assert variants[:len(sweep.ROW_CHUNKS)] == list(sweep.ROW_CHUNKS)
    assert variants[len(sweep.ROW_CHUNKS):] == extra


@pytest.mark.parametrize("n,dtype,keep,chosen", [
    # session 61: the old pass (`block`) beside the few-rows rule's one pass, where no warp-a-row plan offers it
    (3328, torch.float16, {"packed", "block", "m128x4"}, ["packed", "m128x4", "block"]),
    (1024, torch.float16, {"packed", "block"}, ["packed", "block"]),  # offered already: once
    (2304, torch.float32, {"packed", "block", "m128x3"}, ["packed"]),  # fp32: no packed row kernel
    (2306, torch.bfloat16, {"block"}, [])])  # not whole packs
def test_named_variants_reach_every_16_bit_row_of_whole_packs(n, dtype, keep, chosen):
    assert sweep.chosen_row_variants(n, dtype, keep) == chosen
