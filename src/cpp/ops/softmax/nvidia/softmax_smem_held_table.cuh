// cluster_smem_held's table (softmax_cluster.cuh): how many CTAs a 16-bit row takes, by length. Its own header so
// that tests/bench/sweeps/softmax_held_ceiling.cu times exactly the library's choice.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/cuda_common.cuh"
#include "ops/softmax/nvidia/softmax_cluster.cuh"

namespace ort::softmax_kernels {

// cluster_smem_held: 16-bit rows of 32769-270336 in a cluster of `cluster` CTAs of 512 threads, the row cut evenly
// into packs a thread held in shared memory (8 KB a pack of a CTA: at most 9 packs for three CTAs an SM, 13 for
// two). Measured (tests/bench/sweeps/softmax_held_ceiling.cu split and shapes, H200, runs ex, ez and fa, each arm
// twice; fp16 below, bf16 within 1.5 %), against what took the rows before (online up to 65536, then
// cluster_online):
//   2 CTAs: 32776 71.7 against 74.2 us, 40000 65.3 / 75.8, 45056 66.9 / 77.6, 49152 67.1 / 81.1, 53248 67.4 /
//           85.3, 61440 68.0 / 90.9, 65536 68.1 / 74.2
//   3 CTAs: 81920 68.0 / 89.0, 98304 68.8 / 82.7, 131072 (11 packs, two CTAs an SM) 70.7 / 75.4
//   5 CTAs: 163840 77.3 / 96.9;  6 CTAs: 196608 69.5 / 88.2;  7 CTAs: 229376 70.4 / 81.8
//   6 CTAs, 10-11 packs (two CTAs an SM): 262144 72.7 / 78.1 (229376 in 6 x 10: 73.2)
// Clusters of 4 lost wherever timed (131072 in 4 x 8 76.8, 163840 in 4 x 10 80.2), as did 5 CTAs of 10-13 packs
// (196608 79.8, 262144 82.6) and 8 of 8 (262144 78.1): hence the uneven steps. Unexplained (resident clusters
// do not account for it); measured, not derived.
struct SmemHeldShape {
  int64_t max_length;
  int cluster;
};
constexpr int kSmemHeldThreads = 512;
constexpr int64_t kSmemHeldMinLength = 32769;
constexpr std::array<SmemHeldShape, 6> kSmemHeldTable{
    {{65536, 2}, {135168, 3}, {163840, 5}, {196608, 6}, {229376, 7}, {270336, 6}}};

// Packs a thread the kernel of each cluster size is built for: the most any entry of that size needs.
constexpr int smem_held_max_packs(int cluster) { return cluster == 3 || cluster == 6 ? 11 : 8; }
constexpr int64_t smem_held_packs(int64_t length, int cluster) {
  return ceil_div(length, int64_t(cluster) * kSmemHeldThreads * 8);
}
constexpr bool smem_held_table_fits() {
  for (const SmemHeldShape& e : kSmemHeldTable)
    if (smem_held_packs(e.max_length, e.cluster) > smem_held_max_packs(e.cluster)) return false;
  return true;
}
static_assert(smem_held_table_fits(), "every entry's longest row fits its kernel's packs");

inline int pick_smem_held_cluster(int64_t length) {
  if (length < kSmemHeldMinLength) return 0;
  for (const SmemHeldShape& e : kSmemHeldTable)
    if (length <= e.max_length) return e.cluster;
  return 0;
}

template <class T, int CLUSTER>
SoftmaxKernel<T> smem_held_kernel_of() {
  return cluster_smem_held<T, 8, kSmemHeldThreads, smem_held_max_packs(CLUSTER), CLUSTER>;
}

template <class T>
SoftmaxKernel<T> smem_held_kernel(int cluster) {
  switch (cluster) {
    case 2: return smem_held_kernel_of<T, 2>();
    case 3: return smem_held_kernel_of<T, 3>();
    case 5: return smem_held_kernel_of<T, 5>();
    case 6: return smem_held_kernel_of<T, 6>();
    default: return smem_held_kernel_of<T, 7>();
  }
}

inline size_t smem_held_bytes(int64_t length, int cluster) {
  return size_t(smem_held_packs(length, cluster)) * kSmemHeldThreads * 16;
}

}  // namespace ort::softmax_kernels
