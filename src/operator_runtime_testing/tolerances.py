"""The ONE per-dtype tolerance table. Reference results are computed in float64 and cast to the dtype,
so a correct kernel differs from them by about one rounding of the output dtype."""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float


TOLERANCES: dict[torch.dtype, Tolerance] = {
    torch.float32: Tolerance(rtol=1e-5, atol=1e-6),
    torch.float16: Tolerance(rtol=2e-3, atol=1e-5),    # one fp16 ulp is 2^-10 ~ 9.8e-4
    torch.bfloat16: Tolerance(rtol=1.6e-2, atol=1e-5),  # one bf16 ulp is 2^-7 ~ 7.8e-3
}


def tolerance(dtype: torch.dtype) -> Tolerance:
    return TOLERANCES[dtype]
