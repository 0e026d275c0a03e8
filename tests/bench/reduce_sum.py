"""reduce_sum benchmark: ours (prepared) vs torch.sum(out=) on benchmark_cases()."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `cases` when run as a script

from cases.reduce_sum import benchmark_cases  # noqa: E402,F401

import operator_runtime as ort  # noqa: E402
from operator_runtime_testing.assertions import assert_close  # noqa: E402
from operator_runtime_testing.peers import compiled  # noqa: E402
from operator_runtime_testing.performance import Work, unique_bytes  # noqa: E402

OP = "reduce_sum"


def _args(attrs: dict) -> tuple[int, bool]:
    return attrs.get("dim", -1), attrs.get("keepdim", False)


def make_out(inputs: dict, attrs: dict) -> torch.Tensor:
    dim, keepdim = _args(attrs)
    x = inputs["x"]
    return torch.empty_like(x.sum(dim, keepdim=keepdim))


def prepare(inputs: dict, out: torch.Tensor, attrs: dict, backend: str):
    dim, keepdim = _args(attrs)
    return ort.prepare_reduce_sum(inputs["x"], dim, keepdim, out=out, backend=backend)


def torch_peer(inputs: dict, attrs: dict):
    dim, keepdim = _args(attrs)
    x = inputs["x"]
    out = make_out(inputs, attrs)
    return lambda: torch.sum(x, dim, keepdim=keepdim, out=out)


def extra_peers(inputs: dict, attrs: dict) -> dict:
    """torch.compile of the same sum."""
    dim, keepdim = _args(attrs)
    x = inputs["x"]
    if not x.is_cuda:
        return {}
    fn = compiled(lambda t: t.sum(dim, keepdim=keepdim))
    return {"compile": lambda: fn(x)}


def work(inputs: dict, out: torch.Tensor, attrs: dict) -> Work:
    return Work(bytes=unique_bytes(inputs["x"]) + unique_bytes(out), flops=inputs["x"].numel())


def check(ours: torch.Tensor, ref: torch.Tensor, inputs: dict, attrs: dict) -> None:
    # torch's own sum is the reference here; both accumulate in fp32, in different orders, so the
    # difference grows like sqrt(length).
    x, dim = inputs["x"], _args(attrs)[0]
    assert_close(ours, ref.double(), atol_scale=math.sqrt(max(1, x.shape[dim] if x.dim() else 1)))


if __name__ == "__main__":
    from operator_runtime_testing.bench_cli import main

    sys.exit(main(["--op", OP, *sys.argv[1:]]))
