// Softmax 4096x16384 halves (#6's last unmet target): does where `out` lies relative to `x` move the held row's rate
// and its copies' rates, and what is PDL worth to the copies? (Session 67, after run ld: the same chunks visited in a
// scattered order ran 5-7 % slower, so the DRAM addresses of the bytes in flight matter; online_held read 4.06 or
// 3.90-3.96 TB/s by the allocation it was timed on, one process to the next.)
//
//   placement: 20 buffers (one a launch, so that no launch finds its input in L2), each x (128 MiB of halves) followed
//              by out at x + 128 MiB + delta, delta 0-1536 KB (within one 2 MiB page of the allocator and past it):
//              chunk8 and chunk32 (a block of 512 reads 8 / 32 KB whole, a barrier, writes it), read_only32 (the
//              read direction alone) and online_held (the library's kernel), every delta in each round, three rounds.
//   pdl:       the copies and the two one-direction streams at delta 0 launched with and without programmatic
//              dependent launch (the library launches every kernel with it; the sweeps' copies did not), through
//              the library's cuda::launch_in_clusters (its trigger Early: the stream gives no thread slots).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/memory_placement.cu -o memory_placement
//   ./memory_placement > memory_placement.csv
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "softmax_held_arms.cuh"

namespace {

constexpr size_t kBytes = size_t(4096) * kLength * 2;  // 128 MiB of halves
constexpr size_t kSlack = size_t(2) << 20;

// One x / out pair a launch in one allocation each: out starts kBytes + delta after x.
struct Pool {
  std::vector<char*> base;
  explicit Pool(int launches) : base(size_t(launches)) {
    for (char*& b : base) {
      CHECK(cudaMalloc(&b, 2 * kBytes + kSlack));
      CHECK(cudaMemset(b, 0x3c, kBytes));
    }
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    for (char* b : base) cudaFree(b);
  }
};

// A block's chunk of 512 x PACKS packs read whole, a barrier, then written (READ_ONLY: summed instead, one word a
// block written; WRITE_ONLY: the block's index stored, nothing read), with the PDL prologue when launched with the
// attribute (the library's: wait, and let the next grid start early).
template <int PACKS, bool READ_ONLY, bool WRITE_ONLY>
__global__ void __launch_bounds__(kThreads) chunk(uint4* out, const uint4* x, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t first = int64_t(blockIdx.x) * kThreads * PACKS + threadIdx.x;
  uint4 w[PACKS];
#pragma unroll
  for (int u = 0; u < PACKS; ++u) w[u] = WRITE_ONLY ? uint4{blockIdx.x, threadIdx.x, 0u, 0u} : x[first + u * kThreads];
  if constexpr (READ_ONLY) {
    uint32_t s = 0;
#pragma unroll
    for (int u = 0; u < PACKS; ++u) s ^= w[u].x ^ w[u].y ^ w[u].z ^ w[u].w;
    s = __reduce_xor_sync(0xffffffffu, s);
    if ((threadIdx.x & 31) == 0) atomicXor(&out[blockIdx.x].x, s);
  } else {
    __syncthreads();
#pragma unroll
    for (int u = 0; u < PACKS; ++u) out[first + u * kThreads] = w[u];
  }
}

using Copy = void (*)(uint4*, const uint4*, cuda::Trigger);
struct CopyArm {
  const char* name;
  Copy kernel;
  int packs;
  double directions;
};
const CopyArm kChunk8{"chunk8", chunk<1, false, false>, 1, 2}, kChunk32{"chunk32", chunk<4, false, false>, 4, 2},
    kRead32{"read_only32", chunk<4, true, false>, 4, 1}, kWrite32{"write_only32", chunk<4, false, true>, 4, 1};

}  // namespace

int main() {
  std::printf("part,delta_kb,arm,pdl,round,us,tbps\n");
  const int launches = launches_for(2 * kBytes);
  const Pool pool(launches);
  const auto copy_row = [&](const char* part, size_t delta, const CopyArm& a, bool pdl, int round) {
    const unsigned blocks = unsigned(kBytes / (size_t(kThreads) * a.packs * 16));
    const double us = time_graph(launches, [&](int i, cudaStream_t st) {
      char* b = pool.base[size_t(i)];
      CHECK(cuda::launch_in_clusters(a.kernel, dim3{blocks}, dim3{unsigned(kThreads)}, 0, 0, cuda::Stream{st, pdl},
                                     reinterpret_cast<uint4*>(b + kBytes + delta), reinterpret_cast<const uint4*>(b)));
    });
    std::printf("%s,%zu,%s,%d,%d,%.2f,%.3f\n", part, delta >> 10, a.name, int(pdl), round, us,
                a.directions * double(kBytes) / us * 1e-6);
    std::fflush(stdout);
  };
  const auto held_row = [&](size_t delta, int round) {
    std::vector<half_t*> out, x;
    for (char* b : pool.base) {
      out.push_back(reinterpret_cast<half_t*>(b + kBytes + delta));
      x.push_back(reinterpret_cast<half_t*>(b));
    }
    const double us = time_rows_on<half_t>(out, x, 4096, softmax_kernels::online_held<half_t, 8, kThreads>);
    std::printf("placement,%zu,online_held,1,%d,%.2f,%.3f\n", delta >> 10, round, us, 2.0 * double(kBytes) / us * 1e-6);
    std::fflush(stdout);
  };
  const size_t deltas_kb[] = {0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 1536};
  for (int round = 0; round < 3; ++round) {
    for (const size_t kb : deltas_kb) {
      const size_t delta = kb << 10;
      copy_row("placement", delta, kChunk8, false, round);
      copy_row("placement", delta, kChunk32, false, round);
      copy_row("placement", delta, kRead32, false, round);
      held_row(delta, round);
    }
    for (const CopyArm* a : {&kChunk8, &kChunk32, &kRead32, &kWrite32})
      for (const bool pdl : {false, true}) copy_row("pdl", 0, *a, pdl, round);
  }
}
