#pragma once
// softmax kernels. All math is fp32; exp(v - m) is computed as exp2((v - m) * log2e): the subtraction
// comes first because it is exact for the values that matter (those near the max). Scaling by log2e
// first (exp2(v * log2e - m * log2e)) rounds v * log2e, an error of |v| * 2^-24 in the exponent: at
// |v| ~ 9000 that is 5e-4 relative in the result, which the large-magnitude test caught on the H200.
//   registers: the row fits in the registers of TPR threads: HBM is read once and written once.
//   online:    a row too long for registers: one pass keeps a running (max, sum) per thread, the
//              second pass re-reads the row (mostly from L2) and writes.
//   strided:   any layout: one thread per row, the same two passes.
#include <cstdint>

#include "core/cuda_math.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "ops/softmax/softmax.h"

namespace ort::softmax_kernels {

using reduce_sum_kernels::row_offsets;

__device__ __forceinline__ float exp_of_difference(float v, float m) { return cuda::fast_exp2((v - m) * cuda::kLog2e); }

// Running (max, sum of exp(v - max)); merging rescales the smaller-max side.
struct Online {
  float m = -INFINITY;
  float s = 0.f;
  __device__ __forceinline__ void add(float v) {
    if (v > m) {
      s = s * exp_of_difference(m, v) + 1.f;
      m = v;
    } else if (!(v == -INFINITY)) {  // -inf adds 0 (and must not meet m == -inf: exp(nan)); NaN adds NaN
      s += exp_of_difference(v, m);
    }
  }
};

__device__ __forceinline__ float rescale(float s, float m, float m_new) {
  return m == -INFINITY ? 0.f : s * exp_of_difference(m, m_new);
}

// The part of a row one thread holds in registers: NP packs of VEC values, pack p at element
// begin + (p * TPR + lane) * VEC. Values past `length` (or of a row past the last) are masked.
template <class T, int VEC, int TPR, int NP>
struct RowSlice {
  float v[NP][VEC];
  int64_t begin;
  int lane;
  bool live;

  __device__ __forceinline__ bool holds(int p, int64_t length) const {
    return live && begin + (int64_t(p) * TPR + lane) * VEC < length;
  }
  __device__ __forceinline__ int64_t at(int p) const { return begin + (int64_t(p) * TPR + lane) * VEC; }

  // Loads the slice (all NP loads are issued before any value is converted) and returns its max.
  __device__ __forceinline__ float load(const T* row, int64_t length) {
    cuda::Pack<T, VEC> raw[NP];
#pragma unroll
    for (int p = 0; p < NP; ++p)
      if (holds(p, length)) raw[p] = cuda::load_pack<T, VEC>(row + at(p));
    float m = -INFINITY;
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p, length)) {
        cuda::unpack(raw[p], v[p]);
#pragma unroll
        for (int k = 0; k < VEC; ++k) m = fmaxf(m, v[p][k]);
      }
    }
    return m;
  }

  // v <- exp(v - m); returns the slice's sum.
  __device__ __forceinline__ float exp_sum(float m, int64_t length) {
    float s = 0.f;
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p, length)) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
          v[p][k] = exp_of_difference(v[p][k], m);
          s += v[p][k];
        }
      }
    }
    return s;
  }

  __device__ __forceinline__ void store(T* row, int64_t length, float inv) {
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p, length)) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) v[p][k] *= inv;
        cuda::store_f32<T, VEC>(row + at(p), v[p]);
      }
    }
  }
};

template <class T, int VEC, int TPR, int NP>
__global__ void __launch_bounds__(TPR < 256 ? 256 : TPR) registers(T* out, const T* x, RowsOfDim r) {
  constexpr int kBlock = TPR < 256 ? 256 : TPR;
  __shared__ float smem[TPR > 32 ? 32 * (kBlock / TPR) : 1];  // groups of <= 32 reduce by shuffles only
  const int64_t row = int64_t(blockIdx.x) * (kBlock / TPR) + threadIdx.x / TPR;
  int64_t out_off = 0, x_off = 0;
  if (row < r.rows) row_offsets(r.outer, row, &out_off, &x_off);
  RowSlice<T, VEC, TPR, NP> slice{{}, 0, int(threadIdx.x % TPR), row < r.rows};
  const float m = cuda::group_reduce<TPR>(slice.load(x + x_off, r.length), cuda::MaxOp{}, smem);
  const float s = cuda::group_reduce<TPR>(slice.exp_sum(m, r.length), cuda::SumOp{}, smem);
  slice.store(out + out_off, r.length, 1.f / s);
}

// kUnroll packs per thread per step, all loaded before any is used (see cuda::load_pack).
template <class T, int VEC, int TPR>
__global__ void __launch_bounds__(TPR) online(T* out, const T* x, RowsOfDim r) {
  constexpr int kUnroll = 4, kStep = TPR * VEC;
  __shared__ float smem[32];
  int64_t out_off, x_off;
  row_offsets(r.outer, blockIdx.x, &out_off, &x_off);
  const T* px = x + x_off;
  Online acc;
  int64_t i = int64_t(threadIdx.x) * VEC;
  for (; i + (kUnroll - 1) * kStep < r.length; i += kUnroll * kStep) {
    cuda::Pack<T, VEC> raw[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      float f[VEC];
      cuda::unpack(raw[u], f);
#pragma unroll
      for (int k = 0; k < VEC; ++k) acc.add(f[k]);
    }
  }
  for (; i < r.length; i += kStep) {
    float f[VEC];
    cuda::load_f32<T, VEC>(px + i, f);
#pragma unroll
    for (int k = 0; k < VEC; ++k) acc.add(f[k]);
  }
  const float m = cuda::group_reduce<TPR>(acc.m, cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<TPR>(rescale(acc.s, acc.m, m), cuda::SumOp{}, smem);
  T* po = out + out_off;
  auto write = [&](const cuda::Pack<T, VEC>& pk, int64_t at) {
    float f[VEC];
    cuda::unpack(pk, f);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = exp_of_difference(f[k], m) * inv;
    cuda::store_f32<T, VEC>(po + at, f);
  };
  i = int64_t(threadIdx.x) * VEC;
  for (; i + (kUnroll - 1) * kStep < r.length; i += kUnroll * kStep) {
    cuda::Pack<T, VEC> raw[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) write(raw[u], i + u * kStep);
  }
  for (; i < r.length; i += kStep) write(cuda::load_pack<T, VEC>(px + i), i);
}

template <class T>
__global__ void __launch_bounds__(256) strided(T* out, const T* x, RowsOfDim r) {
  const int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= r.rows) return;
  int64_t out_off, x_off;
  row_offsets(r.outer, row, &out_off, &x_off);
  Online acc;
  for (int64_t k = 0; k < r.length; ++k) acc.add(to_float(x[x_off + k * r.x_stride]));
  const float inv = 1.f / acc.s;
  for (int64_t k = 0; k < r.length; ++k)
    out[out_off + k * r.out_stride] =
        from_float<T>(exp_of_difference(to_float(x[x_off + k * r.x_stride]), acc.m) * inv);
}

}  // namespace ort::softmax_kernels
