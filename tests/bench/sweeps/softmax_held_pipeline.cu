// Softmax 4096x16384 halves (#6's last unmet target): can a block that holds one 32 KB row at a time keep its SM's
// reads going through its reductions, if it loads its next row while it reduces and writes the current one, at one
// or two blocks an SM? (Session 67, after runs ld and le: the held structure's copy runs 4.018 TB/s at four blocks an
// SM, the same copy in 8 KB blocks 4.197, and what moves the rate is where the bytes in flight lie, not how many;
// session 29 found 32 KB chunks at one block an SM at >= 4.12, where the softmax lost the overlap of one block's
// reductions with another's traffic, 3.93. Run ev's prefetching CTAs ran at three blocks an SM, 3.4-3.9.)
//
//   pipe<R, B>: copies shaped like online_held (512 threads x 4 packs = one 32 KB row, both block reductions of
//               held_copy before its store), R rows a block taken a grid apart (block b: rows b, b + G, ...; so the
//               blocks resident at once work on neighbouring rows), the next row's loads issued before the current
//               row's reductions, B blocks an SM (dynamic shared memory, unused, holds the others off).
//   held_copy:  the same row without the pipeline, three blocks an SM (the library's shape), and online_held itself.
// Every arm launched as the library launches (PDL, cuda::launch_in_clusters), on the same buffers, four rounds.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_pipeline.cu -o softmax_held_pipeline
//   ./softmax_held_pipeline > softmax_held_pipeline.csv
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "softmax_held_arms.cuh"

namespace {

constexpr int kRowPacks = kLength / 8;  // 2048 16-byte packs a row

// A row's four packs a thread, its max and a second reduction (held_copy's), then the packs written back.
template <int R>
__global__ void __launch_bounds__(kThreads) pipe(uint4* out, const uint4* x, int blocks, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  const auto load = [&](uint4 (&w)[4], int64_t row) {
#pragma unroll
    for (int u = 0; u < 4; ++u) w[u] = x[row * kRowPacks + u * kThreads + threadIdx.x];
  };
  uint4 cur[4], next[4];
  load(cur, blockIdx.x);
#pragma unroll 1
  for (int k = 0; k < R; ++k) {
    const int64_t row = blockIdx.x + int64_t(k) * blocks;
    if (k + 1 < R) load(next, row + blocks);
    softmax_kernels::HeldPacks<half_t, 8, 512, 4> held;
    memcpy(held.raw, cur, sizeof cur);
    const float m = cuda::group_reduce<512>(cuda::packed_max(held.raw), cuda::MaxOp{}, smem);
    const float s = cuda::group_reduce<512>(m, cuda::SumOp{}, smem);
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      uint4 w = cur[u];
      if (s != s) w.x ^= 1u;  // never taken (no NaN in the input); keeps the reductions live
      out[row * kRowPacks + u * kThreads + threadIdx.x] = w;
    }
    if (k + 1 < R) memcpy(cur, next, sizeof cur);
  }
}

using Pipe = void (*)(uint4*, const uint4*, int, cuda::Trigger);

// Dynamic shared memory that leaves room for `blocks` blocks an SM of `kernel`.
size_t smem_for(const void* kernel, int blocks) {
  int per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
  const size_t smem = size_t(per_sm) / size_t(blocks) - (size_t(4) << 10);
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return smem;
}

}  // namespace

int main() {
  std::printf("arm,rows_a_block,blocks_an_sm,round,us,tbps\n");
  constexpr int kRows = 4096;
  const RowTensors<half_t> t(kRows);
  const double bytes = 2.0 * kRows * kLength * 2;
  struct Arm {
    const char* name;
    Pipe kernel;
    int rows_a_block, per_sm;
  };
  const Arm pipes[] = {{"pipe", pipe<1>, 1, 1}, {"pipe", pipe<2>, 2, 1}, {"pipe", pipe<4>, 4, 1},
                       {"pipe", pipe<8>, 8, 1}, {"pipe", pipe<16>, 16, 1}, {"pipe", pipe<4>, 4, 2},
                       {"pipe", pipe<8>, 8, 2}};
  for (int round = 0; round < 4; ++round) {
    for (const auto& [name, kernel] : {std::pair{"online_held", softmax_kernels::online_held<half_t, 8, kThreads>},
                                       std::pair{"held_copy", held_copy<half_t>}}) {
      int per_sm = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
      const double us = time_rows_on<half_t>(t.out, t.x, kRows, kernel);
      std::printf("%s,1,%d,%d,%.2f,%.3f\n", name, per_sm, round, us, bytes / us * 1e-6);
    }
    for (const Arm& a : pipes) {
      const size_t smem = smem_for(reinterpret_cast<const void*>(a.kernel), a.per_sm);
      int per_sm = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, a.kernel, kThreads, smem));
      const int blocks = kRows / a.rows_a_block;
      const double us = time_graph(int(t.x.size()), [&](int i, cudaStream_t st) {
        CHECK(cuda::launch_in_clusters(a.kernel, dim3{unsigned(blocks)}, dim3{unsigned(kThreads)}, 0, smem,
                                       cuda::Stream{st, true}, reinterpret_cast<uint4*>(t.out[size_t(i)]),
                                       reinterpret_cast<const uint4*>(t.x[size_t(i)]), blocks));
      });
      std::printf("%s,%d,%d,%d,%.2f,%.3f\n", a.name, a.rows_a_block, per_sm, round, us, bytes / us * 1e-6);
      std::fflush(stdout);
    }
  }
}
