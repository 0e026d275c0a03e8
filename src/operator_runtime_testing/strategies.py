"""Hypothesis strategies for shapes and layouts shared by every op's fuzz test."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from operator_runtime_testing.layouts import Layout

# 0, 1, primes, and sizes just around multiples of the vector width / warp / block.
SIZES = (0, 1, 2, 3, 5, 7, 8, 13, 31, 32, 33, 127, 128, 129, 257, 1023, 1024, 1025)


@st.composite
def shapes(draw, min_rank: int = 0, max_rank: int = 5, max_numel: int = 1 << 15,
           sizes: tuple[int, ...] = SIZES) -> tuple[int, ...]:
    """A shape whose element count stays under max_numel (dims are drawn while the budget lasts)."""
    rank = draw(st.integers(min_rank, max_rank))
    shape = []
    for _ in range(rank):
        # Zero-size dims count as 1: an expanded view of a (0, 0, n, n, n) tensor still allocates n^3.
        budget = max_numel // math.prod(max(d, 1) for d in shape)
        shape.append(draw(st.sampled_from([s for s in sizes if s <= max(budget, 1)])))
    return tuple(shape)


@st.composite
def layouts(draw, ndim: int, allow_expand: bool) -> Layout:
    """Permutes, stepped slices, a storage offset, and (inputs only) expanded dims."""
    perm = tuple(draw(st.permutations(range(ndim)))) if ndim > 1 and draw(st.booleans()) else None
    steps = tuple(draw(st.sampled_from((1, 1, 2, 3))) for _ in range(ndim)) if draw(st.booleans()) else None
    offset = draw(st.sampled_from((0, 0, 1, 3, 17)))
    expand = ()
    if allow_expand and ndim and draw(st.booleans()):
        expand = tuple(sorted(draw(st.sets(st.integers(0, ndim - 1), max_size=ndim))))
    return Layout(perm=perm, steps=steps, offset=offset, expand=expand)
