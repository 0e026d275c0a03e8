#pragma once
// vector_add kernels: templates over the element type T and the pack width VEC.
#include <cstdint>

#include "core/cuda_math.cuh"
#include "core/cuda_launch.cuh"
#include "core/layout.h"
#include "core/pair_word.cuh"

namespace ort::vector_add_kernels {

using cuda::swizzled_word;

// Rows: the innermost dim is unit-stride in out and unit-stride or broadcast (stride 0) in a and b;
// every other dim is an outer "row" index. Covers the flat case (one row) and row-vector broadcasts; the
// flat and row_grid kernels below take one contiguous row and plans of one outer dim (create() says which), rows
// the others.
struct RowsPlan {
  int64_t rows = 1, inner = 0;
  int64_t a_inner = 1, b_inner = 1;  // 1 or 0
  int outer_ndim = 0;
  int64_t outer_shape[kMaxDims] = {};
  int64_t outer_stride[3][kMaxDims] = {};  // out, a, b
};

__device__ __forceinline__ void row_offsets(const RowsPlan& p, int64_t row, int64_t (&off)[3]) {
  off[0] = off[1] = off[2] = 0;
  if (p.outer_ndim == 1) {  // rows that coalesce into one dim (a row-vector broadcast): no division
#pragma unroll
    for (int t = 0; t < 3; ++t) off[t] = row * p.outer_stride[t][0];
    return;
  }
  for (int d = p.outer_ndim - 1; d >= 0; --d) {
    const int64_t q = row / p.outer_shape[d], r = row - q * p.outer_shape[d];
#pragma unroll
    for (int t = 0; t < 3; ++t) off[t] += r * p.outer_stride[t][d];
    row = q;
  }
}

// kBcast says which inputs are broadcast along the row (inner stride 0): bit 0 for a, bit 1 for b. It is
// a template parameter so that the load loop below has no branch between its loads; a broadcast input
// is read once per row instead.
template <class T, int VEC, bool kSplat>
__device__ __forceinline__ void widen(const cuda::Pack<T, VEC>& pk, float splat, float (&f)[VEC]) {
  if constexpr (kSplat) {
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = splat;
  } else {
    cuda::unpack(pk, f);
  }
}

// Each thread adds kUnroll packs of VEC elements of one row. All packs are loaded before the first is
// converted, so 2 x kUnroll 16-byte loads are in flight per thread whatever the dtype. A row's tail that
// does not fill a pack is done element by element.
template <class T, int VEC, int kUnroll, int kBcast, int BLOCK>
__device__ __forceinline__ void add_row_packs(T* o, const T* pa, const T* pb, int64_t inner, int64_t a_inner,
                                              int64_t b_inner) {
  constexpr int kChunk = BLOCK * VEC * kUnroll;
  constexpr bool kSplatA = kBcast & 1, kSplatB = kBcast & 2;
  const int64_t base = int64_t(blockIdx.x) * kChunk + threadIdx.x * VEC;
  cuda::Pack<T, VEC> ra[kUnroll], rb[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const int64_t i = base + u * BLOCK * VEC;
    if (i + VEC <= inner) {
      if constexpr (!kSplatA) ra[u] = cuda::load_pack<T, VEC>(pa + i);
      if constexpr (!kSplatB) rb[u] = cuda::load_pack<T, VEC>(pb + i);
    }
  }
  const float sa = kSplatA ? to_float(*pa) : 0.f, sb = kSplatB ? to_float(*pb) : 0.f;
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    const int64_t i = base + u * BLOCK * VEC;
    if (i + VEC <= inner) {
      // 16-bit pairs added in hardware: the same bits as torch's widen-add-narrow (add_pairs), and in bf16 10 fewer
      // registers a thread (row_grid 60 -> 50), which let bf16 take row_grid and flat's blocks of 1024 (runs kb-kc).
      if constexpr (sizeof(T) == 2 && VEC % 2 == 0 && kBcast == 0) {
        uint32_t wa[VEC / 2], wb[VEC / 2];
        memcpy(wa, &ra[u], sizeof(wa));
        memcpy(wb, &rb[u], sizeof(wb));
#pragma unroll
        for (int k = 0; k < VEC / 2; ++k) wa[k] = cuda::add_pairs<T>(wa[k], wb[k]);
        cuda::store_pairs<T, VEC>(o + i, wa);
      } else {
        float fa[VEC], fb[VEC];
        widen<T, VEC, kSplatA>(ra[u], sa, fa);
        widen<T, VEC, kSplatB>(rb[u], sb, fb);
#pragma unroll
        for (int k = 0; k < VEC; ++k) fa[k] += fb[k];
        cuda::store_f32<T, VEC>(o + i, fa);
      }
    } else {
      for (int64_t j = i; j < inner; ++j) o[j] = from_float<T>(to_float(pa[j * a_inner]) + to_float(pb[j * b_inner]));
    }
  }
}

