#pragma once
// copy kernels: header-only templates over the element (or vector) type, raw pointers and strides.
// The launcher in copy_cuda.cu picks one per descriptor at create time.
#include <cstdint>

#include "core/layout.h"

namespace ort::copy_kernels {

// Contiguous on both sides: a flat grid-stride copy of V-sized words (16 bytes when aligned).
// kUnroll independent loads are issued before the first store so several are in flight per thread;
// the streaming hints (.cs) keep a once-touched tensor from evicting useful L2 lines.
template <class V, int kUnroll>
__global__ void flat(V* __restrict__ out, const V* __restrict__ src, int64_t n) {
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
                                                         TransposePlan p) {
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

// Anything else: each thread turns a linear index (in out's memory order) into both offsets.
template <class T>
__global__ void strided(T* __restrict__ out, const T* __restrict__ src, Nest<2> n, int64_t numel) {
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
