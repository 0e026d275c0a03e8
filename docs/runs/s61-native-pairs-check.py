"""Session 61's native-pairs arm (runs/s61-va-native-pairs.patch: 16-bit vector_add packs added by add.f16x2 /
add.bf16x2, one rounding) against torch's a + b (fp32 opmath, then one narrowing), bit for bit: random values, values
whose exponents differ by 0-40 (where the fp32 sum is inexact), ties at the 16-bit rounding point, signed zeros,
infinities and NaNs; flat, row-broadcast and row_grid plans, with ORT_VA_BF16 at 0 and 1. Prints one line a case and
exits 1 on any difference (NaNs compared as NaNs).

    python docs/runs/s61-native-pairs-check.py

Run kb ran it with these operands written out here; they now come from operator_runtime_testing.rounding (the same
code and the same draws from the generator), which test_16_bit_sums_round_as_torch_bit_for_bit shares.
"""
import os
import sys

import torch

import operator_runtime as ort
from operator_runtime_testing.rounding import pairs_that_round


def operands(dtype, n, kind, gen):
    if kind == "random":
        return (torch.randn(n, generator=gen) * 100).to(dtype), torch.randn(n, generator=gen).to(dtype)
    return pairs_that_round(kind, dtype, n, gen)

def main():
    gen = torch.Generator().manual_seed(61)
    bad = 0
    for flag in ("0", "1"):
        os.environ["ORT_VA_BF16"] = flag
        for dtype in (torch.float16, torch.bfloat16):
            for kind in ("random", "exponents", "ties", "special"):
                for rows, n in ((1, 1 << 20), (4096, 4096), (64, 2048), (1000, 1031)):
                    a, b = operands(dtype, rows * n, kind, gen)
                    a, b = a.view(rows, n).cuda(), b.view(rows, n).cuda()
                    for name, x, y in (("full", a, b), ("row-broadcast", a, b[0])):
                        got, want = ort.vector_add(x, y, backend="nvidia"), x + y
                        same = torch.equal(got.view(torch.int16), want.view(torch.int16)) or bool(
                            ((got == want) | (got.isnan() & want.isnan())).all())
                        bad += not same
                        print(f"ORT_VA_BF16={flag} {str(dtype)[6:]} {kind} {rows}x{n} {name}: "
                              f"{'ok' if same else 'MISMATCH'}", flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