// The launch bound asks for 4 blocks per SM (64 registers): left alone, ptxas took 114 for fp32, and ncu on the
// H200 showed the row broadcast of 16384^2 at 20 % occupancy (2 blocks per SM). BLOCK: threads per block
// (kRowsBlock in vector_add_cuda.cu, 128 as torch's elementwise kernels; the vector_add_rows sweep times 128,
// 256 and 512), with the same 1024 threads per SM.
template <class T, int VEC, int kUnroll, int kBcast, int BLOCK>
__global__ void __launch_bounds__(BLOCK, 1024 / BLOCK) rows(T* out, const T* a, const T* b, RowsPlan p,
                                                            cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  for (int64_t row = blockIdx.y; row < p.rows; row += gridDim.y) {
    int64_t off[3];
    row_offsets(p, row, off);
    add_row_packs<T, VEC, kUnroll, kBcast, BLOCK>(out + off[0], a + off[1], b + off[2], p.inner, p.a_inner,
                                                  p.b_inner);
  }
}

// One row, neither input broadcast (every contiguous add, whatever its shape): the rows kernel's body without
// the row loop and the RowsPlan. tests/bench/sweeps/vector_add_params.cu (H200, run dw, one 16-byte pack a thread,
// the same grid): rows 1.35 / 1.55 / 1.75 us at 4096 / 65536 / 131072 fp32 elements, flat 0.95 / 1.31 / 1.44, as
// fast as a kernel without the element-wise tail and as one with 288 unused parameter bytes (run dv), so the cost
// was in rows' body (its loop over rows and their offsets), not in its parameters' size. Prepared ops in one
// process (run dw against du): 1x65536 fp32 1.13-1.18 -> 0.74 us, bf16 1.29 -> 0.71, TileLang's time. row_grid
// (below) on one row, a row step per tensor more, read 0.08-0.12 us slower than flat's time (run dy).
template <class T, int VEC, int kUnroll, int BLOCK>
__global__ void __launch_bounds__(BLOCK, 1024 / BLOCK) flat(T* out, const T* a, const T* b, int64_t n,
                                                            cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  add_row_packs<T, VEC, kUnroll, 0, BLOCK>(out, a, b, n, 1, 1);
}

// Small plans of several rows, or of a broadcast, with at most one outer dim and 65535 rows (a row-vector
// broadcast over contiguous rows, say): one row a blockIdx.y, the rows kernel's body without its loop and the
// RowsPlan; a row's offset is one multiply per tensor. vector_add_params.cu's second table (H200, one 16-byte pack
// a thread): the row broadcast 16x4096 / 64x2048 / 256x2048 fp32 1.54 / 1.75 / 2.55 us through rows, 1.30 / 1.40 /
// 2.37 through row_grid (run dy; bf16 1.45 / 1.55 / 1.93 -> 1.24 / 1.36 / 1.67). Prepared ops in one process: 16
// rows of 4096 fp32 1.47 (run dw) -> 0.81 us (run dy), TileLang 0.74. Large plans of one outer dim run it at two
// packs a thread (create() says why).
struct RowSteps {
  int64_t inner = 0;
  int64_t step[3] = {};  // out, a, b: elements from one row to the next (0 for an input broadcast over rows)
};

template <class T, int VEC, int kUnroll, int kBcast, int BLOCK>
__global__ void __launch_bounds__(BLOCK, 1024 / BLOCK) row_grid(T* out, const T* a, const T* b, RowSteps s,
                                                                cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t row = blockIdx.y;
  add_row_packs<T, VEC, kUnroll, kBcast, BLOCK>(out + row * s.step[0], a + row * s.step[1], b + row * s.step[2],
                                                s.inner, kBcast & 1 ? 0 : 1, kBcast & 2 ? 0 : 1);
}

