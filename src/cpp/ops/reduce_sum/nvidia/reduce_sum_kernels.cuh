#pragma once
// reduce_sum kernels. A row is the `length` elements one output sums. Long rows may be split across
// `splits` blocks (grid.y); each split then writes a partial sum to the workspace and `finish` adds the
// partials in a fixed order, so results are deterministic (no atomics).
#include <cstddef>
#include <cstdint>

#include "core/cuda_launch.cuh"
#include "core/cuda_math.cuh"
#include "ops/reduce_sum/reduce_sum.h"

namespace ort::reduce_sum_kernels {

constexpr int kBlockTpr = 512;  // threads a row above 4096 elements

// Threads per unit-stride row, for create() and the split sweep alike. The split sweep
// (tests/bench/sweeps/reduce_sum_splits.cu, H200, session 7;
// docs/runs/reduce-sum-splits-h200-2026-11-30-ad.csv) timed 32-512 threads a row; the bench then kept
// what held up in the library: 64 threads a 16-bit row of 2049-4096 elements (32768x4096 66.8 -> 64.5 us,
// 1008x2304 4.72 -> 4.09; 4096x4096 10.9 -> 11.3, within the bench's noise at that size). fp32 rows
// stay with a warp: 256 threads won in the sweep (4096x4096 19.7 -> 18.0) but lost in the bench
// (17.5 -> 18.1, 1008x2304 5.8 -> 6.3).
constexpr int kMidTpr16 = 64;
constexpr int row_tpr(int64_t length, size_t dtype_bytes) {
  if (length > 4096) return kBlockTpr;
  if (length > 2048 && dtype_bytes == 2) return kMidTpr16;
  return 32;
}

// fp32 rows of exactly 4096 elements that grid_tpr's few-rows rule below leaves at a warp a row (rows enough for a
// block of 8 on every SM) run a block of 256 threads a row instead, each thread one batch of 4 packs. At a warp a row,
// 4096x4096 fp32 ran 512 blocks of 8 rows in one static wave, 46 % of the warp slots occupied (ncu, run ge), 17.55 us
// against Inductor's 16.40 (a program of 512 threads a row, 4096 of them); a block of 256 a row ran 16.43, and 128 /
// 512 threads a row 16.97 / 23.54 (run ge; the probes' text is in docs/runs/tests-h200-2026-12-02-gd-gh.md). By rows
// (runs gf and gg, same kernel): 1100 10.9 -> 5.7 us, 2048 9.7 -> 9.1, 8192 32.5 -> 31.1, 8448 35.0 -> 31.5, 16384 63.3
// -> 59.4, 32768 119.0 -> 116.9 (4.60 TB/s; Inductor 118.8). Shorter fp32 rows lost with it (4096x1024 5.94 -> 8.24,
// 4080x1536 7.77 -> 9.69), and 16-bit rows of 4096 tied, so the rule is this one length. row_tpr's note that 256
// threads lost in the bench (session 7) predates the PDL triggers and the batched tails.
constexpr int kRowBlockTpr = 256, kRowBlockLength = kRowBlockTpr * 4 * 4;

// fp32 rows of at most 4096 elements too few to give every SM a block of 256 threads take more threads a
// row (up to kFewRowsTpr), as long as each thread still reads two packs. At a warp a row, 1008x2304 fp32
// launched 126 blocks on 132 SMs and 144x1280 18. H200, fp32, 32 / 64 / 128 threads a row (run bw):
// 1008x2304 4.93 / 4.57 / 4.72 us (Inductor 4.26), 144x1280 1.71 / 1.57 / 1.40 (Inductor 1.58), while rows
// that already fill the GPU lost with more threads (4096x4096 16.6 / 18.0 / 17.1, 4080x1536 7.7 / 8.0 /
// 8.6): the rule is by grid, not by length. Runs bx and by, length rule against this one, twice each in one
// build: fp32 1008x2304 4.90 -> 4.56, 144x1280 1.70 -> 1.40. 16-bit rows lost instead: 144x1280 1.45 -> 1.74
// at 128 threads and -> 1.89 at 64, so they keep row_tpr. Why is not known: loading a thread's last packs
// together did not rescue them (run ca, docs/perf-notes.md, session 16). Since session 58, rows of at least
// kBlockRowPacks packs (reduce_sum_cuda.cu) whose outer dims coalesce and whose packs are aligned, 1008x2304 fp32
// among them, run whole_batches at 256 a row instead (since session 60 rows of kFewRowPacks too, at 200-2016 rows);
// this rule still picks for the other rows.
constexpr int kFewRowsTpr = 128;
constexpr int grid_tpr(int64_t rows, int64_t length, size_t dtype_bytes, int sm_count) {
  int tpr = row_tpr(length, dtype_bytes);
  if (dtype_bytes != 4) return tpr;
  const int64_t vec = 16 / int64_t(dtype_bytes);
  // Doubling keeps two packs a thread: 2 * tpr threads x 2 packs x vec values.
  while (tpr < kFewRowsTpr && (rows + 256 / tpr - 1) / (256 / tpr) < sm_count && 4 * tpr * vec <= length) tpr *= 2;
  if (tpr == 32 && length == kRowBlockLength) return kRowBlockTpr;
  return tpr;
}
// The cases the two notes above timed on the H200 (132 SMs), so a change to either rule shows here first.
static_assert(grid_tpr(4096, 4096, 4, 132) == kRowBlockTpr, "fp32 4096x4096: a block of 256 a row");
static_assert(grid_tpr(32768, 4096, 4, 132) == kRowBlockTpr, "fp32 32768x4096: a block of 256 a row");
static_assert(grid_tpr(4096, 4096, 2, 132) == kMidTpr16, "16-bit rows of 4096 tied, so keep row_tpr");
static_assert(grid_tpr(4096, 1024, 4, 132) == 32, "shorter fp32 rows lost with a block a row");
static_assert(grid_tpr(1008, 2304, 4, 132) == 64 && grid_tpr(144, 1280, 4, 132) == kFewRowsTpr, "few rows (run bw)");

// Offsets of row `row` in out and x. Rows whose outer dims coalesce into one (every contiguous tensor)
// need no division. Index is the type the divisions run in: a 64-bit division is a long subroutine, and
// its registers made ptxas spill row values in the softmax kernels once their launch bounds asked for 32
// registers a thread; those kernels run only when create() has checked that rows fit in 32 bits.
template <class Index = int64_t>
__device__ __forceinline__ void row_offsets(const Nest<2>& n, int64_t row, int64_t* out_off, int64_t* x_off) {
  if (n.ndim == 1) {
    *out_off = row * n.strides[0][0];
    *x_off = row * n.strides[1][0];
    return;
  }
  int64_t o = 0, x = 0;
  Index rest = Index(row);
  for (int d = n.ndim - 1; d >= 0; --d) {
    const Index shape = Index(n.shape[d]), q = rest / shape, r = rest - q * shape;
    o += int64_t(r) * n.strides[0][d];
    x += int64_t(r) * n.strides[1][d];
    rest = q;
  }
  *out_off = o;
  *x_off = x;
}

// The chunk of a row that split `s` of `splits` covers, in whole packs of VEC. An unsplit row skips the
// arithmetic: its 64-bit division by the split count is a long subroutine that every thread paid before its
// first load. Skipping it (H200, session 8, runs aj against ai) took 4096x128 halves from 2.55 to 2.00 us
// (ncu: 1.1M -> 0.5M instructions) and 4096x16384 halves from 34.1 to 31.4 us.
template <int VEC>
__device__ __forceinline__ void split_range(int64_t length, int splits, int s, int64_t* begin, int64_t* end) {
  if (splits == 1) {
    *begin = 0;
    *end = length;
    return;
  }
  const int64_t per = ((length + splits - 1) / splits + VEC - 1) / VEC * VEC;
  *begin = min(length, s * per);
  *end = min(length, *begin + per);
}

template <class T>
__device__ __forceinline__ void write_result(T* out, float* partials, const RowsOfDim& r, int64_t row,
                                             int64_t out_off, float sum) {
  if (gridDim.y == 1) out[out_off] = from_float<T>(sum);
  else partials[int64_t(blockIdx.y) * r.rows + row] = sum;
}

// Unit-stride rows: TPR threads share a row and read it in packs of VEC (16 bytes when aligned), UNROLL
// packs a thread in flight, BLOCK / TPR rows a block. The library uses the defaults; the split sweep
// (tests/bench/sweeps/reduce_sum_splits.cu) times the others.
// kBatchTail: the packs left after the last whole batch (fewer than UNROLL) are loaded together under
// predicates instead of one after another. Only for rows where two or more are left (batch_tail in
// reduce_sum_cuda.cu): with one or none, the predicated batch cost 0.2-0.4 us a call (run ca).
template <class T, int VEC, int TPR, int UNROLL = 4, int BLOCK = (TPR < 256 ? 256 : TPR), bool kBatchTail = false>
__global__ void __launch_bounds__(BLOCK) contiguous(T* out, const T* x, float* partials, RowsOfDim r,
                                                    cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  static_assert(BLOCK % TPR == 0, "whole rows a block");
  constexpr int kBlock = BLOCK;
  __shared__ float smem[32 * (kBlock / TPR)];
  const int64_t row = int64_t(blockIdx.x) * (kBlock / TPR) + threadIdx.x / TPR;
  const int lane = threadIdx.x % TPR;
  float acc[UNROLL] = {};  // independent sums keep UNROLL loads in flight
  int64_t out_off = 0, x_off = 0;
  if (row < r.rows) {
    row_offsets(r.outer, row, &out_off, &x_off);
    int64_t begin, end;
    split_range<VEC>(r.length, gridDim.y, blockIdx.y, &begin, &end);
    const T* p = x + x_off;
    int64_t i = begin + int64_t(lane) * VEC;
    for (; i + (UNROLL - 1) * TPR * VEC < end; i += UNROLL * TPR * VEC) {
      float f[UNROLL][VEC];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) cuda::load_f32_words<T, VEC>(p + i + u * TPR * VEC, f[u]);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
#pragma unroll
        for (int k = 0; k < VEC; ++k) acc[u] += f[u][k];
    }
    if constexpr (kBatchTail) {
      float f[UNROLL - 1][VEC];
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (i + u * TPR * VEC < end) {
          cuda::load_f32_words<T, VEC>(p + i + u * TPR * VEC, f[u]);
        } else {
#pragma unroll
          for (int k = 0; k < VEC; ++k) f[u][k] = 0.f;
        }
      }
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u)
#pragma unroll
        for (int k = 0; k < VEC; ++k) acc[u] += f[u][k];
    } else {
      for (; i < end; i += TPR * VEC) {
        float f[VEC];
        cuda::load_f32_words<T, VEC>(p + i, f);
#pragma unroll
        for (int k = 0; k < VEC; ++k) acc[0] += f[k];
      }
    }
  }
  float total = 0.f;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) total += acc[u];
  const float sum = cuda::group_reduce<TPR>(total, cuda::SumOp{}, smem);
  if (row < r.rows && lane == 0) write_result(out, partials, r, row, out_off, sum);
}

