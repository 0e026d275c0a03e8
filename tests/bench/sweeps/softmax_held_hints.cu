// Softmax 4096x16384 halves (4.03 TB/s against #6's 4.1): do cache-eviction hints move the held row, and what do the
// H200's reads and writes of these bytes cost on their own? (Session 67; the question the sweeps before it left:
// softmax_held_ceiling, softmax_held_throttle and softmax_bulk timed the row's shape, bytes in flight and the copy
// engine, and softmax_waves' held_cs `.cs` on the loads and the stores together (run em: a tie), never either alone
// or an L2 evict-first policy, nor a read-only and a write-only stream of the same bytes.)
//
//   softmax:  online_held's body (held_softmax) with its loads `ld.global.cs` or `ld.global.L1::no_allocate` with an
//             L2 evict-first policy (read once), and / or its stores `st.global.cs` (streamed) or evict-first;
//             online_held itself as the control (bf16 without the store-only arms, whose bodies spill 8-16 bytes).
//             Every arm's output is first compared byte for byte with online_held's (`check` rows).
//   copies:   128 MiB of halves in and out, a block of 512 reading its chunk whole, a barrier, then writing it (the
//             softmax's shape, no arithmetic): chunk32 4 packs a thread, chunk16 2, chunk8 1 (the shape that reached
//             4.13-4.16 in runs eo-eq); chunk32 and chunk8 also hinted, and with their chunks visited in a scattered
//             order (block b takes chunk b * 40503 mod n: neighbouring blocks far apart in memory, the same bytes).
//   streams:  read_only (512 x 4 packs a block summed, one word a block written) and write_only (512 x 4 packs a
//             block stored): the rates of the two directions alone, against which the copies' mix is read.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_hints.cu -o softmax_held_hints
//   ./softmax_held_hints > softmax_held_hints.csv
//   ncu --metrics ... ./softmax_held_hints once   (every arm launched twice, untimed, for ncu to time and count)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "softmax_held_arms.cuh"

namespace {

constexpr int kPacks = 4, kStride = kThreads * 8;  // online_held's shape at 16384 halves: 512 threads x 4 packs
enum class Ld { Plain, Streaming, EvictFirst };
enum class St { Plain, Streaming, EvictFirst };

// The L2 policy that marks every line an access touches evict-first (sm_90 takes L2 priorities on 16-byte accesses
// only through a policy register; `.L2::evict_first` alone needs 32-byte ones).
__device__ __forceinline__ uint64_t evict_first_policy() {
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

template <Ld LD>
__device__ __forceinline__ uint4 load16(const void* p) {
  uint4 w;
  if constexpr (LD == Ld::Plain) {
    w = *static_cast<const uint4*>(p);
  } else if constexpr (LD == Ld::Streaming) {
    w = __ldcs(static_cast<const uint4*>(p));  // ld.global.cs
  } else {
    asm volatile("ld.global.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
                 : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w)
                 : "l"(p), "l"(evict_first_policy()));
  }
  return w;
}

template <St ST>
__device__ __forceinline__ void store16(void* p, uint4 w) {
  if constexpr (ST == St::Plain) {
    *static_cast<uint4*>(p) = w;
  } else if constexpr (ST == St::Streaming) {
    __stcs(static_cast<uint4*>(p), w);  // st.global.cs
  } else {
    asm volatile("st.global.L2::cache_hint.v4.u32 [%0], {%1, %2, %3, %4}, %5;" ::"l"(p), "r"(w.x), "r"(w.y),
                 "r"(w.z), "r"(w.w), "l"(evict_first_policy())
                 : "memory");
  }
}

// online_held at 16384 (every pack valid) with its loads and stores so hinted; the arithmetic is HeldPacks'.
template <class T, Ld LD, St ST>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) held_hinted(T* out, const T* x, RowsOfDim r,
                                                                      cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const auto load = [](auto& held, const T* first) {
#pragma unroll
    for (int u = 0; u < kPacks; ++u) {
      const uint4 w = load16<LD>(first + u * kStride);
      memcpy(&held.raw[u], &w, sizeof w);
    }
    return cuda::packed_max(held.raw);
  };
  const auto store = [](const auto& held, T* first, float m, float inv) {
#pragma unroll
    for (int u = 0; u < kPacks; ++u) store16<ST>(first + u * kStride, held_pack_out<T>(held.raw[u], m, inv));
  };
  held_softmax<T, kThreads, kPacks>(out, x, r, load, store);
}