// Tiled: out is unit-stride along dim i, and an input that is not (a transposed view) is unit-stride
// along another dim j. A TILE x TILE tile of each transposed input is read with threads along j
// (coalesced), staged in shared memory, and read back along i; inputs that run along i (stride 1, or 0
// when broadcast) are read directly. Every other dim is a batch index. This is copy's transpose tile
// with an add in it; the strided kernel read a transposed input one scattered element per thread.
struct TiledPlan {
  int64_t ni = 0, nj = 0;
  int64_t stride_i[3] = {};  // out, a, b along i (out: 1)
  int64_t stride_j[3] = {};  // along j (a transposed input: 1)
  int batch_ndim = 0;
  int64_t batch_shape[kMaxDims] = {};
  int64_t batch_stride[3][kMaxDims] = {};
  int64_t batch_count = 1;
};

// Offsets of batch index bt in out, a and b.
__device__ __forceinline__ void batch_offsets(const TiledPlan& p, int64_t bt, int64_t (&off)[3]) {
  off[0] = off[1] = off[2] = 0;
  for (int d = p.batch_ndim - 1; d >= 0; --d) {
    const int64_t q = bt / p.batch_shape[d], r = bt - q * p.batch_shape[d];
#pragma unroll
    for (int t = 0; t < 3; ++t) off[t] += r * p.batch_stride[t][d];
    bt = q;
  }
}

// Calls body(j0, off) for each tile row j0 and batch index this block owns (grid-stride over y and z), with
// off the batch's offsets in out, a and b.
template <int TJ, class Body>
__device__ __forceinline__ void for_each_tile(const TiledPlan& p, Body&& body) {
  for (int64_t bj = blockIdx.y; bj * TJ < p.nj; bj += gridDim.y)
    for (int64_t bt = blockIdx.z; bt < p.batch_count; bt += gridDim.z) {
      int64_t off[3];
      batch_offsets(p, bt, off);
      body(bj * TJ, off);
    }
}

