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

// Two running (max, sum) pairs as one; the smaller-max side is rescaled. a + b == b + a in floating point, so
// both lanes of a butterfly get the same pair and every CTA of a cluster combines to the same result.
__device__ __forceinline__ Online merge(const Online& a, const Online& b) {
  Online c;
  c.m = fmaxf(a.m, b.m);
  c.s = rescale(a.s, a.m, c.m) + rescale(b.s, b.m, c.m);
  return c;
}

__device__ __forceinline__ Online warp_merge(Online acc) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    Online other;
    other.m = __shfl_xor_sync(0xffffffffu, acc.m, o);
    other.s = __shfl_xor_sync(0xffffffffu, acc.s, o);
    acc = merge(acc, other);
  }
  return acc;
}

// cluster_registers: a row split across CLUSTER CTAs of TPR threads that each hold NP packs in registers,
// so the row is read from HBM once (cluster_online reads its chunk twice, the second time from L2).
// Each thread takes exp(v - its own max) before anything is exchanged, so the CTAs trade one (max, sum)
// pair once, and the output is v times one factor a thread, exp(own max - row max) / row sum.
// Session 11: ncu had cluster_online at 58-65 % of DRAM bandwidth, waiting between phases (load, reduce,
// cluster barrier, reload); session 2's version of this kernel exchanged the max and the sum separately
// (three cluster barriers) and ran without launch bounds (one or two CTAs an SM), and lost everywhere.
// Exchange: each CTA writes its pair into slot `rank` of every CTA's `every` (remote stores), then one
// cluster barrier; afterwards each CTA reads only its own shared memory, so no CTA waits for the others to
// finish reading before it exits. The arrive at the start and the wait before the remote stores make sure
// every CTA of the cluster is running before its shared memory is written.
// MIN_BLOCKS: resident CTAs an SM that the launch bounds ask for (the registers kernel's rule by default).
template <class T, int VEC, int TPR, int NP, int CLUSTER, bool FULL = false, int MIN_BLOCKS = min_blocks<TPR, NP * VEC>()>
__global__ void __launch_bounds__(TPR, MIN_BLOCKS)
    cluster_registers(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(TPR % 32 == 0 && CLUSTER <= 32, "whole warps; one lane per CTA of the cluster");
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  cluster.barrier_arrive();
  constexpr int kWarps = TPR / 32;
  __shared__ Online warps[kWarps];
  __shared__ Online every[CLUSTER];  // slot q: CTA q's (max, sum), stored there by CTA q
  const int rank = int(cluster.block_rank()), lane = int(threadIdx.x % 32);
  int64_t out_off, x_off;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  const int first = (rank * TPR * NP + int(threadIdx.x)) * VEC;  // cluster rows are < 2^31 elements
  RowSlice<T, VEC, TPR, NP, FULL> slice;
  slice.valid = int(r.length) - first;
  Online own;
  own.m = slice.load(x + x_off + first);
  // A thread whose values are all -inf (or that holds none) takes exps against 0: they are 0, and so is its sum.
  own.s = slice.exp_sum(own.m == -INFINITY ? 0.f : own.m);
  const Online in_warp = warp_merge(own);
  if (lane == 0) warps[threadIdx.x / 32] = in_warp;
  __syncthreads();
  cluster.barrier_wait();
  if (threadIdx.x < 32) {
    Online cta;
    if (lane < kWarps) cta = warps[lane];
    cta = warp_merge(cta);
    if (lane < CLUSTER) *cluster.map_shared_rank(&every[rank], lane) = cta;
  }
  cluster.sync();
  Online row = every[0];
#pragma unroll
  for (int q = 1; q < CLUSTER; ++q) row = merge(row, every[q]);
  // A thread of -inf values scales its zeros by 0 * (1 / sum): 0, or NaN where the whole row is -inf (torch's 0/0).
  const float inv = 1.f / row.s;
  slice.store(out + out_off + first, own.m == -INFINITY ? 0.f * inv : exp_of_difference(own.m, row.m) * inv);
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
