#pragma once
// Softmax rows too long for one block's registers, split across a thread-block cluster (Hopper, sm_90+):
// the CTAs of a cluster each take a part of the row and trade (max, sum) through distributed shared memory.
//   cluster_online:    each CTA streams its part twice (statistics, then output; the second read mostly
//                      from L2). Rows of 65536-262144 where the kernels below do not fit.
//   cluster_registers: each CTA holds its part in registers, so the row is read from HBM once, and the
//                      cluster trades one (max, sum) pair. fp32 rows of 16385-262144 (session 11) where
//                      cluster_smem_held does not fit, since session 35.
//   cluster_smem_held: each CTA holds its part as raw packs in shared memory (up to 72 KB a CTA, three an SM;
//                      past 72 KB up to 112 KB, two an SM), so the row is read from HBM once. 16-bit rows of
//                      32769-917504 in 2, 4, 8 or 16 CTAs (sessions 29-34), fp32 rows of 16385-458752 in 4, 8 or
//                      16 (sessions 34-35); CTAs by softmax_smem_held_table.cuh.
//
// Why clusters: ncu on the H200 (docs/runs/ncu-h200-2026-11-30-h.md) showed the online kernel reading 2.0x the
// tensor at 256x262144 fp32: every row is in flight at once (one CTA per row, 1 MB rows), so a row's
// second pass no longer finds it in L2. A cluster splits each row across CLUSTER SMs, so a row finishes
// CLUSTER times sooner and far fewer bytes wait between the two passes. Measured by
// tests/bench/sweeps/softmax_configs.cu (run k): 16-bit rows of 65536 3.20 vs 2.94 TB/s, of 262144 2.94 vs
// 2.59; fp32 rows of 65536 2.88 vs 2.76. create() in softmax_cuda.cu dispatches each where it won.
#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cuda_pipeline.h>

#include "ops/softmax/nvidia/softmax_kernels.cuh"

namespace ort::softmax_kernels {

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
// the CTA's pair into slot `rank` of every CTA (remote stores); after that each CTA reads only its own shared
// memory, so no CTA has to wait for the others to finish reading before it exits. The caller ran
// start_exchange at its start: every CTA of the cluster runs before its shared memory is written.
// How a CTA learns that every pair has landed:
//   ASYNC false: plain remote stores, then one cluster barrier (cluster.sync).
//   ASYNC true:  each pair goes by st.async, which completes a transaction count on the receiving CTA's
//                mbarrier `arrived`; each CTA waits on its own mbarrier only, not for the whole cluster.
//                ncu had the cluster barrier's release (`membar`) as the top stall of cluster_registers (run
//                av); run bb's sweep (H200): fp32 1024x65536 140.0 -> 133.1 us, 256x262144 157.8 -> 149.0,
//                16-bit rows no faster (85.2 -> 85.7 us; they stay on cluster_online). `arrived` was set up by
//                start_exchange before its relaxed cluster arrive, and its wait on that arrive comes before
//                any st.async: no remote store reaches an uninitialised mbarrier. Thread
//                0's arrive (with the bytes to expect) may come after some pairs have landed: the transaction
//                count may go below zero, and the phase cannot complete before that arrive, the one arrival
//                it counts. (Made right after the init, racecheck warned on the pair: runs bb and da.)
template <int TPR, int CLUSTER, bool ASYNC>
__device__ __forceinline__ Online cluster_combine(const Online& own, Online* warps, Online* every, uint64_t* arrived) {
  static_assert(TPR % 32 == 0 && TPR <= 1024 && CLUSTER <= 32, "whole warps; one lane per CTA of the cluster");
  static_assert(sizeof(Online) == sizeof(uint64_t), "a pair travels as one 8-byte st.async");
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const int lane = int(threadIdx.x % 32);
  const Online in_warp = warp_combine(own);
  if (lane == 0) warps[threadIdx.x / 32] = in_warp;
  __syncthreads();
  // The arm's release is at CTA scope: it publishes nothing (the pairs become visible through st.async's own
  // complete-tx on this mbarrier). At cluster scope it compiled to MEMBAR.ALL.GPU, which waits for the warp's
  // outstanding memory operations; warp 0 sends the CTA's pair only after it, so the whole cluster waited
  // (ncu per SASS instruction, run cs: 7 % of cluster_online's stall samples there, 15 % in the wait for the
  // pairs). Session 20, run ct (H200, twice): 1024x65536 halves 76.5 -> 74.8 us, fp32 133.0 -> 130.3;
  // 256x262144 halves 81.3 -> 78.8, fp32 146.6 -> 135.8.
  if (ASYNC && threadIdx.x == 0) {
    ::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta,
                                           ::cuda::ptx::space_shared, arrived, uint32_t(CLUSTER * sizeof(Online)));
  }
  if (threadIdx.x < 32) {
    Online w;
    if (lane < TPR / 32) w = warps[lane];
    const Online cta = warp_combine(w);
    if (lane < CLUSTER) {
      Online* slot = cluster.map_shared_rank(&every[cluster.block_rank()], lane);
      if constexpr (ASYNC) {
        uint64_t bits;
        memcpy(&bits, &cta, sizeof bits);
        ::cuda::ptx::st_async(reinterpret_cast<uint64_t*>(slot), bits, cluster.map_shared_rank(arrived, lane));
      } else {
        *slot = cta;
      }
    }
  }
  if constexpr (ASYNC) {
    while (!::cuda::ptx::mbarrier_try_wait_parity(arrived, 0)) {
    }
  } else {
    cluster.sync();
  }
  Online q;
  if (lane < CLUSTER) q = every[lane];
  return warp_combine(q);  // the same lanes in the same order in every CTA: every CTA gets the same pair
}

