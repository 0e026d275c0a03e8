"""vector_add benchmark: ours (prepared) vs torch.add(out=) on benchmark_cases()."""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `cases` when run as a script

from cases.vector_add import benchmark_cases  # noqa: E402,F401

import operator_runtime as ort  # noqa: E402
from operator_runtime_testing.assertions import assert_close  # noqa: E402
from operator_runtime_testing.peers import compiled  # noqa: E402
from operator_runtime_testing.performance import Work, unique_bytes  # noqa: E402

OP = "vector_add"


def make_out(inputs: dict, attrs: dict) -> torch.Tensor:
    a, b = inputs["a"], inputs["b"]
    return torch.empty(torch.broadcast_shapes(a.shape, b.shape), dtype=a.dtype, device=a.device)


def prepare(inputs: dict, out: torch.Tensor, attrs: dict, backend: str):
    return ort.prepare_vector_add(inputs["a"], inputs["b"], out=out, backend=backend)


def torch_peer(inputs: dict, attrs: dict):
    a, b = inputs["a"], inputs["b"]
    out = make_out(inputs, attrs)
    return lambda: torch.add(a, b, out=out)


def extra_peers(inputs: dict, attrs: dict) -> dict:
    """torch.compile of the same add (out-of-place: a compiled graph allocates its own output)."""
    a, b = inputs["a"], inputs["b"]
    if not a.is_cuda:
        return {}
    fn = compiled(lambda p, q: p + q)
    return {"compile": lambda: fn(a, b)}


def work(inputs: dict, out: torch.Tensor, attrs: dict) -> Work:
    return Work(bytes=unique_bytes(inputs["a"]) + unique_bytes(inputs["b"]) + unique_bytes(out), flops=out.numel())


def check(ours: torch.Tensor, ref: torch.Tensor, inputs: dict, attrs: dict) -> None:
    assert_close(ours, ref.double())


if __name__ == "__main__":
    from operator_runtime_testing.bench_cli import main

    sys.exit(main(["--op", OP, *sys.argv[1:]]))
