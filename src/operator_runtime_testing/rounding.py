"""Operands whose 16-bit sums test rounding: where one rounding in 16 bits (a paired add.f16x2 / add.bf16x2) and
torch's add in fp32 then narrowing could part if they were not the same rounding."""

from __future__ import annotations

import torch

KINDS = ("exponents", "ties", "special")
_MANTISSA_BITS = {torch.float16: 10, torch.bfloat16: 7}  # stored fraction bits: a normal value's ulp is 2^(e - bits)


def pairs_that_round(kind: str, dtype: torch.dtype, n: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """n pairs (a, b) on the CPU of one KINDS: `exponents`, b = a x 2^-k for k in 0-40 of either sign (the fp32 sum
    exact up to k ~ 16, rounded past it); `ties`, b a quarter, half, three quarters or one and a half of a's ulp (sums
    on and beside a tie of the 16-bit grid); `special`, signed zeros, infinities, NaNs and the largest values."""
    if kind == "exponents":
        a = torch.randn(n, generator=gen).to(dtype)
        k = torch.randint(0, 41, (n,), generator=gen).float()
        sign = torch.where(torch.rand(n, generator=gen) < 0.5, -1.0, 1.0)
        return a, (a.float() * torch.exp2(-k) * sign * (1 + torch.rand(n, generator=gen))).to(dtype)
    if kind == "ties":
        a = torch.randn(n, generator=gen).to(dtype)
        # a's ulp in its own 16-bit grid (not fp32's: a fraction of that rounds back to a and reaches no tie)
        _, exponent = torch.frexp(a.float())
        ulp = torch.ldexp(torch.ones(n), exponent - 1 - _MANTISSA_BITS[dtype])
        ulp = ulp.clamp(min=torch.finfo(dtype).tiny * 2.0 ** -_MANTISSA_BITS[dtype])  # subnormal a: the subnormal step
        frac = torch.tensor([0.25, 0.5, 0.75, 1.5])[torch.randint(0, 4, (n,), generator=gen)]
        return a, (ulp * frac).to(dtype)
    if kind != "special":
        raise ValueError(f"kind: expected one of {KINDS}, got {kind!r}")
    special = torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1.0, -1.0,
                            torch.finfo(dtype).max, -torch.finfo(dtype).max, torch.finfo(dtype).tiny])
    i = torch.randint(0, len(special), (2, n), generator=gen)
    return special[i[0]].to(dtype), special[i[1]].to(dtype)
