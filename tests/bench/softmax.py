"""softmax benchmark: ours (prepared) vs torch.softmax on benchmark_cases()."""

from __future__ import annotations

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for `cases` when run as a script

from cases.softmax import benchmark_cases  # noqa: E402,F401

import operator_runtime as ort  # noqa: E402
from operator_runtime_testing.assertions import assert_close  # noqa: E402
from operator_runtime_testing.peers import compiled  # noqa: E402
from operator_runtime_testing.performance import Work, unique_bytes  # noqa: E402

OP = "softmax"


def make_out(inputs: dict, attrs: dict) -> torch.Tensor:
    return torch.empty_like(inputs["x"])


def prepare(inputs: dict, out: torch.Tensor, attrs: dict, backend: str):
    return ort.prepare_softmax(inputs["x"], attrs.get("dim", -1), out=out, backend=backend)


def torch_peer(inputs: dict, attrs: dict):
    x, dim = inputs["x"], attrs.get("dim", -1)
    return lambda: torch.softmax(x, dim)


def extra_peers(inputs: dict, attrs: dict) -> dict:
    """Liger's Triton softmax (last dim only) and torch.compile, where they can run."""
    x, dim = inputs["x"], attrs.get("dim", -1)
    peers = {}
    if x.is_cuda:
        fn = compiled(lambda t: torch.softmax(t, dim))
        peers["compile"] = lambda: fn(x)
        try:
            from liger_kernel.ops.softmax import LigerSoftmaxFunction
        except ImportError:
            pass
        else:
            if dim in (-1, x.dim() - 1):
                peers["liger"] = lambda: LigerSoftmaxFunction.apply(x)
    return peers


def work(inputs: dict, out: torch.Tensor, attrs: dict) -> Work:
    # max, subtract, exp, sum, scale: ~5 FLOPs per element
    return Work(bytes=unique_bytes(inputs["x"]) + unique_bytes(out), flops=5 * out.numel())


def check(ours: torch.Tensor, ref: torch.Tensor, inputs: dict, attrs: dict) -> None:
    # torch's result is rounded to the dtype; allow one extra rounding on top of the table.
    assert_close(ours, ref.double(), atol_scale=2.0)


if __name__ == "__main__":
    from operator_runtime_testing.bench_cli import main

    sys.exit(main(["--op", OP, *sys.argv[1:]]))
