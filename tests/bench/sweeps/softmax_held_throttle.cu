// Does softmax 4096x16384 halves reach 4.1 TB/s if each SM has fewer bytes in flight at once? (Prepared in session
// 62. Run ki, session 63, H200: no. The copies ran 3.975 / 4.006 / 3.978 TB/s in 1 / 2 / 4 groups, the softmax body
// 4.04 / 3.97 / 3.53 in fp16 and 4.03 / 3.95 / 3.49 in bf16, every output byte-identical to online_held's; data in
// docs/runs/softmax-held-throttle-h200-2026-12-04-ki.csv.) Runs eo-eq and gq (softmax_held_ceiling's `chunks`) found
// that a copy shaped like the softmax (a block reads its chunk whole, a barrier, then writes it) streams at
// 4.13-4.16 TB/s only with one 16-byte pack a thread in blocks of <= 512 threads, i.e. 32 KB in flight an SM; 64 KB
// an SM ran 4.02-4.08 and 128 KB 3.95-4.01, whatever the chunk (but 1024 x 1, 32 KB in two blocks, ran 4.04: the
// block's size or the single load a thread may be what counts instead). online_held keeps 96 KB an SM in flight
// (three blocks of 512 x 4 packs) and runs 4.02-4.07; one block an SM (32 KB) lost the overlap of one block's
// reductions with another's traffic (3.93).
// The arms here keep three (or four) blocks an SM, so the phases still overlap, but let each thread issue its four
// loads in GROUPS groups: a group's addresses depend on the data of the one before (through a runtime zero), so it
// issues only once that data has landed, and a block has 32 / GROUPS KB in flight at a time.
//   chunk copies: 512 x 4 chunks read in 1, 2 or 4 groups, a barrier, then written (no arithmetic);
//   softmax:      online_held's body (HeldPacks: max on the raw pairs, exps a pair at a time) with its loads in
//                 1, 2 or 4 groups, at three blocks an SM and (fp16) four; online_held itself as the control.
// Each arm twice, interleaved; the CSV names the blocks an SM the occupancy API reports. Every softmax arm's output
// is first compared byte for byte with online_held's (the same arithmetic in the same order): a `check` row whose
// `us` column holds the bytes that differ (0 expected).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_throttle.cu -o softmax_held_throttle
//   ./softmax_held_throttle > softmax_held_throttle.csv
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "softmax_held_arms.cuh"

namespace {

constexpr int kPacks = 4, kStride = kThreads * 8;  // online_held's shape at 16384 halves: 512 threads x 4 packs

// Loads packs [FIRST, FIRST + COUNT) of the thread's row slice as 16-byte words; `hold` (a runtime zero tied to the
// previous group's data) delays their issue until that data is there. Returns the next hold: this group's last word,
// masked by zero.
template <class T, int FIRST, int COUNT>
__device__ __forceinline__ uint32_t load_group(uint4 (&w)[kPacks], const T* px, uint32_t hold, uint32_t zero) {
#pragma unroll
  for (int u = FIRST; u < FIRST + COUNT; ++u) w[u] = *reinterpret_cast<const uint4*>(px + u * kStride + hold);
  return w[FIRST + COUNT - 1].x & zero;
}

template <class T, int GROUPS>
__device__ __forceinline__ void load_in_groups(uint4 (&w)[kPacks], const T* px, uint32_t zero) {
  static_assert(kPacks % GROUPS == 0, "whole groups");
  constexpr int kPer = kPacks / GROUPS;
  uint32_t hold = load_group<T, 0, kPer>(w, px, 0, zero);
  if constexpr (GROUPS >= 2) hold = load_group<T, kPer, kPer>(w, px, hold, zero);
  if constexpr (GROUPS >= 3) hold = load_group<T, 2 * kPer, kPer>(w, px, hold, zero);
  if constexpr (GROUPS >= 4) hold = load_group<T, 3 * kPer, kPer>(w, px, hold, zero);
  (void)hold;
}

// The copy: each block one 32 KB chunk, read in GROUPS groups, a barrier, then written. `zero` is 0 at run time.
template <int GROUPS>
__global__ void __launch_bounds__(kThreads) chunk_in_groups(half_t* out, const half_t* x, uint32_t zero) {
  uint4 w[kPacks];
  const int64_t first = int64_t(blockIdx.x) * kThreads * 8 * kPacks + int(threadIdx.x) * 8;
  load_in_groups<half_t, GROUPS>(w, x + first, zero);
  __syncthreads();
#pragma unroll
  for (int u = 0; u < kPacks; ++u) *reinterpret_cast<uint4*>(out + first + u * kStride) = w[u];
}

// online_held at 16384 (every pack valid), its loads in GROUPS groups, MIN_BLOCKS blocks an SM. The runtime zero is
// r.outer.ndim - 1 (these rows have one outer dim).
template <class T, int GROUPS, int MIN_BLOCKS>
__global__ void __launch_bounds__(kThreads, MIN_BLOCKS) held_in_groups(T* out, const T* x, RowsOfDim r,
                                                                       cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const uint32_t zero = uint32_t(r.outer.ndim - 1);
  held_softmax<T, kThreads, kPacks>(out, x, r, [zero](auto& held, const T* first) {
    uint4 w[kPacks];
    load_in_groups<T, GROUPS>(w, first, zero);
    memcpy(held.raw, w, sizeof w);  // whole 16-byte packs, as HeldPacks::load fills them
    return cuda::packed_max(held.raw);
  });
}

template <class T>
int blocks_an_sm(Kernel<T> kernel) {
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, 0));
  return blocks;
}

