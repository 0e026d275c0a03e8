"""reduce_sum cases: every dim and layout, keepdim, empty dims, long rows, errors, benchmark shapes."""

from __future__ import annotations

import torch

import operator_runtime as ort
from operator_runtime_testing.cases import BenchCase, CorrectnessCase, Operand
from operator_runtime_testing.cases import error_case as case
from operator_runtime_testing.layouts import CONTIGUOUS, Layout, make, transposed

C = CorrectnessCase


def _x(shape, layout=CONTIGUOUS):
    return {"x": Operand(shape, layout)}


def correctness_cases() -> list[CorrectnessCase]:
    return [
        C("scalar", _x(()), attrs={"dim": 0}),
        C("scalar-keepdim", _x(()), attrs={"dim": -1, "keepdim": True}),
        C("rows", _x((64, 1000))),
        C("rows-aligned", _x((33, 4096))),
        C("rows-2k-to-4k", _x((1100, 3000))),  # nvidia: 64 threads a 16-bit row
        C("rows-2k-to-4k-misaligned", _x((1100, 2056), Layout(offset=3))),
        C("few-rows", _x((9, 1500))),  # nvidia: fewer blocks than SMs, up to 128 threads an fp32 row (grid_tpr)
        C("few-rows-misaligned", _x((9, 1500), Layout(offset=1))),
        # nvidia: a 16-bit thread has 6 packs (one batch of 4, then 2 left): the tail loads its packs together
        C("rows-batched-tail", _x((300, 1536))),
        C("rows-batched-tail-misaligned", _x((300, 1570), Layout(offset=1))),  # elements: 50 a thread, 2 left
        C("rows-4096-block-a-row", _x((1500, 4096))),  # nvidia fp32: a block of 256 a row (whole_batches at 256)
        C("rows-4096-block-a-row-stepped", _x((1200, 4096), Layout(steps=(2, 1), offset=4))),
        C("rows-4096-block-a-row-misaligned", _x((1100, 4096), Layout(offset=1))),
        # nvidia: rows of >= 480 packs (fp32 >= 1920, 16-bit >= 3840) a block of 256 a row, whole_batches' rest
        C("rows-block-a-row-rest", _x((300, 2304))),  # fp32: 576 packs, 2-3 a thread; 16-bit: 288 (kFewRowPacks)
        C("rows-block-a-row-rest-4000", _x((20, 4000))),  # every dtype: 1000 / 500 packs
        C("rows-block-a-row-rest-misaligned", _x((20, 4000), Layout(offset=1))),  # x unaligned: contiguous at 256
        C("rows-block-a-row-rest-stepped", _x((20, 4000), Layout(steps=(3, 1), offset=8))),  # a row stride of 12000
        # nvidia: rows of 288-479 packs (fp32 1152-1916, 16-bit 2304-3832) where there are 200-2016 of them
        C("rows-few-block-a-row-first", _x((200, 1152))),  # fp32: 288 packs (16-bit: 144, the Warp path)
        C("rows-few-block-a-row-last", _x((2016, 3832))),  # 16-bit: 479 packs; fp32: 958 (kBlockRowPacks)
        C("rows-few-block-a-row-misaligned", _x((264, 2304), Layout(offset=1))),  # x unaligned: contiguous at 256
        C("rows-few-block-a-row-stepped", _x((264, 2560), Layout(steps=(2, 1), offset=8))),  # a row stride of 5120
        # tilelang 16-bit: few rows that a warp would sum in several passes take one masked pass of a block of 128
        C("rows-few-one-pass-eleven", _x((1008, 2816))),  # 352 packs: 128 x 3 (a warp: 32 x 1 in 11 passes)
        C("rows-few-one-pass-last", _x((1320, 3840))),  # 480 packs: 128 x 4; 10 rows an SM on 132 SMs, 3 passes' end
        C("rows-few-one-pass-past", _x((1321, 2304))),  # one row past it: a warp's 32 x 3 in three passes
        C("rows-few-one-pass-forty", _x((5280, 2816))),  # 128 x 3 to 40 rows an SM (a warp's 11 passes; run kk)
        C("rows-few-one-pass-eleven-past", _x((5281, 2816))),  # one row past it: a warp's 32 x 1 in 11 passes
        C("rows-few-one-pass-thirteen", _x((2640, 3328))),  # 416 packs: 128 x 4 to 20 rows an SM (a warp's 13 passes)
        # tilelang fp32: rows of 2049-2560 in one masked pass of 4096 (row_chunk), its two ends
        C("rows-pass-4096-first", _x((40, 2049))),  # nvidia: not whole packs, contiguous by elements
        C("rows-pass-4096-last", _x((40, 2560))),  # nvidia fp32: 640 packs, a block of 256 a row with its rest
        C("rows-keepdim", _x((17, 129)), attrs={"dim": 1, "keepdim": True}),
        C("short-rows", _x((1000, 7))),  # nvidia: short_rows (rows of <= 128 whose outer dims coalesce)
        C("short-rows-full", _x((7, 9, 128))),  # every lane's 4 elements; outer dims coalesce into one
        C("short-rows-stepped", _x((40, 100), Layout(steps=(2, 1), offset=3))),  # a row stride of 200
        C("short-rows-outer-2d", _x((12, 5, 33), Layout(steps=(2, 1, 1)))),  # outer dims do not coalesce: warp
        C("length-one-rows", _x((1, 20)), attrs={"dim": 0}),
        C("short-rows-expanded", _x((50, 7), Layout(expand=(0,)))),  # every row is one row: a row stride of 0
        # more than two waves of short-row blocks on an H200 (2500 blocks of 8 rows): the trigger at exit
        C("short-rows-many-waves", _x((20000, 100))),
        # nvidia: packed_rows, rows of whole 16-byte packs, a pack a thread (packed_rows_threads): 16 packs of
        # fp32 and of halves past half a wave of short_rows blocks on an H200 (4224 rows; fp32 rows of 128 stay on
        # short_rows), 8 packs of halves; one pack a row (1 or 2 threads); 6 and 3 packs (threads a row rounded up
        # to 8 and 4, so some hold no pack); a row stride of 128 from an aligned offset; every row one row (a row
        # stride of 0); a misaligned start (short_rows instead, chosen at execute); more than two waves of blocks
        C("packed-rows", _x((5000, 64))),
        C("packed-rows-128", _x((5000, 128))),
        C("packed-rows-one-pack", _x((1000, 8))),
        C("packed-rows-ragged", _x((500, 24))),
        C("packed-rows-stepped", _x((40, 64), Layout(steps=(2, 1), offset=8))),
        C("packed-rows-expanded", _x((50, 16), Layout(expand=(0,)))),
        C("packed-rows-misaligned", _x((300, 64), Layout(offset=1))),
        C("packed-rows-many-waves", _x((150000, 16))),
        # tilelang: 16-bit rows of 264-1024, a warp a row of 2-4 packs a lane (warp_row_packs): the last block
        # ragged and the last lanes' packs clamped (520: 65 packs), 33 packs, past two waves of blocks, misaligned
        C("warp-rows", _x((13, 520))),
        C("warp-rows-264", _x((1000, 264))),
        C("warp-rows-many-waves", _x((20000, 768))),
        C("warp-rows-misaligned", _x((30, 1000), Layout(offset=1))),
        # nvidia: rows of 33-256 whole packs whose outer dims coalesce, a warp a row of 2-8 packs a lane (packed_rows,
        # lane_packs_rows; the cases above take it too): 4 packs at 4100 rows (the half-wave window), fp32 rows of 4
        # packs a lane and 16-bit of 2, a row stride of 1024 from an aligned offset, every row one row (a stride of
        # 0), outer dims that do not coalesce and a misaligned start (both `contiguous` instead)
        C("lane-packs-window", _x((4100, 1024))),
        C("lane-packs-512", _x((300, 512))),
        C("lane-packs-stepped", _x((40, 512), Layout(steps=(2, 1), offset=8))),
        C("lane-packs-expanded", _x((50, 768), Layout(expand=(0,)))),
        C("lane-packs-outer-2d", _x((12, 5, 512), Layout(steps=(2, 1, 1)))),
        C("lane-packs-misaligned", _x((300, 512), Layout(offset=2))),
        # 5-8 packs a lane: 16-bit rows of 2048 (8) and 1032 (129 packs: 5, the last lanes' fifth past the end), fp32
        # rows of 1024 at 1100 rows (8; fewer rows give fp32 more threads a row: grid_tpr, contiguous)
        C("lane-packs-8", _x((500, 2048))),
        C("lane-packs-ragged-5", _x((200, 1032))),
        C("lane-packs-fp32-8", _x((1100, 1024))),
        # the trigger by grid: nvidia fp16 at 6 packs a lane over 4 blocks an SM triggers at exit (lane_packs_at_exit);
        # on an H200 23-181 blocks take the kernel that triggers after its wait (lane_packs_after_wait: 184,
        # 1064 and 1448 rows in, 176 and 1456x1536 out), 23-247 for 16-bit rows of 5 packs a lane (1456 and 1976
        # x1040 in, 1984 out; fp32 1456x520 out), 16-bit rows of 4 and all of 3 (1976x1024 halves and 1976x384 fp32
        # in, 1984x1024 halves and fp32 1456x512 out), 23-313 for rows of 2 (2504x512 halves and 2504x256 fp32 in,
        # 2512 out), and so do rows of 1-16 packs over a sixth to 1.5 waves (packed_rows_after_wait: 12288x32,
        # 192-384 blocks); inside those windows grids that the SMs' slots hold a whole number of times stay early
        # (1056x1040, 132 blocks, 8 resident; fp16 1264x1536, 158 of 6 resident; 1688x1024, 211 of 8);
        # tilelang's 5-8 packs early over a few rows and past a wave of 8 blocks an SM, at exit between (warp_row_plan)
        C("lane-packs-at-exit", _x((4080, 1536))),
        C("lane-packs-after-wait-low", _x((184, 1040))),
        C("lane-packs-below-after-wait", _x((176, 1040))),
        C("lane-packs-whole-grids-132", _x((1056, 1040))),
        C("lane-packs-whole-grids-6", _x((1264, 1536))),
        C("lane-packs-whole-grids-211", _x((1688, 1024))),
        C("lane-packs-after-wait-past-one-an-sm", _x((1064, 1040))),
        C("lane-packs-after-wait-top", _x((1448, 1040))),
        C("lane-packs-past-after-wait", _x((1456, 1536))),
        C("lane-packs-5-after-wait-wide", _x((1456, 1040))),
        C("lane-packs-5-after-wait-top", _x((1976, 1040))),
        C("lane-packs-5-past-after-wait", _x((1984, 1040))),
        C("lane-packs-5-fp32-past-after-wait", _x((1456, 520))),
        C("lane-packs-4-after-wait-top", _x((1976, 1024))),
        C("lane-packs-4-past-after-wait", _x((1984, 1024))),
        C("lane-packs-3-fp32-after-wait-top", _x((1976, 384))),
        C("lane-packs-4-fp32-past-after-wait", _x((1456, 512))),
        C("lane-packs-2-after-wait-top", _x((2504, 512))),
        C("lane-packs-2-fp32-after-wait-top", _x((2504, 256))),
        C("lane-packs-2-past-after-wait", _x((2512, 512))),
        C("packed-rows-after-wait", _x((12288, 32))),
        C("lane-packs-one-an-sm", _x((1024, 512))),  # tilelang at exit (over a quarter of the SMs, one an SM)
        C("warp-rows-few-1536", _x((144, 1536))),
        C("warp-rows-wave-1032", _x((8456, 1032))),
        # nvidia: whole_batches, rows of whole batches of 4 x 512 packs (fp32 16384: two; 16-bit: one) at more rows
        # than an H200's SMs (unsplit); a row stride of 32768 from an aligned offset; a strided out; rows that are
        # not whole batches, outer dims that do not coalesce and a misaligned start (`contiguous` instead)
        C("whole-batches", _x((140, 16384))),
        C("whole-batches-stepped", _x((140, 16384), Layout(steps=(2, 1), offset=8))),
        C("whole-batches-strided-out", _x((140, 16384)), out_layout=Layout(steps=(3,))),
        C("whole-batches-ragged", _x((140, 12288))),
        C("whole-batches-outer-2d", _x((10, 14, 16384), Layout(steps=(2, 1, 1)))),
        C("whole-batches-misaligned", _x((140, 16384), Layout(offset=1))),
        C("long-rows-split", _x((3, 200_003))),
        C("one-long-row", _x((1 << 20,)), attrs={"dim": 0}),
        C("columns", _x((300, 257)), attrs={"dim": 0}),
        C("columns-split", _x((4099, 64)), attrs={"dim": -2}),
        # nvidia: column sums run strided_lanes, 8 row lanes a block (over 16-byte packs where the columns are whole
        # packs, as here, else an output a thread, as in "columns"): fewer rows than lanes, a last block with one live
        # output thread (2056 columns) over split rows that are not whole lane steps, and outputs over two outer dims
        # (a middle dim) split 5 ways
        C("columns-lanes-few-rows", _x((5, 64)), attrs={"dim": 0}),
        C("columns-lanes-ragged", _x((1030, 2056)), attrs={"dim": 0}),
        C("columns-lanes-outer-2d", _x((6, 700, 48)), attrs={"dim": 1}),
        C("middle-dim", _x((6, 50, 40)), attrs={"dim": 1}),
        C("middle-dim-keepdim", _x((6, 50, 40)), attrs={"dim": -2, "keepdim": True}),
        C("transposed", _x((120, 90), transposed(2)), attrs={"dim": 1}),
        C("stepped-offset", _x((40, 300), Layout(steps=(3, 2), offset=5))),
        C("misaligned-offset", _x((8, 1024), Layout(offset=1))),
        C("expanded-along-dim", _x((5, 600), Layout(expand=(1,))), attrs={"dim": 1}),
        C("empty-dim", _x((5, 0)), attrs={"dim": 1}),
        C("empty-rows", _x((0, 5)), attrs={"dim": 1}),
        C("strided-out", _x((30, 20, 10)), out_layout=Layout(perm=(1, 0)), attrs={"dim": 2}),
        C("rank5", _x((2, 3, 4, 5, 6), Layout(perm=(2, 0, 4, 1, 3))), attrs={"dim": 3}),
    ]