// At a cluster kernel's start, before anything else touches shared memory: cluster_combine's mbarrier (ASYNC:
// one arrival, thread 0's, with the bytes to expect) made visible to the cluster by the fence before the CTA's
// relaxed arrive on the cluster barrier, then the wait on it. This is the kernel's one cluster barrier: none
// guards the exit, since a CTA passes its mbarrier only when every pair sent to it has landed, so nothing
// reaches its shared memory after that, and the pairs it sent go to CTAs that wait for them before they exit
// (session 21 for cluster_online, 22 for cluster_registers; tests/test_build.py checks the PTX).
template <bool ASYNC>
__device__ __forceinline__ void start_exchange(uint64_t* arrived) {
  if (ASYNC && threadIdx.x == 0) {
    ::cuda::ptx::mbarrier_init(arrived, 1);
    ::cuda::ptx::fence_mbarrier_init(::cuda::ptx::sem_release, ::cuda::ptx::scope_cluster);
  }
  ::cuda::ptx::barrier_cluster_arrive(::cuda::ptx::sem_relaxed);
  ::cuda::ptx::barrier_cluster_wait();
}

// cluster_online: each CTA streams its chunk of the row twice. The CTAs trade their (max, sum) through
// cluster_combine (st.async into every CTA's shared memory, each CTA waiting on its own mbarrier).
// Session 18 (run cf, H200, twice): 1024x65536 halves 82.1 -> 76.5 us, 256x262144 88.3 -> 81.2, against two
// cluster barriers around remote reads; the same exchange had made fp32 cluster_registers 5 % faster
// (session 12). PACKS: packs a thread loads a step (stream_statistics).
// One cluster barrier (start_exchange; a cluster's CTAs start together, so the wait is short). Until session
// 21 the wait sat in cluster_combine and a second barrier guarded the exit (arrived at before the second pass,
// waited on after it). Run cu (H200, twice, one build): 1024x65536 fp16 74.8 -> 74.0 us, bf16 75.5 -> 75.1;
// 256x262144 fp16 78.9 -> 78.0, bf16 79.9 -> 79.7. Moving the wait alone cost 0.2-1 %: the gain is the exit
// barrier's (each cluster wait is an acquire that invalidates the SM's L1, CCTL.IVALL in run cs's SASS, but
// the second pass did not gain from L1 as predicted).
template <class T, int VEC, int TPR, int CLUSTER, int PACKS = default_stream_packs<T, VEC>()>
__global__ void __launch_bounds__(TPR, (stream_min_blocks<TPR, PACKS * VEC>())) cluster_online(T* out, const T* x,
                                                                                               RowsOfDim r,
                                                                                               cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ uint64_t arrived;
  start_exchange<true>(&arrived);
  __shared__ Online warps[TPR / 32], every[CLUSTER];
  const int rank = int(cooperative_groups::this_cluster().block_rank());
  int64_t out_off, x_off, begin, end;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  reduce_sum_kernels::split_range<VEC>(r.length, CLUSTER, rank, &begin, &end);
  const T* px = x + x_off + begin;
  const int len = int(end - begin);  // a chunk is far below 2^31 elements
  const Online own = stream_statistics<T, VEC, TPR, PACKS>(px, len);
  const Online row = cluster_combine<TPR, CLUSTER, true>(own, warps, every, &arrived);
  stream_write<T, VEC, TPR, PACKS>(out + out_off + begin, px, len, row.m, 1.f / row.s);
#endif
}

