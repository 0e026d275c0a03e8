"""Run jt's correctness check of the held_row experiment (ORT_VA_HELD, read at create): vector_add's row-vector
broadcasts that the switch sends to held_row, against torch, in every dtype; b or a the row vector, rows a block that
do and do not divide the rows, a row with a tail that fills no pack. Prints one line a shape and exits 1 on a mismatch."""

import sys

import torch

import operator_runtime as ort

bad = 0
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    for rows, inner, swap in ((16384, 16384, False), (16384, 16384, True), (3001, 4100, False), (1000, 70001, True)):
        x = torch.randn(rows, inner, device="cuda", dtype=dtype)
        v = torch.randn(inner, device="cuda", dtype=dtype)
        a, b = (v, x) if swap else (x, v)
        got = ort.vector_add(a, b, backend="nvidia")
        want = (a.float() + b.float()).to(dtype)
        ok = torch.equal(got, want)
        bad += not ok
        print(f"{str(dtype):15s} {rows}x{inner} swap={swap}: {'ok' if ok else 'MISMATCH'}")
sys.exit(1 if bad else 0)
