"""Building tensors of a given logical shape in any layout: permuted, stepped, offset, expanded."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

FLOAT_DTYPES = (torch.float32, torch.float16, torch.bfloat16)
ALL_COPY_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                   torch.float16, torch.bfloat16, torch.float32, torch.float64)


@dataclass(frozen=True)
class Layout:
    """How a logical shape sits in memory.

    perm: memory order of the logical dims, outermost first (None: row-major).
    steps: a slice step per logical dim (None: all 1).
    offset: storage offset in elements.
    expand: logical dims realised with stride 0 (inputs only).
    """

    perm: tuple[int, ...] | None = None
    steps: tuple[int, ...] | None = None
    offset: int = 0
    expand: tuple[int, ...] = ()

    def describe(self) -> str:
        parts = []
        if self.perm is not None:
            parts.append("perm" + "".join(map(str, self.perm)))
        if self.steps is not None and any(s != 1 for s in self.steps):
            parts.append("step" + "".join(map(str, self.steps)))
        if self.offset:
            parts.append(f"off{self.offset}")
        if self.expand:
            parts.append("exp" + "".join(map(str, self.expand)))
        return "-".join(parts) or "contig"


CONTIGUOUS = Layout()


def transposed(ndim: int) -> Layout:
    """The last two dims swapped in memory (a `.t()` / `.transpose(-1, -2)` view)."""
    perm = tuple(range(ndim - 2)) + (ndim - 1, ndim - 2)
    return Layout(perm=perm)


def random_fill(t: torch.Tensor, generator: torch.Generator | None = None) -> torch.Tensor:
    """Fresh random data: never zeros, never the poison pattern."""
    if t.dtype.is_floating_point:
        return t.copy_(torch.randn(t.shape, dtype=torch.float32, generator=generator))
    if t.dtype == torch.bool:
        return t.copy_(torch.randint(0, 2, t.shape, generator=generator).bool())
    return t.copy_(torch.randint(0, 100, t.shape, generator=generator))


def poison(t: torch.Tensor) -> torch.Tensor:
    """Fills every byte of t's storage with 0xFF: NaN for floats, -1 for signed ints, an invalid bool."""
    t.untyped_storage().fill_(0xFF)
    return t


def make(shape: tuple[int, ...], dtype: torch.dtype, device: str | torch.device,
         layout: Layout = CONTIGUOUS, fill: str = "random") -> torch.Tensor:
    """A tensor of logical `shape` laid out as `layout`, filled with random data or poison."""
    ndim = len(shape)
    perm = layout.perm if layout.perm is not None else tuple(range(ndim))
    steps = layout.steps if layout.steps is not None else (1,) * ndim
    real = [1 if d in layout.expand else shape[d] for d in range(ndim)]
    padded = [real[d] * steps[d] if real[d] > 1 else real[d] for d in range(ndim)]
    mem_shape = [padded[d] for d in perm]
    numel = math.prod(mem_shape)
    storage = torch.empty(numel + layout.offset, dtype=dtype, device=device)
    base = storage[layout.offset:].view(mem_shape)
    # Back to logical dim order, then take the stepped slice and expand the broadcast dims.
    inverse = [perm.index(d) for d in range(ndim)]
    t = base.permute(inverse) if ndim else base
    t = t[tuple(slice(None, None, s) for s in steps)] if ndim else t
    t = t.expand(shape) if layout.expand else t
    if fill == "random":
        random_fill(storage)
    elif fill == "poison":
        poison(storage)
    assert tuple(t.shape) == tuple(shape), (t.shape, shape)
    return t
