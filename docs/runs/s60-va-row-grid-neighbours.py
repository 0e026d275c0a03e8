"""Run jx (session 60): vector_add plans of one outer dim that session 60's rule moves from `rows` onto `row_grid` at
two packs a thread (large fp32 / fp16 plans), against the old path, by shape: row broadcasts of several widths, rows
of a strided slice, and plans just past the small-plan bound (528 blocks). bf16, which the rule leaves in `rows`, is
the control (its two arms run the same kernel). ORT_RULES_OFF=1 turns the rule off at create
(runs/s60-rules-off-switch.patch), so one process prepares both arms; prepared calls timed as the bench times them
(a CUDA graph over rotating inputs), arms A B B A, the better of each pair kept.

    python docs/runs/s60-va-row-grid-neighbours.py > neighbours.csv

Run kc (session 61) reused it for the native-pairs patch's bf16 rule (ORT_VA_BF16=1 the new path, 0 the old), with
flat same-shape sums (flat's blocks of 1024) beside:

    python docs/runs/s60-va-row-grid-neighbours.py --switch ORT_VA_BF16 --old 0 --new 1 --dtypes bfloat16 --flat
"""
import argparse
import os

import torch

import operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda

# (name, rows, inner, b's shape: "row" broadcasts a row vector, "full" is a second matrix, x is a slice of wider rows)
SHAPES = (
    ("bcast", 16384, 16384, "row"),
    ("bcast", 4096, 4096, "row"),
    ("bcast", 1024, 16384, "row"),
    ("bcast", 65535, 1024, "row"),
    ("bcast", 2048, 65536, "row"),
    ("bcast", 272, 2048, "row"),
    ("bcast", 600, 4096, "row"),
    ("slice", 8192, 8192, "full"),
    ("slice", 2048, 4000, "full"),
)
FLAT = (("flat", 1, 1 << 28, "same"), ("flat", 1, 1 << 26, "same"), ("flat", 1, 1 << 22, "same"))


def prepare(dtype, rows, inner, kind, arm, switch="ORT_RULES_OFF"):
    os.environ[switch] = arm
    calls = []
    for _ in range(rotation_count(3 * rows * inner * dtype.itemsize)):
        if kind == "row":
            a = torch.randn(rows, inner, device="cuda").to(dtype)
            b = torch.randn(inner, device="cuda").to(dtype)
        elif kind == "same":  # two contiguous operands of one shape: the flat plan
            a = torch.randn(rows, inner, device="cuda").to(dtype)
            b = torch.randn(rows, inner, device="cuda").to(dtype)
        else:  # rows of a wider tensor: one outer dim whose stride is not the row's length
            a = torch.randn(rows, inner + 64, device="cuda").to(dtype)[:, :inner]
            b = torch.randn(rows, inner, device="cuda").to(dtype)
        o = torch.empty(rows, inner, device="cuda", dtype=dtype)
        call = ort.prepare_vector_add(a, b, out=o, backend="nvidia")
        call()
        torch.testing.assert_close(o, a + b)
        calls.append(call)
    return calls


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--switch", default="ORT_RULES_OFF", help="the experiment switch read at create")
    p.add_argument("--old", default="1", help="its value for the old path")
    p.add_argument("--new", default="0", help="its value for the new path")
    p.add_argument("--dtypes", nargs="+", default=["float32", "float16", "bfloat16"])
    p.add_argument("--flat", action="store_true", help="flat same-shape sums too")
    args = p.parse_args()
    print("dtype,kind,rows,inner,old_us,rule_us,old_over_rule", flush=True)
    for dtype in (getattr(torch, d) for d in args.dtypes):
        for name, rows, inner, kind in SHAPES + (FLAT if args.flat else ()):
            ops = {a: prepare(dtype, rows, inner, kind, a, args.switch) for a in (args.old, args.new)}
            res = {a: [] for a in ops}
            for a in (args.old, args.new, args.new, args.old):
                res[a].append(time_cuda(ops[a]).median_us)
            old, new = min(res[args.old]), min(res[args.new])
            print(f"{str(dtype)[6:]},{name},{rows},{inner},{old:.2f},{new:.2f},{old / new:.4f}", flush=True)
            del ops
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
