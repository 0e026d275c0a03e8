#pragma once
// cluster_online: a softmax row too long for one block's registers, split across a thread-block cluster
// (Hopper, sm_90+). CTA `rank` of the CLUSTER CTAs streams its chunk of the row twice, like the online
// kernel (statistics, then output), and the CTAs exchange their (max, sum) through distributed shared
// memory in between.
//
// Why: ncu on the H200 (docs/runs/ncu-h200-2026-11-30-h.md) showed the online kernel reading 2.0x the
// tensor at 256x262144 fp32: every row is in flight at once (one CTA per row, 1 MB rows), so a row's
// second pass no longer finds it in L2. A cluster splits each row across CLUSTER SMs, so a row finishes
// CLUSTER times sooner and far fewer bytes wait between the two passes. Measured by
// tests/bench/sweeps/softmax_configs.cu (run k): 16-bit rows of 65536 3.20 vs 2.94 TB/s, of 262144 2.94 vs
// 2.59; fp32 rows of 65536 2.88 vs 2.76. create() in softmax_cuda.cu dispatches it where it won.
#include <cooperative_groups.h>

#include "ops/softmax/nvidia/softmax_kernels.cuh"

namespace ort::softmax_kernels {

template <class T, int VEC, int TPR, int CLUSTER>
__global__ void __launch_bounds__(TPR, (min_blocks<TPR, 16>())) cluster_online(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float smem[33];
  __shared__ float partial[2];  // this CTA's max and sum, read by the whole cluster
  const int rank = int(cluster.block_rank());
  int64_t out_off, x_off, begin, end;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  reduce_sum_kernels::split_range<VEC>(r.length, CLUSTER, rank, &begin, &end);
  const T* px = x + x_off + begin;
  const int len = int(end - begin);  // a chunk is far below 2^31 elements
  const Online acc = stream_statistics<T, VEC, TPR>(px, len);
  const float m_cta = cuda::group_reduce<TPR>(acc.m, cuda::MaxOp{}, smem);
  const float s_cta = cuda::group_reduce<TPR>(rescale(acc.s, acc.m, m_cta), cuda::SumOp{}, smem);
  if (threadIdx.x == 0) {
    partial[0] = m_cta;
    partial[1] = s_cta;
  }
  cluster.sync();
  if (threadIdx.x < 32) {  // lane q reads CTA q's pair: one remote read per CTA, combined in a fixed order
    const bool has = threadIdx.x < CLUSTER;
    const float mq = has ? *cluster.map_shared_rank(&partial[0], threadIdx.x) : -INFINITY;
    const float sq = has ? *cluster.map_shared_rank(&partial[1], threadIdx.x) : 0.f;
    const float m = cuda::warp_max(mq);
    const float s = cuda::warp_sum(rescale(sq, mq, m));
    if (threadIdx.x == 0) {
      smem[0] = m;
      smem[1] = 1.f / s;
    }
  }
  cluster.sync();  // every CTA has read the others' partials: no CTA may exit (freeing them) before
  stream_write<T, VEC, TPR>(out + out_off + begin, px, len, smem[0], smem[1]);
#endif
}

// Clusters above 8 CTAs are "non-portable" (H100/H200 run up to 16): each kernel must allow them once per
// device before its first launch. The library does it in create() (cluster_fits), not on every execute().
template <int CLUSTER, class Kernel>
cudaError_t allow_cluster_size(Kernel kernel) {
  if constexpr (CLUSTER > 8) return cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  return cudaSuccess;
}

// Launches `kernel` on a grid of rows x CLUSTER CTAs in clusters of CLUSTER (allow_cluster_size first for
// clusters above 8).
template <int CLUSTER, int TPR, class Kernel, class T>
cudaError_t launch_cluster(Kernel kernel, const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
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

template <class T, int VEC, int TPR, int CLUSTER>
cudaError_t launch_cluster_online(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  return launch_cluster<CLUSTER, TPR>(cluster_online<T, VEC, TPR, CLUSTER>, r, out, x, st);
}

}  // namespace ort::softmax_kernels