// `contiguous` for rows of whole batches (length a multiple of UNROLL x TPR 16-byte packs) whose outer dims coalesce
// into one (a row stride), a block of TPR a row, unsplit and 16-byte aligned: the same loads, without the tail and
// with a 32-bit batch count instead of 64-bit offsets, so ptxas fits it in 32 registers (30 fp32, 28 16-bit at
// TPR 512, sm_90; 30 at 256) and four blocks of 512 (eight of 256) share an SM where `contiguous` (40 registers)
// fits three (six). It paid, a little (session 51, H200): ncu's achieved occupancy at rows-1024x65536 fp32 71 -> 96 %,
// and every bench row it takes 0.6-2.0 % faster (59.6 -> 59.1 us there, 0.991x torch in session 50's slower run).
// `unroll 1`: unrolled twice, the fp32 loop spills at 32 registers.
// REST: the packs after the last whole batch (fewer than UNROLL a thread), loaded at once under predicates: a row of
// 480-1024 packs is then one batch a thread whatever its length (kBlockRowPacks in reduce_sum_cuda.cu), 32 registers.
template <class T, int TPR, int UNROLL = 4, bool REST = false>
__global__ void __launch_bounds__(TPR, 2048 / TPR) whole_batches(T* out, const T* x, RowsOfDim r,
                                                                   cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  constexpr int kVec = 16 / sizeof(T), kBatch = UNROLL * TPR * kVec;
  __shared__ float smem[32];
  const T* p = x + int64_t(blockIdx.x) * r.outer.strides[1][0] + threadIdx.x * kVec;
  float acc[UNROLL] = {};
#pragma unroll 1
  for (int b = int(r.length / kBatch); b > 0; --b, p += kBatch) {
    float f[UNROLL][kVec];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) cuda::load_f32_words<T, kVec>(p + u * TPR * kVec, f[u]);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int k = 0; k < kVec; ++k) acc[u] += f[u][k];
  }
  if constexpr (REST) {
    const int rest = int(r.length % kBatch) / kVec;  // packs after the whole batches
    float f[UNROLL][kVec];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (int(threadIdx.x) + u * TPR < rest) {
        cuda::load_f32_words<T, kVec>(p + u * TPR * kVec, f[u]);
      } else {
#pragma unroll
        for (int k = 0; k < kVec; ++k) f[u][k] = 0.f;
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
#pragma unroll
      for (int k = 0; k < kVec; ++k) acc[u] += f[u][k];
  }
  float total = 0.f;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) total += acc[u];
  const float sum = cuda::group_reduce<TPR>(total, cuda::SumOp{}, smem);
  if (threadIdx.x == 0) out[int64_t(blockIdx.x) * r.outer.strides[0][0]] = from_float<T>(sum);
}