// 1024 threads per SM (64 registers each): room for both inputs' values without spilling.
template <class T, int TILE, int ROWS, bool kTA, bool kTB>
__global__ void __launch_bounds__(TILE * ROWS, 1024 / (TILE * ROWS))
    tiled(T* out, const T* a, const T* b, TiledPlan p, cuda::Trigger trigger) {  // out may be a or b
  cuda::pdl_prologue(trigger);
  __shared__ float ta[kTA ? TILE : 1][TILE + 1];  // +1: the read back along i is conflict-free
  __shared__ float tb[kTB ? TILE : 1][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t i0 = int64_t(blockIdx.x) * TILE;
  for_each_tile<TILE>(p, [&](const int64_t j0, const int64_t (&off)[3]) {
    // Every global load of the tile is issued before any value is used, the direct input's too: read
    // after the barrier (the first version), it waited out a second memory latency per tile and the
    // transposed-4096^2 fp32 case ran at 2.49 TB/s (H200, run k). Transposed inputs are read with threads
    // along j (coalesced), direct ones with threads along i.
    //
    // Row r = ty + k * ROWS of the tile: a transposed input's element (i0 + r, j0 + tx), a direct one's
    // (i0 + tx, j0 + r); each is one pointer step of ROWS rows from the thread's first element (64-bit
    // index math per load took 112 registers and spilled under the launch bound).
    const int ni = int(p.ni - i0 < TILE ? p.ni - i0 : TILE), nj = int(p.nj - j0 < TILE ? p.nj - j0 : TILE);
    const T* pa = kTA ? a + off[1] + (i0 + ty) * p.stride_i[1] + (j0 + tx)
                      : a + off[1] + (i0 + tx) * p.stride_i[1] + (j0 + ty) * p.stride_j[1];
    const T* pb = kTB ? b + off[2] + (i0 + ty) * p.stride_i[2] + (j0 + tx)
                      : b + off[2] + (i0 + tx) * p.stride_i[2] + (j0 + ty) * p.stride_j[2];
    const int64_t step_a = ROWS * (kTA ? p.stride_i[1] : p.stride_j[1]);
    const int64_t step_b = ROWS * (kTB ? p.stride_i[2] : p.stride_j[2]);
    float va[TILE / ROWS], vb[TILE / ROWS];
#pragma unroll
    for (int k = 0; k < TILE / ROWS; ++k) {
      const int r = ty + k * ROWS;
      const bool t_in = r < ni && tx < nj, d_in = tx < ni && r < nj;
      va[k] = (kTA ? t_in : d_in) ? to_float(pa[k * step_a]) : 0.f;
      vb[k] = (kTB ? t_in : d_in) ? to_float(pb[k * step_b]) : 0.f;
    }
    if constexpr (kTA || kTB) {
#pragma unroll
      for (int k = 0; k < TILE / ROWS; ++k) {
        if constexpr (kTA) ta[ty + k * ROWS][tx] = va[k];
        if constexpr (kTB) tb[ty + k * ROWS][tx] = vb[k];
      }
      __syncthreads();
    }
    // Threads along i: the staged tiles read back transposed, out written coalesced.
#pragma unroll
    for (int k = 0; k < TILE / ROWS; ++k) {
      const int r = ty + k * ROWS;
      const int64_t i = i0 + tx, j = j0 + r;
      if (i < p.ni && j < p.nj) {
        const float x = kTA ? ta[tx][r] : va[k];
        const float y = kTB ? tb[tx][r] : vb[k];
        out[off[0] + j * p.stride_j[0] + i] = from_float<T>(x + y);
      }
    }
    if constexpr (kTA || kTB) __syncthreads();
  });
}

template <class T, class E>
__device__ __forceinline__ T from_bits(E e) {
  static_assert(sizeof(T) == sizeof(E), "bits of one element");
  T t;
  memcpy(&t, &e, sizeof(T));
  return t;
}

// x + y for two words of two elements each, added in fp32 and narrowed back.
template <class T>
__device__ __forceinline__ typename cuda::PairWord<cuda::BitsOf<T>>::type add_pair(
    typename cuda::PairWord<cuda::BitsOf<T>>::type x, typename cuda::PairWord<cuda::BitsOf<T>>::type y) {
  using PW = cuda::PairWord<cuda::BitsOf<T>>;
  const float lo = to_float(from_bits<T>(PW::first(x))) + to_float(from_bits<T>(PW::first(y)));
  const float hi = to_float(from_bits<T>(PW::second(x))) + to_float(from_bits<T>(PW::second(y)));
  if constexpr (sizeof(T) == 2) return cuda::narrow_pair<T>(lo, hi);
  else return PW::join(float_to_bits(lo), float_to_bits(hi));
}

// Tiled in words of two: the tiled kernel's plan with copy's transpose_pairs inside. A transposed input is
// read as words of two adjacent j from two adjacent rows i, swapped in registers (a 2x2 transpose) and
// staged as words of two adjacent i; a direct input is read as words of two adjacent i, as out is written.
// Every access moves 8 bytes (fp32) or 4 (16-bit) where the tiled kernel moved one element; copy's fp32
// transpose went from 3.66 to 4.16 TB/s with the same step (run bw). Tiles of TI x 64 elements, 8 rows of
// 32 threads; the launch bound allows 2 blocks an SM (about 100 registers): at 4 blocks (64 registers)
// ptxas spilled 12-300 bytes in every tile shape tried. Shared word (j, w) sits at column swizzled_word(j, w),
// which keeps the staging stores and the row reads free of bank conflicts (core/pair_word.cuh says why).
// Needs every stride that steps between words even, a direct input unit-stride along i, and the pointers
// aligned to a word (create() checks the strides, execute() the pointers); tiles cut by the tensor's edge
// go element by element.
template <class T, int TI, int ROWS, bool kTA, bool kTB>
__global__ void __launch_bounds__(32 * ROWS, 2)
    tiled_pairs(T* out, const T* a, const T* b, TiledPlan p, cuda::Trigger trigger) {  // out may be a or b
  cuda::pdl_prologue(trigger);
  using E = cuda::BitsOf<T>;
  using PW = cuda::PairWord<E>;
  using W = typename PW::type;
  constexpr int TJ = 64, kThreads = 32 * ROWS, kWords = TI / 2;  // words along i in a tile row of out
  constexpr int kPairs = kWords / ROWS;           // row pairs of a transposed input each thread loads
  constexpr int kRowsPerStep = kThreads / kWords;  // rows j a step of the block writes
  constexpr int kSteps = TJ / kRowsPerStep;        // words of out (and of a direct input) each thread moves
  static_assert(kWords % ROWS == 0 && kThreads % kWords == 0, "whole row pairs and whole rows per step");
  constexpr bool kT[2] = {kTA, kTB};
  __shared__ W ta[kTA ? TJ : 1][kWords];  // [j][word along i] of each transposed input
  __shared__ W tb[kTB ? TJ : 1][kWords];
  W(*const tile[2])[kWords] = {ta, tb};
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  const int c = tid % kWords, jr = tid / kWords;  // the out word this thread writes, and its first row
  const int64_t i0 = int64_t(blockIdx.x) * TI;
  for_each_tile<TJ>(p, [&](const int64_t j0, const int64_t (&off)[3]) {
    const T* in[2] = {a + off[1], b + off[2]};
    const bool whole = i0 + TI <= p.ni && j0 + TJ <= p.nj;
    W direct[2][kSteps];
    if (whole) {
      // Every load of the tile before any store (the tiled kernel's lesson, run k).
      W w[2][kPairs][2];
#pragma unroll
      for (int t = 0; t < 2; ++t) {
        if (kT[t]) {
          const T* s = in[t] + (i0 + 2 * ty) * p.stride_i[t + 1] + j0 + 2 * tx;
#pragma unroll
          for (int k = 0; k < kPairs; ++k, s += 2 * ROWS * p.stride_i[t + 1]) {
            w[t][k][0] = *reinterpret_cast<const W*>(s);
            w[t][k][1] = *reinterpret_cast<const W*>(s + p.stride_i[t + 1]);
          }
        } else {
          const T* s = in[t] + (j0 + jr) * p.stride_j[t + 1] + i0 + 2 * c;
#pragma unroll
          for (int k = 0; k < kSteps; ++k, s += kRowsPerStep * p.stride_j[t + 1])
            direct[t][k] = *reinterpret_cast<const W*>(s);
        }
      }
#pragma unroll
      for (int t = 0; t < 2; ++t) {
        if (!kT[t]) continue;
#pragma unroll
        for (int k = 0; k < kPairs; ++k) {
          const int wa = ty + k * ROWS;
          tile[t][2 * tx][swizzled_word(2 * tx, wa)] = PW::firsts(w[t][k][0], w[t][k][1]);          // j even
          tile[t][2 * tx + 1][swizzled_word(2 * tx + 1, wa)] = PW::seconds(w[t][k][0], w[t][k][1]);  // j odd
        }
      }
    } else {
#pragma unroll
      for (int t = 0; t < 2; ++t) {
        if (!kT[t]) continue;
        for (int e = tid; e < TI * TJ; e += kThreads) {
          const int r = e / TJ, cc = e % TJ;  // consecutive threads along j: coalesced reads
          if (i0 + r < p.ni && j0 + cc < p.nj)
            reinterpret_cast<E*>(&tile[t][cc][swizzled_word(cc, r >> 1)])[r & 1] =
                *reinterpret_cast<const E*>(&in[t][(i0 + r) * p.stride_i[t + 1] + j0 + cc]);
        }
      }
    }
    if constexpr (kTA || kTB) __syncthreads();
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      const int j = jr + k * kRowsPerStep;
      T* o = out + off[0] + (j0 + j) * p.stride_j[0] + i0 + 2 * c;
      if (whole) {
        const W x = kTA ? tile[0][j][swizzled_word(j, c)] : direct[0][k];
        const W y = kTB ? tile[1][j][swizzled_word(j, c)] : direct[1][k];
        *reinterpret_cast<W*>(o) = add_pair<T>(x, y);
      } else if (j0 + j < p.nj) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int64_t i = i0 + 2 * c + h;
          if (i >= p.ni) continue;
          float v[2];
#pragma unroll
          for (int t = 0; t < 2; ++t) {
            if (kT[t]) {
              const W sw = tile[t][j][swizzled_word(j, c)];
              v[t] = to_float(from_bits<T>(h ? PW::second(sw) : PW::first(sw)));
            } else {
              v[t] = to_float(in[t][i * p.stride_i[t + 1] + (j0 + j) * p.stride_j[t + 1]]);
            }
          }
          o[h] = from_float<T>(v[0] + v[1]);
        }
      }
    }
    if constexpr (kTA || kTB) __syncthreads();
  });
}

// Any layout: each thread maps a linear index (out's memory order) to three offsets.
template <class T>
__global__ void strided(T* out, const T* a, const T* b, Nest<3> n, int64_t numel, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < numel; idx += step) {
    int64_t rest = idx, o = 0, sa = 0, sb = 0;
    for (int d = n.ndim - 1; d >= 0; --d) {
      const int64_t q = rest / n.shape[d], r = rest - q * n.shape[d];
      o += r * n.strides[0][d];
      sa += r * n.strides[1][d];
      sb += r * n.strides[2][d];
      rest = q;
    }
    out[o] = from_float<T>(to_float(a[sa]) + to_float(b[sb]));
  }
}

}  // namespace ort::vector_add_kernels