def _f(device, *shape, dtype=torch.float32):
    return make(shape, dtype, device)


def api_error_cases():
    return [
        case("integer-input", None, lambda d, o: ort.reduce_sum(_f(d, 4, dtype=torch.int64)), TypeError,
             r"x: expected dtype float32, float16 or bfloat16, got int64"),
        case("dim-out-of-range", lambda d: _f(d, 4), lambda d, o: ort.reduce_sum(_f(d, 4, 5), dim=2, out=o),
             ValueError, r"dim: expected a dim in \[-2, 1\], got 2"),
        case("dim-out-of-range-functional", None, lambda d, o: ort.reduce_sum(_f(d, 4, 5), dim=-3),
             ValueError, r"dim: expected a dim in \[-2, 1\], got -3"),
        case("dim-not-int", None, lambda d, o: ort.reduce_sum(_f(d, 4, 5), dim=1.0), TypeError,
             r"dim: expected an int, got float"),
        case("keepdim-not-bool", None, lambda d, o: ort.reduce_sum(_f(d, 4, 5), keepdim=1), TypeError,
             r"keepdim: expected a bool, got int"),
        case("out-wrong-shape", lambda d: _f(d, 4, 1), lambda d, o: ort.reduce_sum(_f(d, 4, 5), out=o), ValueError,
             r"out: expected shape \(4,\) \(x.sum\(dim=-1, keepdim=False\)\), got \(4, 1\)"),
        case("out-wrong-dtype", lambda d: _f(d, 4, dtype=torch.float16),
             lambda d, o: ort.reduce_sum(_f(d, 4, 5), out=o), TypeError, r"out: expected dtype float32"),
        case("out-overlaps-x", lambda d: _f(d, 4, 5),
             lambda d, buf: ort.reduce_sum(buf, out=buf[:, 1]), ValueError, r"out: partially overlaps x"),
        case("expanded-out", lambda d: _f(d, 1).expand(4),
             lambda d, o: ort.reduce_sum(_f(d, 4, 5), out=o), ValueError, r"out: .* must not overlap itself"),
    ]


def benchmark_cases() -> list[BenchCase]:
    B = BenchCase
    shapes = [(4096, 1024), (4096, 4096), (4096, 16384), (1024, 65536), (256, 262144), (32768, 4096),
              (4096, 128), (144, 1280), (1008, 2304), (4080, 1536)]
    cases = [B(f"rows-{m}x{n}", _x((m, n))) for m, n in shapes]
    cases.append(B("columns-32768x4096-dim0", _x((32768, 4096)), attrs={"dim": 0}))
    cases.append(B("one-row-2^26", _x((1 << 26,)), attrs={"dim": 0}, dtypes=(torch.float32,)))
    return cases
