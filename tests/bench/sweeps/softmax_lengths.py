"""The library's softmax at chosen (rows, length) shapes, timed as the bench times it: prepared calls replayed in a
CUDA graph over rotating input sets (operator_runtime_testing.timing). Checked against torch before it is timed.
Run it once per build to compare two builds' kernel choices on the same machine (session 40 timed the 16-bit
entries for rows of 3073-4096 this way, two builds in one call, A B A B: docs/runs/tests-h200-2026-12-02-gq-gt.md).

    python tests/bench/sweeps/softmax_lengths.py [--variant NAME] [--backend nvidia] [--dtypes float16,bfloat16]
        [--op reduce_sum [--dim 0]] [SHAPE ...] > lengths.csv   (--op reduce_sum: the row sums of the same shapes;
        --dim 0: their column sums, which session 53 timed at the split rule's edge, A B A B)
    SHAPE: ROWSxLENGTH (default: 16-bit rows of 2304-4096 over 8192 rows, and the bench's 4096x4096, 32768x4096)
    PYTHONPATH=/tmp/B python tests/bench/sweeps/softmax_lengths.py --variant B   # a second build, beside
"""
import argparse

import torch

import operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda

DEFAULT = ("8192x2304", "8192x3072", "8192x3200", "8192x3584", "8192x4000", "8192x4088", "8192x4096", "4096x4096",
           "32768x4096")


def shape(text: str) -> tuple[int, int]:
    rows, _, length = text.partition("x")
    return int(rows), int(length)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("shapes", nargs="*", type=shape, default=[shape(s) for s in DEFAULT])
    p.add_argument("--variant", default="", help="a label for this build, written in the first column")
    p.add_argument("--backend", default="nvidia")
    p.add_argument("--op", choices=("softmax", "reduce_sum"), default="softmax",
                   help="reduce_sum: the row sums of the same shapes (read once; a row's sum written)")
    p.add_argument("--dim", type=int, choices=(-1, 0), default=-1,
                   help="reduce_sum only: 0 sums the columns (read once; a column's sum written)")
    # comma-separated, not nargs: a list option before the shapes would take them (run gy lost a probe that way)
    p.add_argument("--dtypes", type=lambda t: t.split(","), default=["float16", "bfloat16"],
                   help="comma-separated torch dtypes, e.g. float32,bfloat16")
    args = p.parse_args()
    if args.dim == 0 and args.op != "reduce_sum":
        p.error("--dim 0 is for --op reduce_sum")
    dim = args.dim
    print("variant,dtype,rows,length,us,tbps", flush=True)
    for name in args.dtypes:
        dtype = getattr(torch, name)
        for rows, n in args.shapes:
            sums = args.op == "reduce_sum"
            sums_of = n if dim == 0 else rows  # how many sums a reduce_sum writes
            nbytes = (rows * n + sums_of if sums else 2 * rows * n) * dtype.itemsize  # read once, written once
            xs = [torch.randn(rows, n, device="cuda", dtype=dtype) for _ in range(rotation_count(nbytes))]
            ys = [torch.empty(sums_of, device="cuda", dtype=dtype) if sums else torch.empty_like(x) for x in xs]
            prepare = ort.prepare_reduce_sum if sums else ort.prepare_softmax
            ops = [prepare(x, dim, out=y, backend=args.backend) for x, y in zip(xs, ys)]
            ops[0]()
            expected = xs[0].double().sum(dim) if sums else torch.softmax(xs[0].float(), -1)
            torch.testing.assert_close(ys[0], expected.to(dtype), atol=0.5 if sums else 2e-3, rtol=2e-2)
            us = time_cuda(ops).median_us
            print(f"{args.variant},{name},{rows},{n},{us:.2f},{nbytes / us * 1e-6:.3f}", flush=True)
            del xs, ys, ops
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
