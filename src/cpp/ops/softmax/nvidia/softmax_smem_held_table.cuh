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

// cluster_smem_held: 16-bit rows of 32769-917504 in a cluster of `cluster` CTAs of 512 threads, each thread holding
// the fewest packs that hold the row in shared memory (8 KB a pack of a CTA: at most 9 packs for three CTAs an SM, 14 for two),
// so the parts are nearly equal; every length 6-28 % faster than cluster_online or online, which took these rows
// before (session 30). Session 30 fitted the first table (runs ez-ff) while clusters of 4, 5 and 8 lost
// ~10 %; session 31 found why (the slots began 16 bytes past a 32-byte boundary in those sizes, and each cp.async
// read its L2 sectors twice) and aligned them. Session 32 refitted it three times (tests/bench/sweeps/
// softmax_held_ceiling.cu, H200, 4 timings each, fp16; bf16 alike but where noted). Run fl (refit, the kernel
// before STAGED) moved 65537-131072 from 3 CTAs to 4 (131072: 68.1 against 70.2 us) and 196609-270336 to 8 (270336:
// 69.6 against 6 x 11's 71.0). Run fm (refit2, STAGED, which favours more CTAs of fewer packs), the entry then
// against its runner-up:
//   65536 in 2 x 8 67.2 against 4 x 4 66.1 (bf16 67.6 / 66.4), hence 4 CTAs from 57345 (run fn, refit3: 61440 in
//   4 x 4 66.5 against 2 x 8 67.4; 57344 66.4 against 2 x 7 67.2, but bf16 67.9 / 67.4; 53248 bf16 70.9 / 67.4)
//   100000 4 x 7 67.7 / 5 x 5 67.4 / 3 x 9 69.2; 131072 4 x 8 67.7 / 6 x 6 67.5 / 3 x 11 68.8 (bf16 a tie)
//   147456 6 x 6 67.5 / 8 x 5 67.1; 163840 6 x 7 67.4 / 8 x 5 67.0, hence 8 CTAs from 131073 (run fn: 8 x 5
//   ahead of 6 x 6 at 140000 and 147456 in both dtypes; at 135168 fp16 67.2 / 67.6, bf16 68.5 / 68.0)
//   196608 8 x 6 67.5 / 6 x 8 67.8; 229376 8 x 7 67.5 / 7 x 8 68.3; 262144 8 x 8 68.4 / 6 x 11 69.6;
//   270336 8 x 9 68.8 / 6 x 11 69.3
// Session 33 (runs fp, fq; sweeps gaps and beyond): the lengths between those points within 1.9 % of their
// neighbours, but 8 x 4 ahead of 4 x 8 from 122880 (122880 66.5 against 67.8, 131072 66.6 against 67.9; bf16 alike;
// at 114696 a tie), hence 8 CTAs from 114689. Past 270336 16-bit rows ran `online` (no cluster_online past 16 x
// 32 KB) at ~2.5 TB/s: 8 CTAs of 9 packs ran 68.9 us at 294912 and 69.4 at 280000 where online ran 108.6 and 109.7.
// Past 294912, 16 CTAs (a non-portable cluster: create() falls back to online where a GPU cannot hold one) of 5-9
// packs, three CTAs an SM, beat 8 of 10-14 (two an SM) by 3.8-5.4 % (run fr: 327680 66.9 against 69.5, 458752 67.9
// against 71.7; bf16 alike) and online by 38-43 % (524288 69.1 against 119.1, 589824 68.2 against 118.9).
// Session 34 (run ft, beyond3): 16 CTAs of 10-14 packs, two CTAs an SM, to 917504, the most one cluster of the H200
// holds in shared memory (16 x 112 KB): 72-74 us against online's 123-153 (655360 71.9 against 123.3, 917504 73.7
// against 149.4; bf16 alike), 42-51 % faster, though 14 clusters resident against 16 x 9's 21 cost 5-8 % of rate.
struct SmemHeldShape {
  int64_t max_length;
  int cluster;
};
constexpr int kSmemHeldThreads = 512;
constexpr int64_t kSmemHeldMinLength = 32769;
constexpr std::array<SmemHeldShape, 4> kSmemHeldTable{{{57344, 2}, {114688, 4}, {294912, 8}, {917504, 16}}};

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

// Every (CTAs, packs) the table reaches, one kernel each (23: 46 with both dtypes).
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
static_assert(kSmemHeldShapes.size() == 23, "the table's (CTAs, packs) pairs; tests/test_build.py counts their PTX");

// The index in kSmemHeldShapes of the kernel for a row of `length`, or -1 where the table holds no such row. create()
// keeps it, so execute() neither walks the table nor counts the packs again.
inline int smem_held_shape(int64_t length) {
  const int cluster = pick_smem_held_cluster(length);
  if (cluster == 0) return -1;  // checked first: smem_held_packs divides by the cluster
  const int packs = smem_held_packs(length, cluster);
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
