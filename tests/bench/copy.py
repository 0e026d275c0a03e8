"""copy benchmark: ours (prepared) vs torch's Tensor.copy_ on benchmark_cases()."""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `cases` when run as a script

from cases.copy import benchmark_cases  # noqa: E402,F401

import operator_runtime as ort  # noqa: E402
from operator_runtime_testing.assertions import assert_bitwise_equal  # noqa: E402
from operator_runtime_testing.peers import compiled  # noqa: E402
from operator_runtime_testing.performance import Work, unique_bytes  # noqa: E402

OP = "copy"


def make_out(inputs: dict, attrs: dict) -> torch.Tensor:
    return torch.empty(inputs["src"].shape, dtype=inputs["src"].dtype, device=inputs["src"].device)


def prepare(inputs: dict, out: torch.Tensor, attrs: dict, backend: str):
    return ort.prepare_copy(inputs["src"], out=out, backend=backend)


def torch_peer(inputs: dict, attrs: dict):
    src = inputs["src"]
    out = torch.empty(src.shape, dtype=src.dtype, device=src.device)
    return lambda: out.copy_(src)


def extra_peers(inputs: dict, attrs: dict) -> dict:
    """torch.compile of a copy into a fresh contiguous tensor (what `.contiguous()` on the layout does)."""
    src = inputs["src"]
    if not src.is_cuda:
        return {}
    fn = compiled(lambda s: s.clone(memory_format=torch.contiguous_format))
    return {"compile": lambda: fn(src)}


def work(inputs: dict, out: torch.Tensor, attrs: dict) -> Work:
    return Work(bytes=unique_bytes(inputs["src"]) + unique_bytes(out), flops=0)


def check(ours: torch.Tensor, ref: torch.Tensor, inputs: dict, attrs: dict) -> None:
    assert_bitwise_equal(ours, ref)


if __name__ == "__main__":
    from operator_runtime_testing.bench_cli import main

    sys.exit(main(["--op", OP, *sys.argv[1:]]))
