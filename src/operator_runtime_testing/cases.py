"""The case types that tests/cases/<op>.py registers; one registry feeds tests and benchmarks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import torch

from operator_runtime_testing.layouts import CONTIGUOUS, FLOAT_DTYPES, Layout, make, poison


@dataclass(frozen=True)
class Operand:
    """shape and layout; `values`, if set, rewrites the random data in place (e.g. to add -inf)."""

    shape: tuple[int, ...]
    layout: Layout = CONTIGUOUS
    values: Callable[[torch.Tensor], object] | None = None

    def make(self, dtype: torch.dtype, device) -> torch.Tensor:
        t = make(self.shape, dtype, device, self.layout)
        if self.values is not None:
            self.values(t)
        return t


@dataclass(frozen=True)
class CorrectnessCase:
    """Inputs (by argument name) in given layouts, an `out` layout, op attributes and dtypes.

    in_place names the input that `out` must alias exactly (None: a separate, poisoned `out`).
    """

    id: str
    inputs: dict[str, Operand]
    out_layout: Layout = CONTIGUOUS
    attrs: dict = field(default_factory=dict)
    dtypes: tuple[torch.dtype, ...] = FLOAT_DTYPES
    in_place: str | None = None

    def make_inputs(self, dtype: torch.dtype, device) -> dict[str, torch.Tensor]:
        return {name: op.make(dtype, device) for name, op in self.inputs.items()}

    def make_out(self, shape: tuple[int, ...], dtype: torch.dtype, device,
                 inputs: dict[str, torch.Tensor]) -> torch.Tensor:
        if self.in_place is not None:
            return inputs[self.in_place]
        return make(shape, dtype, device, self.out_layout, fill="poison")


@dataclass(frozen=True)
class ErrorCase:
    """`build(device)` returns (call, out): call() must raise `error` matching `match`, and `out`
    (if not None) must be bitwise unchanged afterwards."""

    id: str
    build: Callable[[str], tuple[Callable[[], object], torch.Tensor | None]]
    error: type[BaseException]
    match: str


def error_case(id: str, make_out: Callable[[str], torch.Tensor] | None,
               call: Callable[[str, torch.Tensor | None], object], error: type[BaseException],
               match: str) -> ErrorCase:
    """An ErrorCase from `make_out(device)` (the tensor that must stay untouched, or None) and
    `call(device, out)`, which must raise."""

    def build(device):
        out = make_out(device) if make_out else None
        return (lambda: call(device, out)), out

    return ErrorCase(id, build, error, match)


@dataclass(frozen=True)
class BenchCase:
    id: str
    inputs: dict[str, Operand]
    attrs: dict = field(default_factory=dict)
    dtypes: tuple[torch.dtype, ...] = FLOAT_DTYPES


def with_dtypes(cases) -> list:
    """(case, dtype) pairs with readable pytest ids."""
    import pytest

    return [pytest.param(c, d, id=f"{c.id}-{str(d).removeprefix('torch.')}") for c in cases for d in c.dtypes]


__all__ = ["Operand", "CorrectnessCase", "ErrorCase", "BenchCase", "error_case", "with_dtypes", "poison"]