// cluster_registers: a row split across CLUSTER CTAs of TPR threads that each hold NP packs in registers,
// so the row is read from HBM once (cluster_online reads its chunk twice, the second time from L2).
// Each thread takes exp(v - its own max) before anything is exchanged, so the CTAs trade one (max, sum)
// pair once, and the output is v times one factor a thread, exp(own max - row max) / row sum.
// Session 11: ncu had cluster_online at 58-65 % of DRAM bandwidth, waiting between phases (load, reduce,
// cluster barrier, reload); session 2's version of this kernel exchanged the max and the sum separately
// (three cluster barriers) and ran without launch bounds, and lost everywhere.
// ASYNC: cluster_combine's exchange by st.async (the library's, session 12) or through a cluster barrier (kept
// for the sweep, which times both).
// One cluster barrier (start_exchange), as in cluster_online. Until session 22 the wait sat in cluster_combine
// and a second barrier kept each CTA until the pairs it sent had landed. Run da (H200, twice, one build): 256x262144
// fp32 136.0 -> 134.6 us, 1024x65536 fp32 130.5 -> 130.5 (predicted -0.5 to -1 %).
template <class T, int VEC, int TPR, int NP, int CLUSTER, bool FULL = false, bool ASYNC = true>
__global__ void __launch_bounds__(TPR, (min_blocks<TPR, NP * VEC>())) cluster_registers(T* out, const T* x, RowsOfDim r,
                                                                                        cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ uint64_t arrived;
  start_exchange<ASYNC>(&arrived);
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
  const Online row = cluster_combine<TPR, CLUSTER, ASYNC>(own, warps, every, &arrived);
  // A thread of -inf values scales its zeros by 0 * (1 / sum): 0, or NaN where the whole row is -inf (torch's 0/0).
  const float inv = 1.f / row.s;
  slice.store(out + out_off + first, own.m == -INFINITY ? 0.f * inv : exp_of_difference(own.m, row.m) * inv);
#endif
}

// A 16-byte read of shared memory that the compiler keeps where it is written (asm volatile): cluster_smem_held
// reads each slot again in each pass rather than holding a pass's values in registers. Written against a 12-byte
// spill that the unrolling by 4 below turned out to cure alone (plain reads also fit 40 registers with it); the
// kernel timed in run ex reads through this, the plain-read build was not timed.
__device__ __forceinline__ uint4 read_slot(const uint4* p) {
  uint4 v;
  const auto a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a));
  return v;
}