// A short-row kernel's warp (this one's and softmax_kernels::short_rows'): row blockIdx.x * 8 + the warp, lane l
// holding elements l, l + 32, ... of it, and `fill` where an element is past the row's end or the row past the last.
template <class T, int PER_LANE, class Index>
struct ShortRowWarp {
  Index row;
  int lane;
  __device__ __forceinline__ ShortRowWarp() : row(Index(blockIdx.x) * 8 + Index(threadIdx.x / 32)),
                                              lane(int(threadIdx.x % 32)) {}
  __device__ __forceinline__ bool holds(Index rows, int length, int k) const {
    return row < rows && lane + 32 * k < length;
  }
  __device__ __forceinline__ void load(const T* x, Index rows, int length, Index x_row_stride, float fill,
                                       float (&v)[PER_LANE]) const {
    const T* p = x + row * x_row_stride;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) v[k] = holds(rows, length, k) ? to_float(p[lane + 32 * k]) : fill;
  }
};

// Unit-stride rows of at most 32 * PER_LANE elements whose outer dims coalesce into one (a row stride), a warp
// a row, 8 rows a block, the shape of our TileLang kernel: lane l reads elements l, l + 32, ... (every lane
// busy, its loads all issued before the first add) and the sizes come as scalars, not as RowsOfDim (no
// division per dim to find the row). Run cb (H200): 4096x128 1.67 -> 1.22 us on all three dtypes, where
// `contiguous` lets 16 of a warp's lanes read one 16-byte pack each; Inductor took 1.59-1.64 (run by).
// Index is int where every offset fits in 32 bits (create() checks), as in TileLang's lowering of the same
// kernel, and a row past the end is guarded rather than returned from. tests/bench/sweeps/reduce_sum_short_rows.cu
// (H200, run dy, against session 26's kernel: int64_t, early return): bf16 131072 / 262144 rows of 128 15.63 /
// 29.55 -> 14.83 / 27.90 us (the guards alone, at int64_t: 15.29 / 28.79), 65536x32 7.82 -> 7.32, fp32 262144x128
// 34.59 -> 34.18, 65536x32 7.79 -> 7.43; 4096-32768 rows within 3 %, none slower beyond the repeats' spread.
template <class T, int PER_LANE, class Index>
__global__ void __launch_bounds__(256) short_rows(T* out, const T* x, Index rows, int length, Index x_row_stride,
                                                  Index out_row_stride, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const ShortRowWarp<T, PER_LANE, Index> w;
  float v[PER_LANE];
  w.load(x, rows, length, x_row_stride, 0.f, v);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < PER_LANE; ++k) s += v[k];
  s = cuda::SumOp{}.warp<32>(s);
  if (w.lane == 0 && w.row < rows) out[w.row * out_row_stride] = from_float<T>(s);
}

