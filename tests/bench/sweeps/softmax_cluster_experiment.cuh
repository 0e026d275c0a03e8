#pragma once
// EXPERIMENT, not used by the library: softmax rows split across a thread-block cluster (Hopper), the
// way QuACK does it, holding the row in registers. tests/bench/sweeps/softmax_configs.cu times it beside
// the library's kernels; see docs/perf-notes.md for what it measured and why the library does not
// dispatch it. (A variant holding the row in shared memory, cluster_smem, was measured in session 5 and
// dropped: `git show 6f326f5:tests/bench/sweeps/softmax_cluster_experiment.cuh`.)
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

template <class T, int VEC, int TPR, int NP, int CLUSTER>
cudaError_t launch_cluster_registers(const RowsOfDim& r, T* out, const T* x, cudaStream_t st) {
  const auto kernel = cluster_registers<T, VEC, TPR, NP, CLUSTER>;
  const cudaError_t e = softmax_kernels::allow_cluster_size<CLUSTER>(kernel);
  return e != cudaSuccess ? e : softmax_kernels::launch_cluster<CLUSTER, TPR>(kernel, r, out, x, st);
}

}  // namespace ort::softmax_experiments
