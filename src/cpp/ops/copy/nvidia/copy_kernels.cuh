#pragma once
// copy kernels: header-only templates over the element (or vector) type, raw pointers and strides.
// The launcher in copy_cuda.cu picks one per descriptor at create time.
#include <cstdint>

#include "core/cuda_launch.cuh"
#include "core/layout.h"
#include "core/pair_word.cuh"

namespace ort::copy_kernels {

using cuda::swizzled_word;

// Contiguous on both sides: a flat grid-stride copy of V-sized words (16 bytes when aligned).
// kUnroll independent loads are issued before the first store so several are in flight per thread;
// the streaming hints (.cs) keep a once-touched tensor from evicting useful L2 lines.
template <class V, int kUnroll>
__global__ void flat(V* __restrict__ out, const V* __restrict__ src, int64_t n, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < n; i += kUnroll * stride) {
    V r[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) r[u] = __ldcs(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) __stcs(out + i + u * stride, r[u]);
  }
  for (; i < n; i += stride) __stcs(out + i, __ldcs(src + i));
}

// Dims of a nest other than the two tile dims, flattened into one batch index.
struct Batch {
  int ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t out_stride[kMaxDims] = {};
  int64_t src_stride[kMaxDims] = {};
  int64_t count = 1;
};

__device__ __forceinline__ void batch_offsets(const Batch& b, int64_t index, int64_t* out_off, int64_t* src_off) {
  int64_t o = 0, s = 0;
  for (int d = b.ndim - 1; d >= 0; --d) {
    const int64_t q = index / b.shape[d], r = index - q * b.shape[d];
    o += r * b.out_stride[d];
    s += r * b.src_stride[d];
    index = q;
  }
  *out_off = o;
  *src_off = s;
}

// A transpose: out is contiguous along dim i, src along dim j. A TILE x TILE tile is read with threads
// running along j (coalesced reads of src), staged in shared memory, and written with threads running
// along i (coalesced writes of out). The +1 column of padding keeps the transposed read conflict-free.
struct TransposePlan {
  int64_t ni = 0, nj = 0;   // extents of the two tile dims
  int64_t out_sj = 0;       // out's stride along j (its stride along i is 1)
  int64_t src_si = 0;       // src's stride along i (its stride along j is 1)
  Batch batch;
};

