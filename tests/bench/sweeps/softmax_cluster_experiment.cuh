#pragma once
// EXPERIMENT, not used by the library: softmax rows split across a thread-block cluster (Hopper), the
// way QuACK does it. tests/bench/sweeps/softmax_configs.cu times it beside the library's kernels; see
// docs/perf-notes.md for what it measured and why the library does not dispatch it (yet).
#include <cooperative_groups.h>

#include "ops/softmax/nvidia/softmax_kernels.cuh"

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

// Session-3 hypothesis (ncu): the online kernel's long rows read HBM twice because every row is in
// flight at once (256 rows of 1 MB at 256x262144 fp32, L2 hit 34 %). Here each row is split across a
// cluster: CTA `rank` streams its chunk twice (statistics, then output), and the CTAs exchange (max, sum)
// through distributed shared memory in between. The bytes in flight are then one chunk per resident CTA
// (about 264 x 128 KB = 33 MB at 256x262144 fp32 in clusters of 8), which L2 can hold, so the second pass
// should come from L2. Unlike cluster_registers, nothing is held in registers: 16 values a step and 32
// registers a thread keep every warp slot busy.
template <class T, int VEC, int TPR, int CLUSTER>
__global__ void __launch_bounds__(TPR, (softmax_kernels::min_blocks<TPR, 16>())) cluster_online(T* out, const T* x,
                                                                                             RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  constexpr int kUnroll = 16 / VEC, kStep = TPR * VEC;
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float smem[33];
  __shared__ float partial[2];  // this CTA's max and sum, read by the whole cluster
  const int rank = int(cluster.block_rank());
  int64_t out_off, x_off, begin, end;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  reduce_sum_kernels::split_range<VEC>(r.length, CLUSTER, rank, &begin, &end);
  // 32-bit indices within the chunk (a chunk is far below 2^31 elements): 64-bit ones cost the registers
  // that made this kernel spill at 32.
  const T* px = x + x_off + begin;
  const int len = int(end - begin);
  softmax_kernels::Online acc;
  int i = int(threadIdx.x) * VEC;
  for (; i + (kUnroll - 1) * kStep < len; i += kUnroll * kStep) {
    cuda::Pack<T, VEC> raw[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
    float f[kUnroll * VEC];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) cuda::unpack(raw[u], *reinterpret_cast<float(*)[VEC]>(f + u * VEC));
    softmax_kernels::add_chunk(acc, f);
  }
  for (; i < len; i += kStep) {
    float f[VEC];
    cuda::load_f32<T, VEC>(px + i, f);
    softmax_kernels::add_chunk(acc, f);
  }
  const float m_cta = cuda::group_reduce<TPR>(acc.m, cuda::MaxOp{}, smem);
  const float s_cta = cuda::group_reduce<TPR>(softmax_kernels::rescale(acc.s, acc.m, m_cta), cuda::SumOp{}, smem);
  if (threadIdx.x == 0) {
    partial[0] = m_cta;
    partial[1] = s_cta;
  }
  cluster.sync();
  if (threadIdx.x < 32) {  // lane q reads CTA q's pair: one remote read per CTA
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
  cluster.sync();  // every CTA has read the others' partials: shared memory may be reused or freed
  const float m = smem[0], inv = smem[1];
  T* po = out + out_off + begin;
  auto write = [&](const cuda::Pack<T, VEC>& pk, int at) {
    float f[VEC];
    cuda::unpack(pk, f);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = softmax_kernels::exp_of_difference(f[k], m) * inv;
    cuda::store_f32<T, VEC>(po + at, f);
  };
  i = int(threadIdx.x) * VEC;
  for (; i + (kUnroll - 1) * kStep < len; i += kUnroll * kStep) {
    cuda::Pack<T, VEC> raw[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) write(raw[u], i + u * kStep);
  }
  for (; i < len; i += kStep) write(cuda::load_pack<T, VEC>(px + i), i);
#endif
}

// Launches a cluster kernel: a grid of rows x CLUSTER CTAs in clusters of CLUSTER. Sizes above 8 are
// "non-portable" and must be allowed per kernel first; H100/H200 run clusters of up to 16.
template <int CLUSTER, int TPR, class Kernel, class T>
cudaError_t launch_cluster(Kernel kernel, const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  if constexpr (CLUSTER > 8) {
    const cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (e != cudaSuccess) return e;
  }
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(unsigned(r.rows * CLUSTER));
  cfg.blockDim = dim3(TPR);
  cfg.stream = st;
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = CLUSTER;
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, kernel, out, x, r);
}

template <class T, int VEC, int TPR, int NP, int CLUSTER>
cudaError_t launch_cluster_registers(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  return launch_cluster<CLUSTER, TPR>(cluster_registers<T, VEC, TPR, NP, CLUSTER>, r, out, x, st);
}

template <class T, int VEC, int TPR, int CLUSTER>
cudaError_t launch_cluster_online(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  return launch_cluster<CLUSTER, TPR>(cluster_online<T, VEC, TPR, CLUSTER>, r, out, x, st);
}

}  // namespace ort::softmax_experiments
