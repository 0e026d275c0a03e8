"""softmax cases: row lengths across every kernel path, any dim and layout, -inf and large values."""

from __future__ import annotations

import torch

import operator_runtime as ort
from operator_runtime_testing.cases import BenchCase, CorrectnessCase, Operand
from operator_runtime_testing.cases import error_case as case
from operator_runtime_testing.layouts import CONTIGUOUS, Layout, make, transposed

C = CorrectnessCase


def _x(shape, layout=CONTIGUOUS, values=None):
    return {"x": Operand(shape, layout, values)}


def _some_neg_inf(t):
    t.view(-1)[::7] = float("-inf")


def _some_nan(t):
    # A NaN in a row makes every output of that row NaN (torch): the max skips it, its exp does not.
    t[1::2, 5] = float("nan")


def _neg_inf_first_half(t):
    # Whole CTA chunks of -inf in the cluster kernel: their (max, sum) is (-inf, 0) and must merge as 0.
    t[..., : t.shape[-1] // 2] = float("-inf")


def _large(t):
    t.mul_(3000.0)


def _large_offset(t):
    # Many values near a large max, all contributing: exp(v - m) computed as exp2(v * log2e - m * log2e)
    # misses here by ~4e-4 relative in float32 on every row (the subtraction must come first).
    t.mul_(4.0).add_(9000.0)


def correctness_cases() -> list[CorrectnessCase]:
    # Lengths cross every kernel choice: sub-warp, warp and block registers rows (up to 8192 halves and
    # 16384 fp32, each table entry's edge included), the online kernel beyond, and on Hopper the cluster
    # kernels: cluster_smem_held for 16-bit rows of 32769-917504, cut evenly into 2, 4, 8 or 16 CTAs (40000 2
    # CTAs of 5 packs; 65536 fills 4 CTAs of 4 packs, 65528 masks the last CTA's last pack; 98304 4 of 6 full,
    # 100000 4 of 7 masked; 114696 8 of 4 masked, 131072 8 of 4 full; 140000 8 of 5 whose last CTA holds none of
    # the row, 147456 8 of 5 masked, 163840 8 of 5 full, 165000 8 of 6 whose last holds none, 196608 8 of 6 full,
    # 200000 8 of 7 masked, 229376 8 of 7 full, 262144 8 of 8 full, 270336 8 of 9 masked, 294912 8 of 9 full,
    # 300000 16 of 5 masked, 393216 16 of 6 full, 458752 16 of 7 full, 500000 16 of 8 masked, 524288 16 of 8 full,
    # 589824 16 of 9 full, 600000 16 of 10 masked, 655360 16 of 10 full, 800000 16 of 13 masked, 917504 16 of 14
    # full); 16-bit rows of 24000 and of 1000000 stay on the online kernel. fp32 rows of 16385-458752 are held too,
    # in 4, 8 or 16 CTAs of 2048-value packs (24000 4 of 3 masked, 32768 4 of 4 full, 40000 4 of 5 masked, 65528
    # and 65536 8 of 4, 98304 8 of 6 full, 100000 8 of 7 masked, 114696 16 of 4 whose last CTAs hold little,
    # 131072 16 of 4 full, 140000 16 of 5 ... 262144 16 of 8 full, 270336 9 masked, 294912 9 full, 300000 10
    # masked, 393216 12 full, 458752 14 full); fp32 rows of 500000 and longer run online.
    # TileLang holds 16-bit rows of 2-8 whole parts of 32768 (65536 ... 262144) in shared memory, a block a part.
    # 1280 and 1536: the 16-bit (64 threads x 3 packs) entry with a masked last pack and exactly full.
    # 3072 and 3073: either side of the fp32 entries 256 x 4 and 512 x 2. 4088 and 4096: either side of the 16-bit
    # entries 256 x 2 and 192 x 3 (4088 is the longest 16-byte aligned row under 4096; 3073 is misaligned).
    # 8200 and 12288: 16-bit rows that online_held holds as 384 x 4 (8200 masked, 12288 full); 12296 and 16384 as
    # 512 x 4 (12296 masked, 16384 full).
    lengths = [1, 7, 32, 127, 512, 1024, 1031, 1280, 1536, 3072, 3073, 4088, 4096, 6000, 8192, 8193, 8200, 12288,
               12296, 16384, 24000, 32768, 40000, 65528, 65536, 98304, 100000, 114696, 131072, 140000, 147456, 163840,
               165000, 196608, 200000, 229376, 262144, 270336, 294912, 300000, 393216, 458752, 500000, 524288, 589824,
               600000, 655360, 800000, 917504, 1000000]
    cases = [C(f"rows-{n}", _x((6, n))) for n in lengths]
    cases += [
        C("scalar", _x(()), attrs={"dim": 0}),
        C("empty", _x((0, 9))),
        C("many-short-rows", _x((3001, 24))),
        # more than two waves of TileLang's short-row blocks on an H200 (2500 blocks of 8 rows): no early trigger
        C("short-rows-many-waves", _x((20000, 100))),
        # nvidia: short_rows (rows of <= 128, a warp a row) with -inf, NaN, large values, a row stride and
        # rows that start on no pack boundary
        C("short-rows-neg-inf", _x((40, 100), values=_some_neg_inf)),
        C("short-rows-nan", _x((6, 100), values=_some_nan)),
        C("short-rows-large-offset", _x((16, 128), values=_large_offset)),
        C("short-rows-stepped", _x((40, 100), Layout(steps=(2, 1), offset=3)), out_layout=Layout(steps=(3, 1))),
        # Rows that fill every pack take the unmasked kernel, whose threads past the last row reload it and
        # store nothing: 5 rows of 256 leave 11 of a 16-row block past the end (16 threads a row; rows of 128
        # and shorter take short_rows on nvidia).
        C("full-packs-ragged-block", _x((5, 256))),
        # Past half a wave of short_rows blocks (4224 rows on an H200): rows of one or two packs, a pack a thread
        # (nvidia: the registers table's 1- and 2-thread entries, 256 or 128 rows a block, the last block ragged;
        # tilelang: its packed short-row kernel), rows of 4 halves (no whole pack: single elements), and -inf
        C("one-pack-rows", _x((5000, 8))),
        C("rows-of-4", _x((5000, 4))),
        C("two-pack-rows-neg-inf", _x((5000, 16), values=_some_neg_inf)),
        C("full-packs-neg-inf", _x((16, 1024), values=_some_neg_inf)),
        # tilelang: 16-bit rows of 264-512 in grids of an 8-row block an SM or more (1056 rows on an H200), a warp
        # a row of 2 packs a lane (softmax.warp_rows_packs): the last block ragged (1100 rows) with the last lanes'
        # packs clamped (264: 33 packs; 400: 50), -inf, NaN, large values, in place, past two waves (no early
        # trigger), a misaligned start (the element-wise kernel instead); and rows of 3-4 packs a lane or too few
        # rows, which keep the one-pass kernel (-inf, NaN, large values, in place, misaligned at 520-1024)
        C("warp-rows-neg-inf", _x((1100, 264), values=_some_neg_inf)),
        C("warp-rows-nan-2-packs", _x((1100, 512), values=_some_nan)),
        C("warp-rows-large-offset-2-packs", _x((1100, 400), values=_large_offset)),
        C("warp-rows-in-place-2-packs", _x((1100, 504)), in_place="x"),
        C("warp-rows-many-waves", _x((20000, 264))),
        C("warp-rows-misaligned-2-packs", _x((1100, 512), Layout(offset=1)), out_layout=Layout(offset=1)),
        C("warp-rows-ragged-block", _x((1100, 520))),
        C("warp-rows-nan", _x((1100, 1024), values=_some_nan)),
        C("warp-rows-large-offset", _x((1100, 1000), values=_large_offset)),
        C("warp-rows-in-place", _x((1100, 1000)), in_place="x"),
        # tilelang: 4 packs a lane from 2.5 8-row blocks an SM (3300 rows on an H200), the last lanes' packs clamped
        # at 1000 halves: NaN, large values, in place, misaligned (the element-wise kernel instead)
        C("warp-rows-4-packs-nan", _x((3300, 1024), values=_some_nan)),
        C("warp-rows-4-packs-large-offset", _x((3300, 1000), values=_large_offset)),
        C("warp-rows-4-packs-in-place", _x((3300, 1000)), in_place="x"),
        C("warp-rows-4-packs-misaligned", _x((3300, 1024), Layout(offset=1)), out_layout=Layout(offset=1)),
        C("warp-rows-misaligned", _x((1100, 1024), Layout(offset=1)), out_layout=Layout(offset=1)),
        C("warp-rows-few-rows", _x((13, 520))),
        C("dim0", _x((300, 33)), attrs={"dim": 0}),
        C("middle-dim", _x((4, 50, 16)), attrs={"dim": 1}),
        C("transposed", _x((64, 129), transposed(2)), attrs={"dim": -1}),
        C("transposed-out", _x((64, 129)), out_layout=transposed(2)),
        C("misaligned-offset", _x((5, 2048), Layout(offset=1)), out_layout=Layout(offset=3)),
        C("misaligned-long", _x((2, 20000), Layout(offset=1))),
        C("stepped", _x((40, 300), Layout(steps=(2, 3)))),
        C("expanded-rows", _x((8, 500), Layout(expand=(0,)))),
        C("neg-inf", _x((16, 1000), values=_some_neg_inf)),
        C("neg-inf-long", _x((2, 50000), values=_some_neg_inf)),
        # 16-bit rows of 8193-16384 stream 4 raw packs a step, their max taken on the raw pairs (online_packs)
        C("neg-inf-online-packs", _x((4, 16384), values=_some_neg_inf)),
        C("nan-online-packs", _x((4, 16384), values=_some_nan)),
        C("nan-short", _x((4, 1000), values=_some_nan)),
        C("neg-inf-cluster-chunks", _x((2, 131072), values=_neg_inf_first_half)),
        # cluster_smem_held (16-bit rows of 32769-270336 on Hopper): a CTA whose whole part is -inf trades (-inf, 0);
        # a NaN reaches the other CTA through the pair; values near a large max, in a masked row
        C("neg-inf-smem-held-part", _x((2, 65536), values=_neg_inf_first_half)),
        C("neg-inf-smem-held-parts", _x((2, 262144), values=_neg_inf_first_half)),
        C("nan-smem-held", _x((4, 65536), values=_some_nan)),
        C("large-offset-smem-held", _x((2, 49152), values=_large_offset)),
        C("misaligned-cluster-row", _x((2, 65536), Layout(offset=1)), out_layout=Layout(offset=2)),
        # A row online_held would hold, met with pointers that rule out 16-byte packs: the element-wise online kernel.
        C("misaligned-held-row", _x((2, 12296), Layout(offset=1)), out_layout=Layout(offset=2)),
        C("cluster-ragged-chunks", _x((3, 65536 + 8))),
        C("large-magnitude", _x((16, 3000), values=_large)),
        C("large-offset", _x((8, 1000), values=_large_offset)),
        C("large-offset-long", _x((2, 70000), values=_large_offset)),
        # TileLang's split pair on parts of whole packs that are not whole 4096-element steps (40000: four parts of
        # 10000, the last step masked): parts of all -inf, NaN, large values, and in place
        C("neg-inf-split-masked-parts", _x((2, 40000), values=_neg_inf_first_half)),
        C("nan-split-masked", _x((4, 24000), values=_some_nan)),
        C("large-offset-split-masked", _x((2, 40000), values=_large_offset)),
        C("in-place-split-masked", _x((2, 40000)), in_place="x"),
        C("in-place", _x((32, 1500)), in_place="x"),
        C("in-place-long", _x((2, 70000)), in_place="x"),
        C("rank5", _x((2, 3, 4, 5, 6), Layout(perm=(4, 0, 3, 1, 2))), attrs={"dim": 2}),
    ]
    return cases


def _f(device, *shape, dtype=torch.float32):
    return make(shape, dtype, device)


def api_error_cases():
    return [
        case("integer-input", None, lambda d, o: ort.softmax(_f(d, 4, dtype=torch.int32)), TypeError,
             r"x: expected dtype float32, float16 or bfloat16, got int32"),
        case("float64-input", None, lambda d, o: ort.softmax(_f(d, 4, dtype=torch.float64)), TypeError,
             r"x: expected dtype float32, float16 or bfloat16, got float64"),
        case("dim-out-of-range", lambda d: _f(d, 4, 5), lambda d, o: ort.softmax(_f(d, 4, 5), dim=5, out=o),
             ValueError, r"dim: expected a dim in \[-2, 1\], got 5"),
        case("dim-not-int", None, lambda d, o: ort.softmax(_f(d, 4, 5), dim="1"), TypeError,
             r"dim: expected an int, got str"),
        case("out-wrong-shape", lambda d: _f(d, 5, 4), lambda d, o: ort.softmax(_f(d, 4, 5), out=o), ValueError,
             r"out: expected shape \(4, 5\) \(the shape of x\), got \(5, 4\)"),
        case("out-wrong-dtype", lambda d: _f(d, 4, 5, dtype=torch.bfloat16),
             lambda d, o: ort.softmax(_f(d, 4, 5), out=o), TypeError, r"out: expected dtype float32"),
        case("partial-overlap", lambda d: _f(d, 300),
             lambda d, buf: ort.softmax(buf[:200], out=buf[100:]), ValueError, r"out: partially overlaps x"),
        case("in-place-transposed", lambda d: _f(d, 8, 8),
             lambda d, buf: ort.softmax(buf, out=buf.t()), ValueError,
             r"out: is the same memory as x with a different layout"),
    ]


def benchmark_cases() -> list[BenchCase]:
    # 4096x10000: a 16-bit row past 8192 that online_held holds with masked packs (384 x 4 since session 41; the
    # bench had no 16-bit row between 8192 and 16384, where 512 x 4 had run 20 % under its neighbours).
    shapes = [(4096, 1024), (4096, 4096), (4096, 16384), (1024, 65536), (256, 262144), (32768, 4096),
              (4096, 128), (1008, 2304), (4080, 1536), (4096, 10000)]
    return [BenchCase(f"{m}x{n}", _x((m, n))) for m, n in shapes]
