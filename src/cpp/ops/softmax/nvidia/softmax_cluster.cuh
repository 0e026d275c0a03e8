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
#include <cuda/ptx>

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

// The (max, sum) of a warp's pairs: the max first, then each lane's sum rescaled to it once and summed (one
// exp a lane; a butterfly of pairwise merges took ten). Every lane gets the same pair: each butterfly step
// adds the same two values on both lanes, and a + b == b + a.
__device__ __forceinline__ Online warp_combine(const Online& own) {
  Online w;
  w.m = cuda::warp_max(own.m);
  w.s = cuda::warp_sum(rescale(own.s, own.m, w.m));
  return w;
}

// The row's (max, sum) from the pairs of one thread, through its block and its cluster: every thread gets
// it. `warps` holds TPR / 32 pairs; `every` CLUSTER pairs, slot q written by CTA q. Each CTA's warp 0 stores
// the CTA's pair into slot `rank` of every CTA (remote stores), then one cluster barrier; after it each CTA
// reads only its own shared memory, so no CTA has to wait for the others to finish reading before it exits.
// The caller has arrived on the cluster barrier at its start (barrier_cluster_arrive, relaxed): the wait here
// makes sure every CTA of the cluster runs before its shared memory is written.
template <int TPR, int CLUSTER>
__device__ __forceinline__ Online cluster_combine(const Online& own, Online* warps, Online* every) {
  static_assert(TPR % 32 == 0 && TPR <= 1024 && CLUSTER <= 32, "whole warps; one lane per CTA of the cluster");
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const int lane = int(threadIdx.x % 32);
  const Online in_warp = warp_combine(own);
  if (lane == 0) warps[threadIdx.x / 32] = in_warp;
  __syncthreads();
  ::cuda::ptx::barrier_cluster_wait();
  if (threadIdx.x < 32) {
    Online w;
    if (lane < TPR / 32) w = warps[lane];
    const Online cta = warp_combine(w);
    if (lane < CLUSTER) *cluster.map_shared_rank(&every[cluster.block_rank()], lane) = cta;
  }
  cluster.sync();
  Online q;
  if (lane < CLUSTER) q = every[lane];
  return warp_combine(q);  // the same lanes in the same order in every CTA: every CTA gets the same pair
}

// cluster_registers: a row split across CLUSTER CTAs of TPR threads that each hold NP packs in registers,
// so the row is read from HBM once (cluster_online reads its chunk twice, the second time from L2).
// Each thread takes exp(v - its own max) before anything is exchanged, so the CTAs trade one (max, sum)
// pair once, and the output is v times one factor a thread, exp(own max - row max) / row sum.
// Session 11: ncu had cluster_online at 58-65 % of DRAM bandwidth, waiting between phases (load, reduce,
// cluster barrier, reload); session 2's version of this kernel exchanged the max and the sum separately
// (three cluster barriers) and ran without launch bounds, and lost everywhere.
template <class T, int VEC, int TPR, int NP, int CLUSTER, bool FULL = false, int MIN_BLOCKS = min_blocks<TPR, NP * VEC>()>
__global__ void __launch_bounds__(TPR, MIN_BLOCKS)
    cluster_registers(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  ::cuda::ptx::barrier_cluster_arrive(::cuda::ptx::sem_relaxed);  // waited on in cluster_combine
  __shared__ Online warps[TPR / 32], every[CLUSTER];
  const int rank = int(cooperative_groups::this_cluster().block_rank());
  int64_t out_off, x_off;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  const int first = (rank * TPR * NP + int(threadIdx.x)) * VEC;  // cluster rows are < 2^31 elements
  RowSlice<T, VEC, TPR, NP, FULL> slice;
  slice.valid = int(r.length) - first;
  Online own;
  own.m = slice.load(x + x_off + first);
  // A thread whose values are all -inf (or that holds none) takes exps against 0: they are 0, and so is its sum.
  own.s = slice.exp_sum(own.m == -INFINITY ? 0.f : own.m);
  const Online row = cluster_combine<TPR, CLUSTER>(own, warps, every);
  // A thread of -inf values scales its zeros by 0 * (1 / sum): 0, or NaN where the whole row is -inf (torch's 0/0).
  const float inv = 1.f / row.s;
  slice.store(out + out_off + first, own.m == -INFINITY ? 0.f * inv : exp_of_difference(own.m, row.m) * inv);
#endif
}

// cluster_bulk: a row split across CLUSTER CTAs that each copy their part (length / CLUSTER elements, whole
// 16-byte packs) into shared memory with one bulk copy (Hopper's TMA engine, cp.async.bulk), then read it
// there twice: statistics, then output. The whole part is in flight at once and holds no registers while
// it is, so an SM keeps as many parts in flight as its shared memory holds (7 of 32 KB), where
// cluster_registers keeps what its registers hold (2-4 CTAs) and cluster_online 16 values a thread.
// Session 11: cluster_registers reached 3.8 TB/s on fp32 rows but not on 16-bit rows, whose CTAs hold twice
// the elements (and issue twice the instructions) for the same bytes. The launcher passes the part's bytes
// as dynamic shared memory.
template <class T, int VEC, int TPR, int CLUSTER>
__global__ void __launch_bounds__(TPR, (min_blocks<TPR, 16>())) cluster_bulk(T* out, const T* x, RowsOfDim r) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace ptx = ::cuda::ptx;
  ptx::barrier_cluster_arrive(ptx::sem_relaxed);  // waited on in cluster_combine
  extern __shared__ __align__(16) unsigned char part_bytes[];
  const auto* part = reinterpret_cast<const cuda::Pack<T, VEC>*>(part_bytes);
  __shared__ uint64_t loaded;  // mbarrier: completes when the bulk copy's bytes have landed
  __shared__ Online warps[TPR / 32], every[CLUSTER];
  const int rank = int(cooperative_groups::this_cluster().block_rank());
  const int packs = int(r.length / (CLUSTER * VEC));  // the launcher takes rows of CLUSTER whole parts only
  int64_t out_off, x_off;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  const int64_t begin = int64_t(rank) * packs * VEC;
  if (threadIdx.x == 0) {
    const uint32_t bytes = uint32_t(packs) * 16u;
    ptx::mbarrier_init(&loaded, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the copy engine sees the barrier
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &loaded, bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, part_bytes, x + x_off + begin, bytes, &loaded);
  }
  __syncthreads();  // nobody waits on `loaded` before it is initialised
  while (!ptx::mbarrier_try_wait_parity(&loaded, 0)) {
  }
  Online own;
#pragma unroll 4
  for (int p = int(threadIdx.x); p < packs; p += TPR) {
    float f[VEC];
    cuda::unpack(part[p], f);
    add_chunk(own, f);
  }
  const Online row = cluster_combine<TPR, CLUSTER>(own, warps, every);
  const float inv = 1.f / row.s;
  T* po = out + out_off + begin;
#pragma unroll 4
  for (int p = int(threadIdx.x); p < packs; p += TPR) {
    float f[VEC];
    cuda::unpack(part[p], f);
#pragma unroll
    for (int k = 0; k < VEC; ++k) f[k] = exp_of_difference(f[k], row.m) * inv;
    cuda::store_f32<T, VEC>(po + int64_t(p) * VEC, f);
  }
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
cudaError_t launch_cluster(Kernel kernel, const RowsOfDim& r, T* out, const T* x, cudaStream_t st,
                           size_t shared_bytes = 0) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(unsigned(r.rows * CLUSTER));
  cfg.blockDim = dim3(TPR);
  cfg.dynamicSmemBytes = shared_bytes;
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
