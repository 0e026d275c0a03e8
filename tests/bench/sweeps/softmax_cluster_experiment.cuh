#pragma once
// EXPERIMENTS, not used by the library: softmax rows split across a thread-block cluster (Hopper), the
// way QuACK does it, holding the row in registers (cluster_registers) or in shared memory (cluster_smem).
// tests/bench/sweeps/softmax_configs.cu times them beside the library's kernels; see docs/perf-notes.md
// for what they measured and why the library does not dispatch them (yet).
#include <cooperative_groups.h>

#include "ops/softmax/nvidia/softmax_cluster.cuh"

namespace ort::softmax_experiments {

using softmax_kernels::RowSlice;
using softmax_kernels::row_offsets;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Combines one value per CTA of the cluster: lane q of warp 0 reads CTA q's value (one remote read per
// CTA, not one per thread), warp 0 reduces in a fixed order, and every thread gets the result.
template <class Op>
__device__ __forceinline__ float cluster_combine(cooperative_groups::cluster_group& cluster, float* value, Op op,
                                                 float* smem) {
  if (threadIdx.x < 32) {
    float v = threadIdx.x < cluster.num_blocks() ? *cluster.map_shared_rank(value, threadIdx.x) : op.identity();
    v = op.template warp<32>(v);
    if (threadIdx.x == 0) smem[32] = v;
  }
  __syncthreads();
  return smem[32];
}
#endif

// A row too long for one block's registers, split across a thread-block cluster (Hopper): CTA `rank`
// of the CLUSTER CTAs holds elements [rank * TPR * NP * VEC, ...) in registers, so the row is still
// read from HBM once. The CTAs combine their partial max and sum through distributed shared memory
// (cluster_combine: a fixed order, so results are deterministic).
template <class T, int VEC, int TPR, int NP, int CLUSTER>
__global__ void __launch_bounds__(TPR) cluster_registers(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float smem[33];
  __shared__ float partial[2];  // this CTA's max and sum, read by the whole cluster
  const int rank = int(cluster.block_rank());
  const int64_t row = blockIdx.x / CLUSTER;
  int64_t out_off, x_off;
  row_offsets(r.outer, row, &out_off, &x_off);
  const int64_t first = (int64_t(rank) * TPR * NP + threadIdx.x) * VEC;
  RowSlice<T, VEC, TPR, NP> slice;
  slice.valid = int(r.length - first);
  const float local_max = cuda::group_reduce<TPR>(slice.load(x + x_off + first), cuda::MaxOp{}, smem);
  if (threadIdx.x == 0) partial[0] = local_max;
  cluster.sync();
  const float m = cluster_combine(cluster, &partial[0], cuda::MaxOp{}, smem);
  const float local_sum = cuda::group_reduce<TPR>(slice.exp_sum(m), cuda::SumOp{}, smem);
  if (threadIdx.x == 0) partial[1] = local_sum;
  cluster.sync();
  const float s = cluster_combine(cluster, &partial[1], cuda::SumOp{}, smem);
  cluster.sync();  // no CTA may exit (freeing its shared memory) while another still reads it
  slice.store(out + out_off + first, 1.f / s);
#endif
}

// Session-4 hypothesis: cluster_online (the library's long-row kernel) reads each row twice, and its second
// read misses L2 at 256x262144 fp32 (3.0 TB/s at best where one read and one write would reach ~4).
// Here CTA `rank` copies its chunk of the row into shared memory on the way through (HBM -> registers ->
// shared memory, with the running max and sum), the cluster exchanges (max, sum) through DSMEM, and the
// second pass reads shared memory: HBM is read once. A 1 MB fp32 row over 16 CTAs is 64 KB of shared
// memory per CTA (3 CTAs per SM fit in 228 KB), so three clusters' rows are in flight per 16 SMs.
template <class T, int N>
__device__ __forceinline__ void store_pack(T* p, const cuda::Pack<T, N>& pk) {
  using W = typename cuda::WordOf<sizeof(T) * N>::type;
  W w;
  memcpy(&w, &pk, sizeof(W));
  *reinterpret_cast<W*>(p) = w;
}

template <class T, int VEC, int TPR, int CLUSTER>
__global__ void __launch_bounds__(TPR) cluster_smem(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  constexpr int kUnroll = 16 / VEC > 1 ? 16 / VEC : 1, kStep = TPR * VEC;
  extern __shared__ __align__(16) unsigned char chunk_bytes[];
  T* chunk = reinterpret_cast<T*>(chunk_bytes);  // this CTA's part of the row, as T
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float smem[33];
  __shared__ float partial[2];
  const int rank = int(cluster.block_rank());
  int64_t out_off, x_off, begin, end;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  reduce_sum_kernels::split_range<VEC>(r.length, CLUSTER, rank, &begin, &end);
  const T* px = x + x_off + begin;
  const int len = int(end - begin);  // a multiple of VEC: the launcher takes rows of whole packs only
  softmax_kernels::Online acc;
  int i = int(threadIdx.x) * VEC;
  for (; i + (kUnroll - 1) * kStep < len; i += kUnroll * kStep) {
    cuda::Pack<T, VEC> raw[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
    float f[kUnroll * VEC];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      store_pack(chunk + i + u * kStep, raw[u]);
      cuda::unpack(raw[u], *reinterpret_cast<float(*)[VEC]>(f + u * VEC));
    }
    softmax_kernels::add_chunk(acc, f);
  }
  for (; i < len; i += kStep) {
    const cuda::Pack<T, VEC> raw = cuda::load_pack<T, VEC>(px + i);
    store_pack(chunk + i, raw);
    float f[VEC];
    cuda::unpack(raw, f);
    softmax_kernels::add_chunk(acc, f);
  }
  const float m_cta = cuda::group_reduce<TPR>(acc.m, cuda::MaxOp{}, smem);
  const float s_cta = cuda::group_reduce<TPR>(softmax_kernels::rescale(acc.s, acc.m, m_cta), cuda::SumOp{}, smem);
  if (threadIdx.x == 0) {
    partial[0] = m_cta;
    partial[1] = s_cta;
  }
  cluster.sync();  // also orders every thread's shared-memory stores before the second pass reads them
  if (threadIdx.x < 32) {
    const bool has = threadIdx.x < CLUSTER;
    const float mq = has ? *cluster.map_shared_rank(&partial[0], threadIdx.x) : -INFINITY;
    const float sq = has ? *cluster.map_shared_rank(&partial[1], threadIdx.x) : 0.f;
    const float m = cuda::warp_max(mq);
    const float s = cuda::warp_sum(softmax_kernels::rescale(sq, mq, m));
    if (threadIdx.x == 0) {
      smem[0] = m;
      smem[1] = 1.f / s;
    }
  }
  cluster.sync();
  const float m = smem[0], inv = smem[1];
  T* po = out + out_off + begin;
  for (i = int(threadIdx.x) * VEC; i < len; i += kStep) {
    float f[VEC];
    cuda::unpack(cuda::load_pack<T, VEC>(chunk + i), f);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = softmax_kernels::exp_of_difference(f[k], m) * inv;
    cuda::store_f32<T, VEC>(po + i, f);
  }
#endif
}

// Shared memory per CTA for a row: the largest chunk split_range<VEC> gives a CTA.
template <class T, int VEC, int CLUSTER>
size_t cluster_smem_bytes(int64_t length) {
  const int64_t per = ((length + CLUSTER - 1) / CLUSTER + VEC - 1) / VEC * VEC;
  return size_t(per) * sizeof(T);
}

// cudaErrorInvalidValue when the chunk does not fit one CTA's shared memory (or the row is not whole packs).
template <class T, int VEC, int TPR, int CLUSTER>
cudaError_t launch_cluster_smem(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  const size_t bytes = cluster_smem_bytes<T, VEC, CLUSTER>(r.length);
  if (r.length % VEC != 0 || bytes > 227 * 1024) return cudaErrorInvalidValue;
  const auto kernel = cluster_smem<T, VEC, TPR, CLUSTER>;
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
  if (e == cudaSuccess) e = softmax_kernels::allow_cluster_size<CLUSTER>(kernel);
  if (e != cudaSuccess) return e;
  return softmax_kernels::launch_cluster<CLUSTER, TPR>(kernel, r, out, x, st, bytes);
}

template <class T, int VEC, int TPR, int NP, int CLUSTER>
cudaError_t launch_cluster_registers(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  const auto kernel = cluster_registers<T, VEC, TPR, NP, CLUSTER>;
  const cudaError_t e = softmax_kernels::allow_cluster_size<CLUSTER>(kernel);
  return e != cudaSuccess ? e : softmax_kernels::launch_cluster<CLUSTER, TPR>(kernel, r, out, x, st);
}

}  // namespace ort::softmax_experiments