// cluster_smem_held: 16-bit (and, staged, fp32) rows split across CLUSTER CTAs of TPR threads, each thread holding
// PACKS raw packs of its CTA's part in its own slots of dynamic shared memory (PACKS x TPR x 16 bytes a CTA, filled by
// cp.async and read back only by the thread that filled them, so no barrier guards them; packs past the row hold -inf).
// The row is read from HBM once and written from what is held; the CTAs trade one (max, sum) pair (cluster_combine).
// Registers hold 32 KB a CTA at three CTAs an SM (online_held); shared memory holds 64-72 KB there (up to 112 KB at
// two), so a row needs fewer CTAs, and a cluster's CTAs wait on each other less. The table that picks CLUSTER and PACKS
// (softmax_smem_held_table.cuh) takes the fewest packs that hold the row, so its CTAs hold nearly equal parts: 40000
// halves cut 32768 + 7232 (8 packs) ran 75.8 us, cut 20480 + 19520 (5 packs) 65.3 (run ez). PACKS stays a template
// argument: the same kernel with the packs counted at run time (one build per cluster size) ran 1-3 % slower at every
// length (run fb, tests/bench/sweeps/softmax_held_ceiling.cu table).
// Session 29 (runs ew, ex): 1024x65536 halves 74.3-75.5 -> 68.4-68.5 us against cluster_online.
// STAGED (session 32, the library's): each pack its own cp.async group, and the (max, sum) taken online pack by pack
// as each lands (one rescale a pack), so the reductions overlap the loads and the slots are read once before the
// exchange, not twice. Run fl (sweep `staged`, H200, 4 timings each, fp16): 256x262144 in 8 x 8 69.1 -> 68.4 us,
// 270336 in 6 x 11 71.0 -> 69.3, 196608 in 6 x 8 68.6 -> 67.9, 65536 in 2 x 8 67.7 -> 67.3; 40000 in 2 x 5 65.0
// -> 65.2 (five packs leave little to overlap). STAGED false (one group, a pass for the max and one for the sum)
// stays for the sweep's A/B.
template <class T, int VEC, int TPR, int PACKS, int CLUSTER, bool STAGED = true>
__global__ void __launch_bounds__(TPR, 3) cluster_smem_held(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // fp32 packs (4 values) take the staged path only: the two-pass one widens raw 16-bit pairs.
  static_assert(sizeof(cuda::Pack<T, VEC>) == 16 && (raw_packs<T, VEC>() || (sizeof(T) == 4 && STAGED)),
                "16-byte packs of 16-bit values, or of fp32 values when staged");
  constexpr int kStride = TPR * VEC, kPart = kStride * PACKS;
  __shared__ uint64_t arrived;
  start_exchange<true>(&arrived);
  __shared__ Online warps[TPR / 32], every[CLUSTER];
  extern __shared__ __align__(128) uint4 slots[];  // pack p of thread t at slots[p * TPR + t]
  const int tid = int(threadIdx.x), rank = int(cooperative_groups::this_cluster().block_rank());
  int64_t out_off, x_off;
  row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  const int first = rank * kPart + tid * VEC;  // cluster rows are < 2^31 elements
  const int valid = int(r.length) - first;    // the row's elements from this thread's first pack on
  const T* px = x + x_off + first;
  const uint32_t neg_inf = sizeof(T) == 4 ? 0xff800000u : std::is_same_v<T, half_t> ? 0xfc00fc00u : 0xff80ff80u;
#pragma unroll
  for (int p = 0; p < PACKS; ++p) {
    if (p * kStride < valid) __pipeline_memcpy_async(&slots[p * TPR + tid], px + p * kStride, 16);
    else slots[p * TPR + tid] = uint4{neg_inf, neg_inf, neg_inf, neg_inf};
    if (STAGED) __pipeline_commit();
  }
  auto held = [&](int p) {
    const uint4 v = read_slot(&slots[p * TPR + tid]);
    cuda::Pack<T, VEC> pk;
    memcpy(&pk, &v, 16);
    return pk;
  };
  Online own;
  if constexpr (STAGED) {
#pragma unroll
    for (int p = 0; p < PACKS; ++p) {
      __pipeline_wait_prior(PACKS - 1 - p);  // a constant once unrolled; above 8 it waits for more (still right)
      const cuda::Pack<T, VEC> one[1] = {held(p)};
      add_packs(own, one);
    }
  } else {
    __pipeline_commit();
    __pipeline_wait_prior(0);
#pragma unroll
    for (int p = 0; p < PACKS; ++p) {
      const cuda::Pack<T, VEC> one[1] = {held(p)};
      own.m = fmaxf(own.m, cuda::packed_max(one));
    }
    // A thread of -inf values (or of none) takes its exps against 0: they are 0, and so is its sum.
    const float base = own.m == -INFINITY ? 0.f : own.m;
    own.s = 0.f;
    // Unrolled whole, the compiler read all the slots first and spilled 12 bytes at the 40 registers of three CTAs
    // an SM; four at a time it does not.
#pragma unroll 4
    for (int p = 0; p < PACKS; ++p) {
      const cuda::Pack<T, VEC> pk = held(p);
      uint32_t w[VEC / 2];
      memcpy(w, &pk, sizeof w);
#pragma unroll
      for (int k = 0; k < VEC / 2; ++k)
        own.s += exp_of_difference(cuda::widen_half<T, 0>(w[k]), base) +
                 exp_of_difference(cuda::widen_half<T, 1>(w[k]), base);
    }
  }
  const Online row = cluster_combine<TPR, CLUSTER, true>(own, warps, every, &arrived);
  // A row of -inf gets exp(-inf - -inf) = NaN everywhere, as torch's 0/0; a NaN or +inf makes the sum NaN.
  const float inv = 1.f / row.s;
#pragma unroll
  for (int p = 0; p < PACKS; ++p)
    if (p * kStride < valid) write_pack<T, VEC, true>(out + out_off + first + p * kStride, held(p), row.m, inv);
#endif
}