template <class T>
void sweep_softmax(int rows) {
  struct Arm {
    const char* name;
    Kernel<T> kernel;
  };
  std::vector<Arm> arms = {{"online_held", softmax_kernels::online_held<T, 8, kThreads>},
                           {"groups1_3an_sm", held_in_groups<T, 1, 3>},
                           {"groups2_3an_sm", held_in_groups<T, 2, 3>},
                           {"groups4_3an_sm", held_in_groups<T, 4, 3>}};
  if constexpr (std::is_same_v<T, half_t>) {  // bf16's body spills at four blocks (run ej)
    arms.push_back({"groups1_4an_sm", held_in_groups<T, 1, 4>});
    arms.push_back({"groups2_4an_sm", held_in_groups<T, 2, 4>});
  }
  for (const Arm& a : arms)
    std::printf("%s,%d,%s,check,check,%zu,nan\n", dtype_name<T>(), rows, a.name, differing_bytes<T>(264, a.kernel));
  const double bytes = 2.0 * rows * kLength * sizeof(T);
  for (int rep = 0; rep < 2; ++rep) {
    for (const Arm& a : arms) {
      const double us = time_rows<T>(rows, a.kernel);
      std::printf("%s,%d,%s,%d,%d,%.2f,%.3f\n", dtype_name<T>(), rows, a.name, blocks_an_sm<T>(a.kernel), rep, us,
                  bytes / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

void sweep_chunks() {
  using ChunkKernel = void (*)(half_t*, const half_t*, uint32_t);
  const struct {
    const char* name;
    ChunkKernel kernel;
  } arms[] = {{"chunk_groups1", chunk_in_groups<1>}, {"chunk_groups2", chunk_in_groups<2>},
              {"chunk_groups4", chunk_in_groups<4>}};
  const size_t bytes = size_t(4096) * kLength * 2;
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<half_t> t(launches, bytes, bytes);
  const unsigned blocks = unsigned(bytes / (size_t(kThreads) * kPacks * 16));
  for (int rep = 0; rep < 2; ++rep) {
    for (const auto& a : arms) {
      int resident = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, a.kernel, kThreads, 0));
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        a.kernel<<<blocks, kThreads, 0, st>>>(t.out[size_t(i)], t.x[size_t(i)], 0u);
      });
      std::printf("float16,4096,%s,%d,%d,%.2f,%.3f\n", a.name, resident, rep, us, 2.0 * double(bytes) / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main() {
  std::printf("dtype,rows,arm,blocks_an_sm,rep,us,tbps\n");
  sweep_chunks();
  sweep_softmax<half_t>(4096);
  sweep_softmax<bfloat16_t>(4096);
}