// Short rows of whole 16-byte packs (the length and the row stride multiples of VEC, x aligned), in the shape of
// softmax's registers kernel: TPR threads a row (the row's packs rounded up to a power of two), one pack each,
// 256 / TPR rows a block, a shuffle sum over the row's threads. short_rows gives each lane 4 loads of one element;
// here each thread has one 16-byte load, which moves the same bytes in a quarter (fp32) or an eighth (16-bit) of
// the load instructions. tests/bench/sweeps/reduce_sum_short_rows.cu (H200, run ee, against short_rows at int,
// inputs out of L2): bf16 262144 / 131072 / 16384 / 4096 rows of 128 28.3 / 15.1 / 3.23 / 1.43 -> 18.2 / 10.0 /
// 2.43 / 1.34 us, 65536x32 7.48 -> 2.43 (bf16) and 7.58 -> 3.73 (fp32); fp32 rows of 128 tie (34.2 us at 262144
// either way: one float a lane already streams at 3.9 TB/s). In the bench's context (inputs of 1 MiB held in L2)
// 16 threads a row lost at 4096 rows (run eh), so create() asks packed_rows_threads (short_rows_plan.cuh). The
// same signature as short_rows, so the two share their plan and launch.
// PACKS > 1 (with TPR 32): rows of 33-256 packs, a warp a row, lane l holding packs l, l + 32, ... (PACKS of them,
// those past the row's end read as zeros), every load issued before the first add: TileLang's warp a row, which ran
// rows-4096x1024 halves 3.31 us against `contiguous`'s 3.96 in the same bench run (session 43); `contiguous` runs
// the same shape there, with a 64-bit row walk and a loop (lane_packs_rows in short_rows_plan.cuh).
// AFTER_WAIT: the PDL trigger after the wait, whatever `trigger` says (cuda::pdl_prologue; where:
// lane_packs_after_wait and packed_rows_after_wait in short_rows_plan.cuh).
template <class T, int TPR, class Index, int PACKS = 1, bool AFTER_WAIT = false>
__global__ void __launch_bounds__(256) packed_rows(T* out, const T* x, Index rows, int length, Index x_row_stride,
                                                   Index out_row_stride, cuda::Trigger trigger) {
  cuda::pdl_prologue<AFTER_WAIT>(trigger);
  static_assert(TPR >= 1 && TPR <= 32 && (TPR & (TPR - 1)) == 0, "a power of two of a warp's lanes");
  static_assert(PACKS == 1 || TPR == 32, "several packs a lane only in a warp a row");
  constexpr int kVec = 16 / sizeof(T);
  const Index row = Index(blockIdx.x) * (256 / TPR) + Index(threadIdx.x / TPR);
  const int first = int(threadIdx.x % TPR) * kVec;
  float f[PACKS][kVec] = {};
#pragma unroll
  for (int k = 0; k < PACKS; ++k)
    if (row < rows && first + k * TPR * kVec < length)
      cuda::load_f32_words<T, kVec>(x + row * x_row_stride + first + k * TPR * kVec, f[k]);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < PACKS; ++k)
