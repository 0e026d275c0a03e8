"""Run jl (session 58): reduce_sum rows of 1280-4000 elements (the Warp path: 32 or 64 threads a row, or grid_tpr's
up to 128 for few fp32 rows) against a block a row with every pack of a thread loaded at once (`whole_batches` with
its predicated last batch at 256 or 512 threads; run jm adds 128 and rows of 1536), by rows and dtype, through the
library: ORT_REDUCE_FEW is read at create (experiment commits 401f6d9 and 33f43f6 only; on main the variable does
nothing and every arm is main's kernel), so one process prepares each arm. Prepared calls replayed in a CUDA graph
over rotating inputs (the bench's timing), arms timed A B C C B A, the better of each pair kept.

    python docs/runs/s58-few-rows-sweep.py > few-rows.csv

Session 60's denser sweep (runs/s60-reduce-sum-few-rows-switch.patch: ORT_REDUCE_FEW=128 or 256 moves every Warp-path
row onto whole_batches + rest at that many threads a row) passes its arms and shapes:

    python docs/runs/s58-few-rows-sweep.py --arms 0 128 256 --lengths 1024 1280 1536 1792 --dtypes float32 > fp32.csv

Session 60's run jx times the landed rule against the Warp path it replaced (runs/s60-rules-off-switch.patch:
ORT_RULES_OFF=1 turns the rule off at create): --switch ORT_RULES_OFF --arms 1 0 (the old path first).

Session 69's --shared-inputs prepares every arm over one set of tensors: in run lo, arms that were one launch read up
to 16 % apart, the same way in both passes, each over its own tensors (the floor this sweep had without the flag).
"""
import argparse
import os

import torch

import operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda

ARMS = ("0", "12", "13", "14")  # main; whole_batches + rest at 256; at 512; at 128
LENGTHS = (1280, 1536, 2304, 3072, 4000)
ROWS = (144, 264, 528, 1008, 2016, 4080)


def tensors(dtype, rows, n):
    return [(torch.randn(rows, n, device="cuda").to(dtype), torch.empty(rows, device="cuda", dtype=dtype))
            for _ in range(rotation_count(rows * n * dtype.itemsize))]


def prepare(dtype, rows, n, arm, switch="ORT_REDUCE_FEW", sets=None):
    os.environ[switch] = arm
    calls = []
    for x, o in sets or tensors(dtype, rows, n):
        call = ort.prepare_reduce_sum(x, out=o, backend="nvidia")
        call()
        torch.testing.assert_close(o.double(), x.double().sum(-1), rtol=2e-2, atol=5e-2)
        calls.append(call)
    return calls


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--arms", nargs="+", default=list(ARMS), help="ORT_REDUCE_FEW values, main's ('0') first")
    p.add_argument("--lengths", nargs="+", type=int, default=list(LENGTHS))
    p.add_argument("--rows", nargs="+", type=int, default=list(ROWS))
    p.add_argument("--dtypes", nargs="+", default=["float32", "bfloat16", "float16"])
    p.add_argument("--switch", default="ORT_REDUCE_FEW", help="the environment variable create() reads")
    p.add_argument("--shared-inputs", action="store_true", help="every arm over the same tensors")
    args = p.parse_args()
    arms = tuple(args.arms)
    print("dtype,rows,n," + ",".join(f"arm{a}_us" for a in arms) + ",best_over_main", flush=True)
    for dtype in (getattr(torch, d) for d in args.dtypes):
        for n in args.lengths:
            for rows in args.rows:
                sets = tensors(dtype, rows, n) if args.shared_inputs else None
                ops = {a: prepare(dtype, rows, n, a, args.switch, sets) for a in arms}
                res = {a: [] for a in arms}
                for a in arms + arms[::-1]:
                    res[a].append(time_cuda(ops[a]).median_us)
                us = {a: min(v) for a, v in res.items()}
                best = min((us[a] for a in arms[1:]), default=us[arms[0]])  # one arm: itself
                print(f"{str(dtype)[6:]},{rows},{n}," + ",".join(f"{us[a]:.3f}" for a in arms) +
                      f",{us[arms[0]] / best:.3f}", flush=True)


if __name__ == "__main__":
    main()
