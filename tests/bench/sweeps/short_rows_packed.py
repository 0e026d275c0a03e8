"""Short rows of whole 16-byte packs: the packed kernels (a pack a thread) against the warp-a-row kernels, in the
bench's context: prepared calls replayed in a CUDA graph over rotating input sets (operator_runtime_testing.timing),
so that sets of 1-2 MiB stay in L2 as the bench's do. x aligned takes the packed kernel where create() allows it; x
a contiguous view one element into its storage (misaligned) takes the warp-a-row kernel: the same bytes. Each pair
timed twice, ABBA; the CSV has the better of each.

    python tests/bench/sweeps/short_rows_packed.py [--op reduce_sum|softmax] [--grid] > short_rows_packed.csv
    (scripts/gpu_check.sh --sweep with SWEEPS=short_rows_packed and SWEEP_ARGS="--op softmax")

reduce_sum: nvidia packed_rows against short_rows, tilelang reduce_short_rows_packed against reduce_short_rows.
`--grid` (rows 1024-32768 by lengths 8-128, fp32 and bf16) set create()'s rule (packed_rows_threads) in run eh,
while the library took the packed kernel for every aligned short row; a shape whose rows the rule now keeps on the
warp-a-row kernel times that kernel twice (ratio ~1; run ei found such pairs 5-7 % apart at 4096x128, the probe's
own spread there). softmax: tilelang softmax_short_rows_packed against softmax_short_rows past half a wave; nvidia
for reference (its registers kernel, 16-byte packs aligned and one element a load misaligned).
"""
import argparse

import torch

import operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda

SHAPES = {"reduce_sum": ((4096, 128), (32768, 128), (262144, 128), (65536, 32), (16384, 8)),
          "softmax": ((8192, 128), (32768, 128), (262144, 128), (65536, 32), (262144, 8))}
GRID = tuple((rows, n) for n in (128, 64, 32, 8) for rows in (1024, 4096, 8192, 16384, 32768))


def prepare(op, backend, dtype, rows, n, offset):
    calls = []
    for _ in range(rotation_count((2 if op == "softmax" else 1) * rows * n * dtype.itemsize)):
        x = torch.randn(rows * n + offset, device="cuda").to(dtype)[offset:].view(rows, n)
        if op == "softmax":
            o = torch.empty(rows * n + offset, device="cuda", dtype=dtype)[offset:].view(rows, n)
            call, ref = ort.prepare_softmax(x, out=o, backend=backend), torch.softmax(x.double(), -1)
        else:
            o = torch.empty(rows, device="cuda", dtype=dtype)
            call, ref = ort.prepare_reduce_sum(x, out=o, backend=backend), x.double().sum(-1)
        call()
        torch.testing.assert_close(o.double(), ref, rtol=2e-2, atol=5e-2)
        calls.append(call)
    return calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--op", choices=sorted(SHAPES), default="reduce_sum")
    parser.add_argument("--grid", action="store_true", help="reduce_sum's rule grid (run eh)")
    args = parser.parse_args()
    print("op,backend,dtype,rows,n,packed_us,warp_us,warp_over_packed", flush=True)
    for backend in ("nvidia", "tilelang"):
        dtypes = (torch.float32, torch.bfloat16) if args.grid else (torch.float32, torch.float16, torch.bfloat16)
        for dtype in dtypes:
            for rows, n in GRID if args.grid else SHAPES[args.op]:
                if args.grid and backend == "tilelang" and n in (64, 8):
                    continue
                ops = {off: prepare(args.op, backend, dtype, rows, n, off) for off in (0, 1)}
                res = {off: [] for off in ops}
                for off in (0, 1, 1, 0):
                    res[off].append(time_cuda(ops[off]).median_us)
                p, w = min(res[0]), min(res[1])
                print(f"{args.op},{backend},{str(dtype)[6:]},{rows},{n},{p:.3f},{w:.3f},{w / p:.3f}", flush=True)


if __name__ == "__main__":
    main()