template <class T>
using SoftmaxKernel = void (*)(T*, const T*, RowsOfDim, cuda::Trigger);

// Whether one cluster of this kernel, with `smem` bytes of dynamic shared memory a CTA, can be resident.
// Clusters above 8 CTAs are "non-portable" (an H100/H200 runs up to 16; other GPUs with clusters may not), and
// dynamic shared memory over 48 KB is opt-in: each kernel must allow them once per device before its first
// launch. The library does both in create(), so execute() only launches.
template <class T>
bool cluster_fits(SoftmaxKernel<T> kernel, int cluster, int threads, size_t smem = 0) {
  if (cluster > 8 && cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (smem > (48u << 10) &&
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  cudaLaunchAttribute attrs[2];
  const cudaLaunchConfig_t cfg =
      cuda::launch_config(dim3(unsigned(cluster)), dim3(unsigned(threads)), unsigned(cluster), {}, attrs, smem);
  int active = 0;
  if (cudaOccupancyMaxActiveClusters(&active, kernel, &cfg) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return active > 0;
}

// One row a cluster of `cluster` CTAs of `threads` threads and `smem` bytes of dynamic shared memory (cluster_fits
// first).
template <class T>
cudaError_t launch_in_clusters(SoftmaxKernel<T> kernel, int cluster, int threads, const RowsOfDim& r, T* out,
                               const T* x, cuda::Stream st, size_t smem = 0) {
  return cuda::launch_in_clusters(kernel, dim3(unsigned(r.rows) * unsigned(cluster)), dim3(unsigned(threads)),
                                  unsigned(cluster), smem, st, out, x, r);
}

}  // namespace ort::softmax_kernels
