"""Comparisons in the order that explains a failure best: shape, then dtype, then values."""

from __future__ import annotations

import torch

from operator_runtime_testing.tolerances import tolerance


def _header(actual: torch.Tensor, expected: torch.Tensor) -> None:
    assert tuple(actual.shape) == tuple(expected.shape), f"shape {tuple(actual.shape)} != {tuple(expected.shape)}"
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype} != {expected.dtype}"


def bits(t: torch.Tensor) -> torch.Tensor:
    """The raw bytes of t's elements in logical order (so NaN payloads and bools compare exactly)."""
    # A fresh contiguous clone has unit stride even where a size-1 dim kept an odd stride.
    flat = t.detach().cpu().reshape(-1).clone(memory_format=torch.contiguous_format)
    return flat.view(torch.uint8) if flat.numel() else torch.empty(0, dtype=torch.uint8)


def assert_bitwise_equal(actual: torch.Tensor, expected: torch.Tensor) -> None:
    _header(actual, expected)
    a, e = bits(actual), bits(expected)
    if not torch.equal(a, e):
        width = actual.element_size()
        bad = (a != e).nonzero()[0].item() // width
        raise AssertionError(f"element {bad} (flat) differs: got {actual.reshape(-1)[bad].item()!r}, "
                             f"expected {expected.reshape(-1)[bad].item()!r}")


def assert_close(actual: torch.Tensor, expected: torch.Tensor, atol_scale: float = 1.0) -> None:
    """`expected` is the float64 (or fp32) reference; tolerances come from the one per-dtype table."""
    _header(actual, expected.to(actual.dtype))
    tol = tolerance(actual.dtype)
    got = actual.detach().cpu().double()
    ref = expected.detach().cpu().double()
    assert not torch.isnan(got).any() or torch.isnan(ref).any(), "NaN in the result (an unwritten element?)"
    torch.testing.assert_close(got, ref, rtol=tol.rtol, atol=tol.atol * atol_scale, equal_nan=True)