template <class T>
void sweep_softmax(int rows, bool once) {
  struct Arm {
    const char* name;
    Kernel<T> kernel;
  };
  std::vector<Arm> arms = {{"online_held", softmax_kernels::online_held<T, 8, kThreads>},
                           {"held_plain", held_hinted<T, Ld::Plain, St::Plain>},
                           {"held_ld_streaming", held_hinted<T, Ld::Streaming, St::Plain>},
                           {"held_ld_evict_first", held_hinted<T, Ld::EvictFirst, St::Plain>},
                           {"held_ld_ef_st_cs", held_hinted<T, Ld::EvictFirst, St::Streaming>}};
  if constexpr (std::is_same_v<T, half_t>) {  // bf16's bodies with only their stores hinted spill 8-16 bytes (ptxas)
    arms.push_back({"held_st_streaming", held_hinted<T, Ld::Plain, St::Streaming>});
    arms.push_back({"held_st_evict_first", held_hinted<T, Ld::Plain, St::EvictFirst>});
  }
  if (once) {  // each arm twice on one pair of tensors, for ncu (which times every launch itself)
    const size_t bytes = size_t(rows) * kLength * sizeof(T);
    const LaunchTensors<T> t(1, bytes, bytes);
    const RowsOfDim r = contiguous_rows(rows, kLength, true);
    for (const Arm& a : arms)
      for (int rep = 0; rep < 2; ++rep)
        a.kernel<<<unsigned(rows), kThreads>>>(t.out[0], t.x[0], r, cuda::Trigger::Early);
    CHECK(cudaDeviceSynchronize());
    return;
  }
  for (const Arm& a : arms)
    std::printf("%s,%d,%s,check,%zu,nan\n", dtype_name<T>(), rows, a.name, differing_bytes<T>(264, a.kernel));
  const double bytes = 2.0 * rows * kLength * sizeof(T);
  const RowTensors<T> t(rows);  // every arm on the same allocation (run ld's first version gave each its own)
  for (int rep = 0; rep < 4; ++rep) {
    for (const Arm& a : arms) {
      const double us = time_rows_on<T>(t.out, t.x, rows, a.kernel);
      std::printf("%s,%d,%s,%d,%.2f,%.3f\n", dtype_name<T>(), rows, a.name, rep, us, bytes / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

// Block b's chunk: b itself, or b * 40503 mod n (n a power of two, 40503 odd: a permutation) when SCATTER.
template <bool SCATTER>
__device__ __forceinline__ int64_t chunk_of(unsigned n) {
  return SCATTER ? int64_t((blockIdx.x * 40503u) & (n - 1)) : int64_t(blockIdx.x);
}

// A block's chunk of 512 x PACKS packs: read whole, a barrier (as the softmax's reductions), written.
template <int PACKS, Ld LD, St ST, bool SCATTER>
__global__ void __launch_bounds__(kThreads) chunk_copy(uint16_t* out, const uint16_t* x, unsigned n) {
  const int64_t first = chunk_of<SCATTER>(n) * kStride * PACKS + int(threadIdx.x) * 8;
  uint4 w[PACKS];
#pragma unroll
  for (int u = 0; u < PACKS; ++u) w[u] = load16<LD>(x + first + u * kStride);
  __syncthreads();
#pragma unroll
  for (int u = 0; u < PACKS; ++u) store16<ST>(out + first + u * kStride, w[u]);
}

// The read direction alone: a block's 32 KB summed (xor), one word a block written.
__global__ void __launch_bounds__(kThreads) read_only(uint16_t* out, const uint16_t* x, unsigned) {
  const int64_t first = int64_t(blockIdx.x) * kStride * kPacks + int(threadIdx.x) * 8;
  uint4 w[kPacks];
#pragma unroll
  for (int u = 0; u < kPacks; ++u) w[u] = load16<Ld::Plain>(x + first + u * kStride);
  uint32_t s = 0;
#pragma unroll
  for (int u = 0; u < kPacks; ++u) s ^= w[u].x ^ w[u].y ^ w[u].z ^ w[u].w;
  s = __reduce_xor_sync(0xffffffffu, s);
  if ((threadIdx.x & 31) == 0) atomicXor(reinterpret_cast<unsigned*>(out) + blockIdx.x, s);
}

// The write direction alone: a block's 32 KB stored (the block's index, so no two blocks' bytes are equal).
__global__ void __launch_bounds__(kThreads) write_only(uint16_t* out, const uint16_t*, unsigned) {
  const int64_t first = int64_t(blockIdx.x) * kStride * kPacks + int(threadIdx.x) * 8;
  const uint4 w{blockIdx.x, threadIdx.x, 0u, 0u};
#pragma unroll
  for (int u = 0; u < kPacks; ++u) store16<St::Plain>(out + first + u * kStride, w);
}

void sweep_copies(bool once) {
  using CopyKernel = void (*)(uint16_t*, const uint16_t*, unsigned);
  const struct {
    const char* name;
    CopyKernel kernel;
    int packs;        // packs a thread: the chunk is 512 x packs x 16 bytes
    double directions;  // 2: bytes in and out; 1: one direction
  } arms[] = {{"chunk32", chunk_copy<4, Ld::Plain, St::Plain, false>, 4, 2},
              {"chunk32_hinted", chunk_copy<4, Ld::EvictFirst, St::Streaming, false>, 4, 2},
              {"chunk32_scattered", chunk_copy<4, Ld::Plain, St::Plain, true>, 4, 2},
              {"chunk16", chunk_copy<2, Ld::Plain, St::Plain, false>, 2, 2},
              {"chunk8", chunk_copy<1, Ld::Plain, St::Plain, false>, 1, 2},
              {"chunk8_hinted", chunk_copy<1, Ld::EvictFirst, St::Streaming, false>, 1, 2},
              {"chunk8_scattered", chunk_copy<1, Ld::Plain, St::Plain, true>, 1, 2},
              {"read_only", read_only, 4, 1},
              {"write_only", write_only, 4, 1}};
  const size_t bytes = size_t(4096) * kLength * 2;
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<uint16_t> t(once ? 1 : launches, bytes, bytes);
  const auto blocks_of = [bytes](int packs) { return unsigned(bytes / (size_t(kThreads) * packs * 16)); };
  if (once) {  // as sweep_softmax's
    for (const auto& a : arms)
      for (int rep = 0; rep < 2; ++rep)
        a.kernel<<<blocks_of(a.packs), kThreads>>>(t.out[0], t.x[0], blocks_of(a.packs));
    CHECK(cudaDeviceSynchronize());
    return;
  }
  for (int rep = 0; rep < 2; ++rep) {
    for (const auto& a : arms) {
      const unsigned blocks = blocks_of(a.packs);
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        a.kernel<<<blocks, kThreads, 0, st>>>(t.out[size_t(i)], t.x[size_t(i)], blocks);
      });
      std::printf("float16,4096,%s,%d,%.2f,%.3f\n", a.name, rep, us, a.directions * double(bytes) / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  if (!once) std::printf("dtype,rows,arm,rep,us,tbps\n");
  sweep_copies(once);
  sweep_softmax<half_t>(4096, once);
  sweep_softmax<bfloat16_t>(4096, once);
}
