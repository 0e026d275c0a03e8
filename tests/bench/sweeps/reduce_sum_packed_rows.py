"""reduce_sum's short rows of whole 16-byte packs: the packed kernel (a pack a thread; nvidia packed_rows, tilelang
reduce_short_rows_packed_program) against the warp-a-row kernel (nvidia short_rows, tilelang reduce_short_rows), in
the bench's context: prepared calls replayed in a CUDA graph over rotating input sets (operator_runtime_testing.
timing), so that sets of 1-2 MiB stay in L2 as the bench's do. x aligned takes the packed kernel where create()
allows it; x a contiguous view one element into its storage (misaligned) takes the warp-a-row kernel: the same
bytes. Each pair timed twice, ABBA; the CSV has the better of each.

    python tests/bench/sweeps/reduce_sum_packed_rows.py [grid] > reduce_sum_packed_rows.csv
    (scripts/gpu_check.sh --sweep with SWEEPS=reduce_sum_packed_rows)

`grid`: rows 1024-32768 by lengths 8-128 (fp32, bf16), which set create()'s rule (packed_rows_threads) in run eh
while the library took the packed kernel for every aligned short row; without it, five shapes in all three dtypes.
Under the rule, a shape whose rows the rule keeps on the warp-a-row kernel times that kernel twice (ratio ~1).
"""
import sys

import torch

import operator_runtime as ort
from operator_runtime_testing.timing import rotation_count, time_cuda

SHAPES = ((4096, 128), (32768, 128), (262144, 128), (65536, 32), (16384, 8))
GRID = tuple((rows, n) for n in (128, 64, 32, 8) for rows in (1024, 4096, 8192, 16384, 32768))


def prepare(backend, dtype, rows, n, offset):
    calls = []
    for _ in range(rotation_count(rows * n * dtype.itemsize)):
        x = torch.randn(rows * n + offset, device="cuda").to(dtype)[offset:].view(rows, n)
        o = torch.empty(rows, device="cuda", dtype=dtype)
        call = ort.prepare_reduce_sum(x, out=o, backend=backend)
        call()
        torch.testing.assert_close(o.double(), x.double().sum(-1), rtol=2e-2, atol=5e-2)
        calls.append(call)
    return calls


def main():
    grid = len(sys.argv) > 1 and sys.argv[1] == "grid"
    print("backend,dtype,rows,n,packed_us,warp_us,warp_over_packed", flush=True)
    for backend in ("nvidia", "tilelang"):
        for dtype in (torch.float32, torch.bfloat16) if grid else (torch.float32, torch.float16, torch.bfloat16):
            for rows, n in GRID if grid else SHAPES:
                if grid and backend == "tilelang" and n in (64, 8):
                    continue
                ops = {off: prepare(backend, dtype, rows, n, off) for off in (0, 1)}
                res = {off: [] for off in ops}
                for off in (0, 1, 1, 0):
                    res[off].append(time_cuda(ops[off]).median_us)
                p, w = min(res[0]), min(res[1])
                print(f"{backend},{str(dtype)[6:]},{rows},{n},{p:.3f},{w:.3f},{w / p:.3f}", flush=True)


if __name__ == "__main__":
    main()