template <class T, int TILE, int ROWS>
__global__ void __launch_bounds__(TILE * ROWS) transpose(T* __restrict__ out, const T* __restrict__ src,
                                                         TransposePlan p, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ T tile[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t i0 = int64_t(blockIdx.x) * TILE;
  for (int64_t bj = blockIdx.y; bj * TILE < p.nj; bj += gridDim.y) {
    const int64_t j0 = bj * TILE;
    for (int64_t b = blockIdx.z; b < p.batch.count; b += gridDim.z) {
      int64_t ob, sb;
      batch_offsets(p.batch, b, &ob, &sb);
      if (i0 + TILE <= p.ni && j0 + TILE <= p.nj) {
        // A whole tile: all TILE / ROWS loads are issued before the first shared-memory store. In the
        // guarded form below each store waits for its load, so one load is in flight per thread.
        T v[TILE / ROWS];
#pragma unroll
        for (int k = 0; k < TILE / ROWS; ++k) v[k] = src[sb + (i0 + ty + k * ROWS) * p.src_si + j0 + tx];
#pragma unroll
        for (int k = 0; k < TILE / ROWS; ++k) tile[ty + k * ROWS][tx] = v[k];
      } else {
#pragma unroll
        for (int r = ty; r < TILE; r += ROWS) {
          const int64_t i = i0 + r, j = j0 + tx;
          if (i < p.ni && j < p.nj) tile[r][tx] = src[sb + i * p.src_si + j];
        }
      }
      __syncthreads();
#pragma unroll
      for (int r = ty; r < TILE; r += ROWS) {
        const int64_t j = j0 + r, i = i0 + tx;
        if (i < p.ni && j < p.nj) out[ob + j * p.out_sj + i] = tile[tx][r];
      }
      __syncthreads();
    }
  }
}

// 16-bit and 32-bit transposes move words of two elements (4 and 8 bytes): each thread loads a pair of
// adjacent j values from two adjacent rows i, swaps them in registers (a 2x2 transpose) and so holds pairs
// of adjacent i values, which are out's contiguous direction. With 2-byte accesses a thread had 16 loads of
// 2 bytes in flight and the H200 moved 2.69 TB/s; with 4-byte words 16 loads of 4 bytes, as the fp32 tile
// with 4-byte elements, which reached 3.6 TB/s (session 3). The fp32 tile with 8-byte words then took the
// transposed 8192^2 fp32 copy from 146.7 to 129.2 us (3.66 -> 4.16 TB/s; Inductor 135.4) and the 3-d permute
// from 73.7 to 65.5 (H200, run bw, A/B in one build). Shared word (j, a) holds i = 2a and 2a + 1 of
// column j, at column swizzled_word(j, a) (core/pair_word.cuh: no bank conflicts, no padding). Needs out and
// src aligned to a word along the tile (create() checks the strides, execute() the pointers).
// The launch bound asks for 4 blocks per SM: left alone, ptxas took 80 registers and allowed 3.
template <class E, int TI, int TJ, int ROWS>
__global__ void __launch_bounds__(32 * ROWS, 4) transpose_pairs(E* __restrict__ out, const E* __restrict__ src,
                                                             TransposePlan p, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  using W = typename cuda::PairWord<E>::type;
  static_assert(TJ == 64 && TI % (2 * ROWS) == 0, "a warp spans the 32 word columns of one tile row");
  constexpr int kWords = TI / 2;          // words per tile row of out
  constexpr int kPairs = kWords / ROWS;   // row pairs each thread loads
  __shared__ W tile[TJ][kWords];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  const int64_t i0 = int64_t(blockIdx.x) * TI;
  for (int64_t bj = blockIdx.y; bj * TJ < p.nj; bj += gridDim.y) {
    const int64_t j0 = bj * TJ;
    for (int64_t b = blockIdx.z; b < p.batch.count; b += gridDim.z) {
      int64_t ob, sb;
      batch_offsets(p.batch, b, &ob, &sb);
      const bool whole = i0 + TI <= p.ni && j0 + TJ <= p.nj;
      if (whole) {
        W w[kPairs][2];
        const E* s = src + sb + (i0 + 2 * ty) * p.src_si + j0 + 2 * tx;
        const int64_t step = 2 * ROWS * p.src_si;
#pragma unroll
        for (int k = 0; k < kPairs; ++k, s += step) {
          w[k][0] = *reinterpret_cast<const W*>(s);
          w[k][1] = *reinterpret_cast<const W*>(s + p.src_si);
        }
#pragma unroll
        for (int k = 0; k < kPairs; ++k) {
          const int a = ty + k * ROWS;
          tile[2 * tx][swizzled_word(2 * tx, a)] = cuda::PairWord<E>::firsts(w[k][0], w[k][1]);           // j even
          tile[2 * tx + 1][swizzled_word(2 * tx + 1, a)] = cuda::PairWord<E>::seconds(w[k][0], w[k][1]);  // j odd
        }
      } else {
        for (int e = tid; e < TI * TJ; e += 32 * ROWS) {
          const int r = e / TJ, c = e % TJ;  // consecutive threads along j: coalesced reads of src
          if (i0 + r < p.ni && j0 + c < p.nj)
            reinterpret_cast<E*>(&tile[c][swizzled_word(c, r >> 1)])[r & 1] = src[sb + (i0 + r) * p.src_si + j0 + c];
        }
      }
      __syncthreads();
      // Thread tid writes word c = tid % kWords of rows j = tid / kWords + k * kRowsPerStep.
      constexpr int kRowsPerStep = 32 * ROWS / kWords;
      const int c = tid % kWords;
      E* o = out + ob + (j0 + tid / kWords) * p.out_sj + i0 + 2 * c;
#pragma unroll
      for (int k = 0; k < TJ / kRowsPerStep; ++k, o += kRowsPerStep * p.out_sj) {
        const int j = tid / kWords + k * kRowsPerStep;
        const W v = tile[j][swizzled_word(j, c)];
        if (whole) {
          *reinterpret_cast<W*>(o) = v;
        } else if (j0 + j < p.nj) {
          if (i0 + 2 * c < p.ni) o[0] = cuda::PairWord<E>::first(v);
          if (i0 + 2 * c + 1 < p.ni) o[1] = cuda::PairWord<E>::second(v);
        }
      }
      __syncthreads();
    }
  }
}

// Anything else: each thread turns a linear index (in out's memory order) into both offsets.
template <class T>
__global__ void strided(T* __restrict__ out, const T* __restrict__ src, Nest<2> n, int64_t numel,
                        cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < numel; idx += stride) {
    int64_t rest = idx, o = 0, s = 0;
    for (int d = n.ndim - 1; d >= 0; --d) {
      const int64_t q = rest / n.shape[d], r = rest - q * n.shape[d];
      o += r * n.strides[0][d];
      s += r * n.strides[1][d];
      rest = q;
    }
    out[o] = src[s];
  }
}

}  // namespace ort::copy_kernels
