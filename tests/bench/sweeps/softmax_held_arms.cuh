#pragma once
// What the softmax_waves and softmax_held_ceiling sweeps share: online_held's row (16384 halves, 512 threads x 4
// packs, three blocks an SM), its body under other launch bounds (held_shape), held_copy (its loads, both block
// reductions and stores, without the exps), and the timing of one kernel over rows of 16384.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
namespace cuda = ort::cuda;  // <cuda/ptx> (softmax_cluster.cuh) declares a ::cuda too
constexpr int kLength = 16384, kThreads = 512, kBlocksPerSm = 3;  // online_held's launch bounds at 512 threads

// online_held's body for the arms that change only how a thread's packs arrive or leave: load(held, first) fills
// held.raw from the thread's first element and returns the thread's max; store(held, first, m, inv) writes the packs
// (HeldPacks::store's arithmetic); the reductions are online_held's.
template <class T, int TPR, int PACKS, class Load, class Store>
__device__ __forceinline__ void held_softmax(T* out, const T* x, const RowsOfDim& r, Load load, Store store) {
  __shared__ float smem[32];
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, TPR, PACKS> held;
  held.valid = int(r.length) - first;
  const float m = cuda::group_reduce<TPR>(load(held, x + x_off + first), cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<TPR>(held.exp_sum(m), cuda::SumOp{}, smem);
  store(held, out + out_off + first, m, inv);
}

// One held pack's outputs, exp(v - m) * inv narrowed a pair at a time, as the word HeldPacks::store writes: for the
// arms that store it their own way (cache hints).
template <class T, class Pack>
__device__ __forceinline__ uint4 held_pack_out(const Pack& raw, float m, float inv) {
  float f[8];
  cuda::unpack(raw, f);
  uint32_t pairs[4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    pairs[k] = cuda::narrow_pair<T>(softmax_kernels::exp_of_difference(f[2 * k], m) * inv,
                                    softmax_kernels::exp_of_difference(f[2 * k + 1], m) * inv);
  uint4 w;
  memcpy(&w, pairs, sizeof w);
  return w;
}

template <class T, int TPR, int PACKS, class Load>
__device__ __forceinline__ void held_softmax(T* out, const T* x, const RowsOfDim& r, Load load) {
  held_softmax<T, TPR, PACKS>(out, x, r, load,
                              [](const auto& held, T* first, float m, float inv) { held.store(first, m, inv); });
}

// online_held's body under TPR threads x PACKS packs and MIN_BLOCKS blocks an SM.
template <class T, int TPR, int PACKS, int MIN_BLOCKS>
__global__ void __launch_bounds__(TPR, MIN_BLOCKS) held_shape(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  held_softmax<T, TPR, PACKS>(out, x, r, [](auto& held, const T* first) { return held.load(first); });
}

// held_copy: online_held's loads, both block reductions and stores, no exps (the raw packs written back), to
// split what the arithmetic costs from what the shape costs (session 29, run en: 4.04-4.05 TB/s against
// online_held's 3.99-4.02: the exps cost nothing).
template <class T>
__device__ __forceinline__ void store_raw(T* first, const softmax_kernels::HeldPacks<T, 8, 512, 4>& held, bool flip) {
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    if (u * 512 * 8 >= held.valid) continue;
    uint4 w;
    memcpy(&w, &held.raw[u], 16);
    if (flip) w.x ^= 1u;  // never taken (no NaN in the input); keeps the reductions live
    *reinterpret_cast<uint4*>(first + u * 512 * 8) = w;
  }
}

template <class T>
__global__ void __launch_bounds__(512, 3) held_copy(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, 512, 4> held;
  held.valid = int(r.length) - first;
  const float m = cuda::group_reduce<512>(held.load(x + x_off + first), cuda::MaxOp{}, smem);
  const float s = cuda::group_reduce<512>(m, cuda::SumOp{}, smem);
  store_raw(out + out_off + first, held, s != s);
}

template <class T>
using Kernel = void (*)(T*, const T*, RowsOfDim, cuda::Trigger);

// Bytes of `kernel`'s output that differ from online_held's over `rows` rows of 16384 varied values (0: the same
// softmax, bit for bit). THREADS threads a block, SMEM_KB of dynamic shared memory.
template <class T>
size_t differing_bytes(int rows, Kernel<T> kernel, int threads = kThreads, int smem_kb = 0) {
  static_assert(sizeof(T) == 2, "16-bit rows (the input pattern is 16-bit words)");
  const size_t n = size_t(rows) * kLength, bytes = n * sizeof(T);
  const LaunchTensors<T> t(2, bytes, bytes);
  std::vector<uint16_t> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = uint16_t(0x3800 + (i * 2654435761u >> 20) % 0x0800);  // fp16 0.5-1
  CHECK(cudaMemcpy(t.x[0], host.data(), bytes, cudaMemcpyHostToDevice));
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  const auto run = [&](Kernel<T> k, int block, int kb, T* out) {
    const size_t smem = size_t(kb) << 10;
    if (smem) CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    k<<<unsigned(rows), unsigned(block), smem>>>(out, static_cast<const T*>(t.x[0]), r, cuda::Trigger::Early);
    CHECK(cudaGetLastError());
  };
  run(softmax_kernels::online_held<T, 8, kThreads>, kThreads, 0, t.out[0]);
  run(kernel, threads, smem_kb, t.out[1]);
  std::vector<unsigned char> a(bytes), b(bytes);
  CHECK(cudaMemcpy(a.data(), t.out[0], bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), t.out[1], bytes, cudaMemcpyDeviceToHost));
  size_t differ = 0;
  for (size_t i = 0; i < bytes; ++i) differ += a[i] != b[i];
  return differ;
}

// The tensors time_rows times `rows` rows of 16384 on: one pair a launch.
template <class T>
struct RowTensors : LaunchTensors<T> {
  explicit RowTensors(int rows)
      : LaunchTensors<T>(launches_for(2 * size_t(rows) * kLength * sizeof(T)), size_t(rows) * kLength * sizeof(T),
                         size_t(rows) * kLength * sizeof(T)) {}
};

// smem_kb of dynamic shared memory (unused by the kernels) lowers the blocks an SM. On tensors of its own, or on the
// launches' `out` and `x` (arms timed on the same allocation: run ld read one kernel 4.06 or 3.90-3.96 TB/s by the
// allocation it was given).
template <class T>
double time_rows_on(const std::vector<T*>& out, const std::vector<T*>& x, int rows, Kernel<T> kernel,
                    int threads = kThreads, int smem_kb = 0) {
  const int launches = int(x.size());
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  const size_t smem = size_t(smem_kb) << 10;
  if (smem) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return time_graph(launches, [&](int i, cudaStream_t st) {
    CHECK(cuda::launch_in_clusters(kernel, dim3{unsigned(rows)}, dim3{unsigned(threads)}, 0, smem,
                                   cuda::Stream{st, true}, out[size_t(i)], static_cast<const T*>(x[size_t(i)]), r));
  });
}

template <class T>
double time_rows(int rows, Kernel<T> kernel = softmax_kernels::online_held<T, 8, kThreads>, int threads = kThreads,
                 int smem_kb = 0) {
  const RowTensors<T> t(rows);
  return time_rows_on<T>(t.out, t.x, rows, kernel, threads, smem_kb);
}

}  // namespace
