// cluster_smem_held's table (softmax_cluster.cuh): how many CTAs a 16-bit row takes, by length. Its own header so
// that tests/bench/sweeps/softmax_held_ceiling.cu times exactly the library's choice.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/cuda_common.cuh"
#include "ops/softmax/nvidia/softmax_cluster.cuh"

namespace ort::softmax_kernels {

// cluster_smem_held: 16-bit rows of 32769-270336 in a cluster of `cluster` CTAs of 512 threads, each thread holding
// the fewest packs that hold the row in shared memory (8 KB a pack of a CTA: at most 9 packs for three CTAs an SM,
// 13 for two), so the parts are nearly equal. Measured (tests/bench/sweeps/softmax_held_ceiling.cu split and
// shapes, H200, runs ex, ez and fa, each arm twice; fp16 below, bf16 within 1.5 %), against what took the rows
// before (online up to 65536, then cluster_online):
//   2 CTAs: 32776 71.7 against 74.2 us, 40000 65.3 / 75.8, 45056 66.9 / 77.6, 49152 67.1 / 81.1, 53248 67.4 /
//           85.3, 61440 68.0 / 90.9, 65536 68.1 / 74.2
//   3 CTAs: 81920 68.0 / 89.0, 98304 68.8 / 82.7, 131072 (11 packs, two CTAs an SM) 70.7 / 75.4
//   6 CTAs: 147456 68.5 / 77.4 (5 x 8), 163840 68.9 / 96.9, 196608 69.5 / 88.2;  7 CTAs: 229376 70.4 / 81.8
//   6 CTAs, 10-11 packs (two CTAs an SM): 262144 72.7 / 78.1 (229376 in 6 x 10: 73.2)
// Clusters of 4, 5 and 8 lost ~10 % wherever timed (131072 in 4 x 8 76.8 and 8 x 4 75.9; 262144 in 8 x 8 78.1),
// hence the uneven steps: session 31 found why (runs fg-fj). The slots began 16 bytes past a 32-byte boundary
// in those sizes (the static shared memory before them is 8 + 128 + 8 x CTAs bytes), and each cp.async then read
// its L2 sectors twice (ncu per SASS instruction: 2x the ideal sectors; 25 % more in 2, 3 and 11 CTAs, none in 6
// and 7). Aligned to 128 bytes (run fj, fp16, old -> new): 131072 in 4 x 8 76.8 -> 68.0, 3 x 11 70.7 -> 70.1;
// 262144 in 8 x 8 (three CTAs an SM) 78.0 -> 69.0 against 6 x 11's 71.2, hence its entry; every other entry
// 0.2-1.6 % faster. The other entries were fitted before the fix and are kept until timed again.
struct SmemHeldShape {
  int64_t max_length;
  int cluster;
};
constexpr int kSmemHeldThreads = 512;
constexpr int64_t kSmemHeldMinLength = 32769;
constexpr std::array<SmemHeldShape, 6> kSmemHeldTable{
    {{65536, 2}, {135168, 3}, {196608, 6}, {229376, 7}, {262144, 8}, {270336, 6}}};

// The packs a thread that hold a row of `length` in `cluster` CTAs: the fewest, so the CTAs' parts are nearly equal.
constexpr int smem_held_packs(int64_t length, int cluster) {
  return int(ceil_div(length, int64_t(cluster) * kSmemHeldThreads * 8));
}

inline int pick_smem_held_cluster(int64_t length) {
  if (length < kSmemHeldMinLength) return 0;
  for (const SmemHeldShape& e : kSmemHeldTable)
    if (length <= e.max_length) return e.cluster;
  return 0;
}

// Every (CTAs, packs) the table reaches, one kernel each (17: 34 with both dtypes).
struct SmemHeldKernelShape {
  int cluster, packs;
};

constexpr size_t smem_held_shape_count() {
  size_t n = 0;
  int64_t first = kSmemHeldMinLength;
  for (const SmemHeldShape& e : kSmemHeldTable) {
    n += size_t(smem_held_packs(e.max_length, e.cluster) - smem_held_packs(first, e.cluster) + 1);
    first = e.max_length + 1;
  }
  return n;
}

constexpr std::array<SmemHeldKernelShape, smem_held_shape_count()> smem_held_shapes() {
  std::array<SmemHeldKernelShape, smem_held_shape_count()> shapes{};
  size_t n = 0;
  int64_t first = kSmemHeldMinLength;
  for (const SmemHeldShape& e : kSmemHeldTable) {
    for (int p = smem_held_packs(first, e.cluster); p <= smem_held_packs(e.max_length, e.cluster); ++p)
      shapes[n++] = {e.cluster, p};
    first = e.max_length + 1;
  }
  return shapes;
}
constexpr auto kSmemHeldShapes = smem_held_shapes();
static_assert(kSmemHeldShapes.size() == 17, "the table's (CTAs, packs) pairs; tests/test_build.py counts their PTX");

// The index in kSmemHeldShapes of the kernel for a row of `length` (pick_smem_held_cluster(length) > 0). create()
// keeps it, so execute() neither walks the table nor counts the packs again.
inline int smem_held_shape(int64_t length) {
  const int cluster = pick_smem_held_cluster(length), packs = smem_held_packs(length, cluster);
  for (size_t i = 0; i < kSmemHeldShapes.size(); ++i)
    if (kSmemHeldShapes[i].cluster == cluster && kSmemHeldShapes[i].packs == packs) return int(i);
  return -1;
}

template <class T, size_t... I>
SoftmaxKernel<T> smem_held_kernel(int shape, std::index_sequence<I...>) {
  static const SoftmaxKernel<T> kernels[] = {
      cluster_smem_held<T, 8, kSmemHeldThreads, kSmemHeldShapes[I].packs, kSmemHeldShapes[I].cluster>...};
  return kernels[shape];
}

template <class T>
SoftmaxKernel<T> smem_held_kernel(int shape) {
  return smem_held_kernel<T>(shape, std::make_index_sequence<kSmemHeldShapes.size()>{});
}

inline int smem_held_cluster(int shape) { return kSmemHeldShapes[size_t(shape)].cluster; }
inline size_t smem_held_bytes(int shape) {
  return size_t(kSmemHeldShapes[size_t(shape)].packs) * kSmemHeldThreads * 16;
}

}  // namespace ort::softmax_kernels