#pragma unroll
    for (int v = 0; v < kVec; ++v) s += f[k][v];
  s = cuda::SumOp{}.warp<TPR>(s);  // every lane takes part: no thread has returned
  if (first == 0 && row < rows) out[row * out_row_stride] = from_float<T>(s);
}

// Any stride along the row (column sums): a block of 256 threads is 256 / LANES output threads (VEC adjacent outputs
// each, one 16-byte pack when VEC > 1; consecutive threads take consecutive outputs in out's memory order, so when x
// is unit-stride across outputs the reads coalesce) by LANES row lanes. Lane l of a split reads its rows begin + l,
// begin + l + LANES, ..., UNROLL of them at once, into one fp32 sum an output; the lanes' sums are then added in lane
// order through shared memory, so results stay deterministic.
// Until session 52 a column sum ran `strided`, a thread per output (or pack) walking every row of its split with
// UNROLL sums an output live. Row lanes spread the same loads over fewer registers, and a split covers LANES times
// the rows for one partial, so the workspace a column sum writes and reads again shrinks by LANES. At LANES 8, UNROLL
// 8: 46 registers (16-bit packs; 44 fp32) against strided's 64 (54), five blocks an SM against four, and 41 splits of
// 32768x4096 halves where strided needed 256 (ptxas interleaves the loads with the adds, so fewer than 8 are in
// flight). H200, session 52: the bench's 32768x4096 columns 66.9 -> 63.1 us (halves, Inductor 64.3) and 123.6 ->
// 121.8 (fp32, Inductor 122.0), run il; the sweep (tests/bench/sweeps/reduce_sum_columns.cu) 1.06-1.9x faster on ten
// shapes and three dtypes, LANES 8 x UNROLL 8 the fastest arm or within 1 % on 16 of run il's 18; columns that are
// not whole packs (a thread an output) 1.36x (fp32) to 3.2x (bf16) faster at 32768x4095, run in.
template <class T, int VEC, int LANES, int UNROLL>
__global__ void __launch_bounds__(256) strided_lanes(T* out, const T* x, float* partials, RowsOfDim r,
                                                     cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  static_assert(LANES >= 1 && (256 / LANES) % 32 == 0, "whole warps of output threads a lane");
  constexpr int kOutThreads = 256 / LANES;
  const int t = int(threadIdx.x % kOutThreads), lane = int(threadIdx.x / kOutThreads);
  const int64_t row = (int64_t(blockIdx.x) * kOutThreads + t) * VEC;
  const bool live = row < r.rows;
  int64_t out_off = 0, x_off = 0, begin, end;
  split_range<1>(r.length, gridDim.y, blockIdx.y, &begin, &end);
  float acc[VEC] = {};
  if (live) {
    row_offsets(r.outer, row, &out_off, &x_off);
    const int64_t step = int64_t(LANES) * r.x_stride;
    const T* p = x + x_off + (begin + lane) * r.x_stride;
    int64_t k = begin + lane;
    for (; k + (UNROLL - 1) * LANES < end; k += UNROLL * LANES, p += UNROLL * step) {
      float f[UNROLL][VEC];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) cuda::load_f32_words<T, VEC>(p + u * step, f[u]);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
#pragma unroll
        for (int j = 0; j < VEC; ++j) acc[j] += f[u][j];
    }
    for (; k < end; k += LANES, p += step) {
      float f[VEC];
      cuda::load_f32_words<T, VEC>(p, f);
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[j] += f[j];
    }
  }
  if constexpr (LANES > 1) {
    __shared__ float lane_sums[LANES - 1][VEC][kOutThreads];  // [.][.][t]: a warp's stores hit 32 banks
    if (lane > 0)
#pragma unroll
      for (int j = 0; j < VEC; ++j) lane_sums[lane - 1][j][t] = acc[j];
    __syncthreads();
    if (lane > 0) return;
#pragma unroll
    for (int l = 0; l < LANES - 1; ++l)
#pragma unroll
      for (int j = 0; j < VEC; ++j) acc[j] += lane_sums[l][j][t];
  }
  if (!live) return;
  const int64_t out_step = r.outer.ndim ? r.outer.strides[0][r.outer.ndim - 1] : 0;
