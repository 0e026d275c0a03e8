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
// the fewest packs that hold the row in shared memory (8 KB a pack of a CTA: at most 9 packs for three CTAs an SM,
// 14 for two), so the parts are nearly equal; every length 6-28 % faster than cluster_online or online, which took
// these rows before (session 30). Session 30 fitted the first table (runs ez-ff) while clusters of 4, 5 and 8 lost
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
// fp32 rows (packs of 4 values, so a CTA's 8 KB pack holds 2048 of them) of 16385-458752: 4 CTAs of 3-7 packs to
// 57344, 8 of 4-7 to 114688, 16 of 4-14 to 458752. Session 34, run fu (sweep fp32, 128 MiB a tensor, 4 timings each):
// past 262144 they ran `online`, 294912 67.8 against 119.5 us, 458752 71.1 against 131.1 (43-46 % faster); at
// 262144 16 x 8 ran 68.7 against cluster_registers' 70.4 (21 clusters resident against 14). Session 35, runs fw and
// fx (sweeps fp32b, fp32c): below that cluster_registers' masked kernels hold few clusters at once (16 CTAs: 7; 8:
// 15; 4: 30; 2: 66) and ran 1.7-2.8 TB/s: 24000 65.5 (4 x 3) against 95.4, 50000 67.0 (4 x 7) against 104.3,
// 100000 67.1 (8 x 7) against 108.3, 140000 67.0 against 155.0, 229376 67.7 against 111.4. Even where a row fills
// cluster_registers' packs, held ties or wins: 32768 66.0 (4 x 4) against 66.3, 65536 66.1 (8 x 4) against 67.4,
// 131072 66.0 (16 x 4) against 69.0. Each entry is its length's winner among the pairs timed (24000: 4 x 3 ahead of
// 2 x 6; 50000: 4 x 7 of 8 x 4; 65536: 8 x 4 of 4 x 8; 100000: 8 x 7 of 16 x 4; 131072: 16 x 4 of 8 x 8).
constexpr int64_t kSmemHeldMinLengthF32 = 16385;
constexpr std::array<SmemHeldShape, 3> kSmemHeldTableF32{{{57344, 4}, {114688, 8}, {458752, 16}}};

// The table for packs of VEC values: 8 (16-bit rows) or 4 (fp32).
template <int VEC>
constexpr auto smem_held_table() {
  static_assert(VEC == 8 || VEC == 4, "16-byte packs of 16-bit or fp32 values");
  if constexpr (VEC == 8) return kSmemHeldTable;
  else return kSmemHeldTableF32;
}
template <int VEC>
constexpr int64_t smem_held_min_length() {
  return VEC == 8 ? kSmemHeldMinLength : kSmemHeldMinLengthF32;
}

// The packs a thread that hold a row of `length` in `cluster` CTAs: the fewest, so the CTAs' parts are nearly equal.
template <int VEC>
constexpr int smem_held_packs(int64_t length, int cluster) {
  return int(ceil_div(length, int64_t(cluster) * kSmemHeldThreads * VEC));
}

template <int VEC>
inline int pick_smem_held_cluster(int64_t length) {
  if (length < smem_held_min_length<VEC>()) return 0;
  for (const SmemHeldShape& e : smem_held_table<VEC>())
    if (length <= e.max_length) return e.cluster;
  return 0;
}

// Every (CTAs, packs) a table reaches, one kernel each (16-bit: 23, 46 with both dtypes; fp32: 20).
struct SmemHeldKernelShape {
  int cluster, packs;
};

template <int VEC>
constexpr size_t smem_held_shape_count() {
  size_t n = 0;
  int64_t first = smem_held_min_length<VEC>();
  for (const SmemHeldShape& e : smem_held_table<VEC>()) {
    n += size_t(smem_held_packs<VEC>(e.max_length, e.cluster) - smem_held_packs<VEC>(first, e.cluster) + 1);
    first = e.max_length + 1;
  }
  return n;
}

template <int VEC>
constexpr std::array<SmemHeldKernelShape, smem_held_shape_count<VEC>()> smem_held_shapes() {
  std::array<SmemHeldKernelShape, smem_held_shape_count<VEC>()> shapes{};
  size_t n = 0;
  int64_t first = smem_held_min_length<VEC>();
  for (const SmemHeldShape& e : smem_held_table<VEC>()) {
    for (int p = smem_held_packs<VEC>(first, e.cluster); p <= smem_held_packs<VEC>(e.max_length, e.cluster); ++p)
      shapes[n++] = {e.cluster, p};
    first = e.max_length + 1;
  }
  return shapes;
}
template <int VEC>
constexpr auto kSmemHeldShapes = smem_held_shapes<VEC>();
static_assert(kSmemHeldShapes<8>.size() == 23, "the 16-bit (CTAs, packs) pairs; tests/test_build.py counts their PTX");
static_assert(kSmemHeldShapes<4>.size() == 20, "the fp32 (CTAs, packs) pairs; tests/test_build.py counts their PTX");

// The index in kSmemHeldShapes<VEC> of the kernel for a row of `length`, or -1 where the table holds no such row.
// create() keeps it, so execute() neither walks the table nor counts the packs again.
template <int VEC>
inline int smem_held_shape(int64_t length) {
  const int cluster = pick_smem_held_cluster<VEC>(length);
  if (cluster == 0) return -1;  // checked first: smem_held_packs divides by the cluster
  const int packs = smem_held_packs<VEC>(length, cluster);
  for (size_t i = 0; i < kSmemHeldShapes<VEC>.size(); ++i)
    if (kSmemHeldShapes<VEC>[i].cluster == cluster && kSmemHeldShapes<VEC>[i].packs == packs) return int(i);
  return -1;
}

template <class T>
constexpr int kSmemHeldVec = 16 / int(sizeof(T));

template <class T, size_t... I>
SoftmaxKernel<T> smem_held_kernel(int shape, std::index_sequence<I...>) {
  constexpr int kVec = kSmemHeldVec<T>;
  constexpr auto& shapes = kSmemHeldShapes<kVec>;
  static const SoftmaxKernel<T> kernels[] = {
      cluster_smem_held<T, kVec, kSmemHeldThreads, shapes[I].packs, shapes[I].cluster>...};
  return kernels[shape];
}

// The kernel, CTAs and shared memory of shape `shape` (from smem_held_shape<kSmemHeldVec<T>>) for rows of T.
template <class T>
SoftmaxKernel<T> smem_held_kernel(int shape) {
  return smem_held_kernel<T>(shape, std::make_index_sequence<kSmemHeldShapes<kSmemHeldVec<T>>.size()>{});
}
template <class T>
int smem_held_cluster(int shape) {
  return kSmemHeldShapes<kSmemHeldVec<T>>[size_t(shape)].cluster;
}
template <class T>
size_t smem_held_bytes(int shape) {
  return size_t(kSmemHeldShapes<kSmemHeldVec<T>>[size_t(shape)].packs) * kSmemHeldThreads * 16;
}

}  // namespace ort::softmax_kernels