#pragma unroll
  for (int j = 0; j < VEC; ++j) write_result(out, partials, r, row + j, out_off + j * out_step, acc[j]);
}

// The library's strided_lanes shape, the fastest or within 1 % of it in the column-sum sweep.
constexpr int kColumnLanes = 8, kColumnUnroll = 8;

// The largest power of two <= n (0 for n < 1): the plan rounds its split counts (fp32 columns, rows) down to one,
// and the column sweep times that count. Recursive, not a loop: nvcc's front end gave up folding the loop form in a
// static_assert.
constexpr int64_t floor_pow2(int64_t n) { return n < 2 ? (n < 1 ? 0 : 1) : 2 * floor_pow2(n / 2); }
static_assert(floor_pow2(0) == 0 && floor_pow2(1) == 1 && floor_pow2(20) == 16 && floor_pow2(32) == 32);
static_assert(floor_pow2(41) == 32 && floor_pow2(32768) == 32768 && floor_pow2(65535) == 32768);

// Adds each row's partial sums in a fixed order, so results are deterministic.
//   finish_few_rows: a warp per row; lane l takes splits l, l + 32, ..., then a fixed shuffle tree (one
//                    row split a thousand ways: a lone thread would add 1056 partials one by one).
//   finish_rows:     a block takes 32 consecutive rows (threadIdx.x: the reads coalesce) and 8 split lanes
//                    (threadIdx.y: lane y takes splits y, y + 8, ...); the 8 lane sums are added in order.
//                    Session 1 used one thread per row there: 4096 threads each adding 512 partials.
template <class T>
__global__ void __launch_bounds__(256) finish_few_rows(T* out, const float* partials, RowsOfDim r, int splits,
                                                       cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t row = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (row >= r.rows) return;  // whole warps leave together (256 is a multiple of 32)
  float sum = 0.f;
  for (int s = threadIdx.x % 32; s < splits; s += 32) sum += partials[int64_t(s) * r.rows + row];
  sum = cuda::warp_sum(sum);
  if (threadIdx.x % 32 == 0) {
    int64_t out_off, x_off;
    row_offsets(r.outer, row, &out_off, &x_off);
    out[out_off] = from_float<T>(sum);
  }
}

constexpr int kFinishLanes = 8;
constexpr int64_t kWarpFinishRows = 1024;  // fewer rows than this finish with finish_few_rows

template <class T>
__global__ void __launch_bounds__(32 * kFinishLanes) finish_rows(T* out, const float* partials, RowsOfDim r,
                                                                 int splits, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float lane_sum[kFinishLanes][33];
  const int64_t row = int64_t(blockIdx.x) * 32 + threadIdx.x;
  float sum = 0.f;
  if (row < r.rows)
    for (int s = threadIdx.y; s < splits; s += kFinishLanes) sum += partials[int64_t(s) * r.rows + row];
  lane_sum[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y == 0 && row < r.rows) {
    float total = 0.f;
#pragma unroll
    for (int y = 0; y < kFinishLanes; ++y) total += lane_sum[y][threadIdx.x];
    int64_t out_off, x_off;
    row_offsets(r.outer, row, &out_off, &x_off);
    out[out_off] = from_float<T>(total);
  }
}

}  // namespace ort::reduce_sum_kernels
