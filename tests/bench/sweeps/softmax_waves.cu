// Does the last, partial wave cost softmax's 16-bit 4096x16384 its missing 1.5 %? online_held (the library's kernel
// for 16-bit rows of 8193-16384, 512 threads, three blocks an SM) runs 4096 rows over 132 x 3 = 396 row slots on
// the H200: 10.34 waves, the last a third full. This times it at whole waves (10 and 11: 3960 and 4356 rows on
// the H200; the counts follow the device's SMs) and at 4096 and 4224 rows, each twice, interleaved, and reports
// microseconds a row: if the tail costs, 4096's is above the whole waves'. Launched as create() launches it
// (PDL, triggered at the start). Run ee: 0.0164 us a row at every count (4.00 TB/s): the tail costs nothing.
//
// Second part (session 28, run ej): the held row in other shapes at 4096 rows, online_held's body (HeldPacks)
// under other launch bounds: 256 threads x 8 packs (four blocks an SM at up to 64 registers: 1024 threads, 128 KB
// in flight an SM against the library's 3 x 512 threads, 96 KB), 128 x 16 (four an SM, 128 registers), and the library's 512 x 4
// at four blocks an SM (run cn's tie, as a check). Each twice, interleaved with the library's kernel. Run ej: every
// shape a tie or slower (fp16 256 x 8: 66.9 against 67.0 us). Session 28 added, not yet run: `held_cs` (the copy
// kernel's cache hints) and `copy_same_bytes`, the library's copy over the same 128 MiB in and out, the ceiling of
// this mix of reads and writes (perf-notes, next experiment 2).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_waves.cu -o softmax_waves
//   ./softmax_waves > softmax_waves.csv   (scripts/gpu_check.sh --sweep with SWEEPS=softmax_waves)
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/copy/nvidia/copy_kernels.cuh"
#include "ops/softmax/nvidia/softmax_cluster.cuh"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
namespace cuda = ort::cuda;  // <cuda/ptx> (softmax_cluster.cuh) declares a ::cuda too
constexpr int kLength = 16384, kThreads = 512, kBlocksPerSm = 3;  // online_held's launch bounds at 512 threads

// online_held's body under TPR threads x PACKS packs and MIN_BLOCKS blocks an SM.
template <class T, int TPR, int PACKS, int MIN_BLOCKS>
__global__ void __launch_bounds__(TPR, MIN_BLOCKS) held_shape(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, TPR, PACKS> held;
  held.valid = int(r.length) - first;
  const float m = cuda::group_reduce<TPR>(held.load(x + x_off + first), cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<TPR>(held.exp_sum(m), cuda::SumOp{}, smem);
  held.store(out + out_off + first, m, inv);
}

// online_held with the copy kernel's cache hints: loads by __ldcs and stores by __stcs (evict-first, streamed once),
// as copy_kernels::flat, which moves 1 GiB at 4.28 TB/s. HeldPacks' max and exp_sum on packs loaded here.
template <class T>
__global__ void __launch_bounds__(512, 3) held_cs(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  constexpr int kStride = 512 * 8;
  __shared__ float smem[32];
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, 512, 4> held;
  held.valid = int(r.length) - first;
  const uint32_t neg_inf = std::is_same_v<T, half_t> ? 0xfc00fc00u : 0xff80ff80u;
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    uint4 q{neg_inf, neg_inf, neg_inf, neg_inf};
    if (u * kStride < held.valid) q = __ldcs(reinterpret_cast<const uint4*>(x + x_off + first + u * kStride));
    memcpy(&held.raw[u], &q, 16);
  }
  const float m = cuda::group_reduce<512>(cuda::packed_max(held.raw), cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<512>(held.exp_sum(m), cuda::SumOp{}, smem);
#pragma unroll
  for (int u = 0; u < 4; ++u) {
    if (u * kStride >= held.valid) continue;
    float f[8];
    cuda::unpack(held.raw[u], f);
    uint4 w;
    uint32_t pairs[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      pairs[k] = cuda::narrow_pair<T>(softmax_kernels::exp_of_difference(f[2 * k], m) * inv,
                                      softmax_kernels::exp_of_difference(f[2 * k + 1], m) * inv);
    memcpy(&w, pairs, 16);
    __stcs(reinterpret_cast<uint4*>(out + out_off + first + u * kStride), w);
  }
}

// Session 29's arms, after run em put the copy of these bytes at 4.16 TB/s against online_held's 4.02-4.04: which
// part of the 3 % is the arithmetic and which the shape (a row a block, read whole before any of it is written).
// held_copy: online_held's loads, both block reductions and stores, no exps (the raw packs written back);
// rows_copy: a row a block read whole, then written, no reduction. Run en: held_copy 4.04-4.05 TB/s, rows_copy
// 3.99-4.01, online_held 3.99-4.02, the copy 4.15-4.17: the exps cost nothing; the shape is the 3 %.
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
__global__ void __launch_bounds__(512, 3) rows_copy(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, 512, 4> held;
  held.valid = int(r.length) - first;
  const float m = held.load(x + x_off + first);  // the loads; the max (no barrier) keeps them together
  store_raw(out + out_off + first, held, m != m);
}

// Third part (session 29, `softmax_waves chunks`): which shape of "read a chunk whole, then write it" moves these
// 128 MiB at the copy's rate. Block b copies chunk b (TPB threads x PACKS 16-byte packs, pack p at p * TPB * 16
// bytes) with a barrier between its loads and its stores, as a softmax block between its passes; SMEM_KB of
// dynamic shared memory lowers the blocks an SM. 512 x 4 is online_held's 32 KB row; halves and quarters of it
// ask whether a row split across a cluster's CTAs could stream faster than a row a CTA.
// WARP_RUNS: pack p of a thread at p * 32 words from its warp's first (each warp reads one contiguous run of
// PACKS * 512 bytes) instead of p * TPB words from the block's (a warp's packs TPB * 16 bytes apart).
template <int TPB, int PACKS, bool WARP_RUNS = false>
__global__ void __launch_bounds__(TPB) chunk_copy(uint4* out, const uint4* x, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int64_t first = int64_t(blockIdx.x) * TPB * PACKS + (WARP_RUNS ? warp * 32 * PACKS + lane : int(threadIdx.x));
  constexpr int kStep = WARP_RUNS ? 32 : TPB;
  uint4 w[PACKS];
#pragma unroll
  for (int p = 0; p < PACKS; ++p) w[p] = x[first + p * kStep];
  __syncthreads();
#pragma unroll
  for (int p = 0; p < PACKS; ++p) out[first + p * kStep] = w[p];
}

struct Chunk {
  const char* name;
  void (*kernel)(uint4*, const uint4*, cuda::Trigger);
  int tpb, packs, smem_kb;
};

void sweep_chunks() {
  const Chunk chunks[] = {{"512x4", chunk_copy<512, 4>, 512, 4, 0},
                          {"512x4_warp_runs", chunk_copy<512, 4, true>, 512, 4, 0},
                          {"512x4_2an_sm", chunk_copy<512, 4>, 512, 4, 100},
                          {"512x4_warp_runs_2an_sm", chunk_copy<512, 4, true>, 512, 4, 100},
                          {"512x4_1an_sm", chunk_copy<512, 4>, 512, 4, 150},
                          {"256x4", chunk_copy<256, 4>, 256, 4, 0},
                          {"256x4_4an_sm", chunk_copy<256, 4>, 256, 4, 50},
                          {"256x4_2an_sm", chunk_copy<256, 4>, 256, 4, 100},
                          {"512x2", chunk_copy<512, 2>, 512, 2, 0},
                          {"1024x2", chunk_copy<1024, 2>, 1024, 2, 0},
                          {"1024x1", chunk_copy<1024, 1>, 1024, 1, 0},
                          {"512x1", chunk_copy<512, 1>, 512, 1, 0},
                          {"256x1", chunk_copy<256, 1>, 256, 1, 0},
                          {"256x1_4an_sm", chunk_copy<256, 1>, 256, 1, 50},
                          {"256x1_2an_sm", chunk_copy<256, 1>, 256, 1, 100}};
  const size_t bytes = size_t(4096) * kLength * 2;
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<uint4> t(launches, bytes, bytes);
  std::printf("chunk,kb,smem_kb,rep,us,tbps\n");
  for (int rep = 0; rep < 2; ++rep) {
    for (const Chunk& c : chunks) {
      const size_t smem = size_t(c.smem_kb) << 10;
      if (smem) CHECK(cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      const unsigned blocks = unsigned(bytes / (size_t(c.tpb) * c.packs * 16));
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        cudaLaunchAttribute attrs[2];
        const cuda::Stream stream{st, true};
        cudaLaunchConfig_t cfg = cuda::launch_config(dim3(blocks), dim3(unsigned(c.tpb)), 0, stream, attrs);
        cfg.dynamicSmemBytes = smem;
        CHECK(cudaLaunchKernelEx(&cfg, c.kernel, t.out[size_t(i)], static_cast<const uint4*>(t.x[size_t(i)]),
                                 cuda::trigger_for(dim3(blocks), dim3(unsigned(c.tpb)), stream)));
      });
      std::printf("%s,%d,%d,%d,%.2f,%.3f\n", c.name, c.tpb * c.packs * 16 / 1024, c.smem_kb, rep, us,
                  2.0 * double(bytes) / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

// online_held with each warp's four packs one contiguous 2 KB run (HeldPacks' stride is TPR x 8 elements, so
// TPR = 32 makes it a warp's width), where the library's packs lie 8 KB apart: run ep's copies of 32 KB chunks
// gained 0.7-1 % from it. A row's layout over its threads is free for softmax (each thread stores what it loaded).
// bf16 spills 4 bytes at 40 registers (three blocks an SM); MIN_BLOCKS = 2 gives it 64.
template <class T, int MIN_BLOCKS = 3>
__global__ void __launch_bounds__(512, MIN_BLOCKS) held_warp_runs(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  const int first = (int(threadIdx.x) / 32) * 32 * 4 * 8 + (int(threadIdx.x) % 32) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  softmax_kernels::HeldPacks<T, 8, 32, 4> held;
  held.valid = int(r.length) - first;
  const float m = cuda::group_reduce<512>(held.load(x + x_off + first), cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<512>(held.exp_sum(m), cuda::SumOp{}, smem);
  held.store(out + out_off + first, m, inv);
}

// The ceiling of this mix of reads and writes: the library's contiguous copy (copy_kernels::flat, 16-byte words,
// one a thread, .cs hints) over the same bytes, launched as copy_cuda.cu launches it.
template <class T>
double time_copy(int rows) {
  const size_t bytes = size_t(rows) * kLength * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const int64_t words = int64_t(bytes / 16);
  return time_graph(launches, [&](int i, cudaStream_t st) {
    cuda::launch(copy_kernels::flat<uint4, 1>, unsigned((words + 255) / 256), 256u, cuda::Stream{st, true},
                 reinterpret_cast<uint4*>(t.out[size_t(i)]), reinterpret_cast<const uint4*>(t.x[size_t(i)]), words);
  });
}

template <class T>
using Kernel = void (*)(T*, const T*, RowsOfDim, cuda::Trigger);

// smem_kb of dynamic shared memory (unused by the kernels) lowers the blocks an SM.
template <class T>
double time_rows(int rows, Kernel<T> kernel = softmax_kernels::online_held<T, 8, kThreads>, int threads = kThreads,
                 int smem_kb = 0) {
  const size_t bytes = size_t(rows) * kLength * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  const size_t smem = size_t(smem_kb) << 10;
  if (smem) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  return time_graph(launches, [&](int i, cudaStream_t st) {
    cudaLaunchAttribute attrs[2];
    const cuda::Stream stream{st, true};
    const dim3 grid{unsigned(rows)}, block{unsigned(threads)};
    cudaLaunchConfig_t cfg = cuda::launch_config(grid, block, 0, stream, attrs);
    cfg.dynamicSmemBytes = smem;
    CHECK(cudaLaunchKernelEx(&cfg, kernel, t.out[size_t(i)], static_cast<const T*>(t.x[size_t(i)]), r,
                             cuda::trigger_for(grid, block, stream)));
  });
}

// Fourth part (session 29, `softmax_waves clusters`): run eq's copies moved 128 MiB at 4.13-4.16 TB/s only in
// blocks of 256 or 512 threads with one pack a thread (4-8 KB chunks); every chunk of 16-32 KB a block ran at
// 3.90-4.08. A 16384-half row in such pieces is a cluster: the library's cluster_registers (fp32 long rows), here
// on halves, CLUSTER CTAs of TPR threads x NP packs, one (max, sum) exchange by st.async.
template <class T>
void sweep_clusters() {
  struct Split {
    const char* name;
    Kernel<T> kernel;
    int cluster, threads;
  };
  using softmax_kernels::cluster_registers;
  const Split splits[] = {{"4x512x1", cluster_registers<T, 8, 512, 1, 4, true>, 4, 512},
                          {"8x256x1", cluster_registers<T, 8, 256, 1, 8, true>, 8, 256},
                          {"2x1024x1", cluster_registers<T, 8, 1024, 1, 2, true>, 2, 1024},
                          {"2x512x2", cluster_registers<T, 8, 512, 2, 2, true>, 2, 512},
                          {"4x256x2", cluster_registers<T, 8, 256, 2, 4, true>, 4, 256}};
  constexpr int rows = 4096;
  const size_t bytes = size_t(rows) * kLength * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  for (int rep = 0; rep < 2; ++rep) {
    const double held = time_rows<T>(rows);
    std::printf("%s,%d,library_online_held,%d,%.2f,%.3f\n", dtype_name<T>(), rows, rep, held, 2.0 * bytes / held * 1e-6);
    for (const Split& sp : splits) {
      if (!softmax_kernels::cluster_fits<T>(sp.kernel, sp.cluster, sp.threads)) {
        std::printf("%s,%d,%s,%d,nan,nan\n", dtype_name<T>(), rows, sp.name, rep);
        continue;
      }
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        CHECK(softmax_kernels::launch_in_clusters<T>(sp.kernel, sp.cluster, sp.threads, r, t.out[size_t(i)],
                                                     static_cast<const T*>(t.x[size_t(i)]), cuda::Stream{st, true}));
      });
      std::printf("%s,%d,%s,%d,%.2f,%.3f\n", dtype_name<T>(), rows, sp.name, rep, us, 2.0 * bytes / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

// Fifth part (session 29, `softmax_waves long`): a 16-bit row of 65536 held whole by one CTA, one block an SM
// (1024 threads x 8 packs: 32 registers of raw packs a thread, 128 KB an SM in flight), against the library's
// cluster_online (4 CTAs of 512 threads, each streaming 32 KB twice, the second time from L2) at 1024x65536.
// Session 19's cluster_held (4 CTAs each holding 32 KB) lost to online_held's rate by 14 % waiting on its
// cluster; a CTA that holds the whole row waits on nobody.
template <class T>
void sweep_long() {
  constexpr int rows = 1024, length = 65536;
  const size_t bytes = size_t(rows) * length * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const RowsOfDim r = contiguous_rows(rows, length, true);
  struct Arm {
    const char* name;
    Kernel<T> kernel;
    int cluster, threads;
  };
  const Arm arms[] = {{"library_cluster_online_4x512", softmax_kernels::cluster_online<T, 8, 512, 4>, 4, 512},
                      {"held_1024x8_b1", held_shape<T, 1024, 8, 1>, 0, 1024},
                      {"held_512x16_b1", held_shape<T, 512, 16, 1>, 0, 512}};
  for (int rep = 0; rep < 2; ++rep)
    for (const Arm& a : arms) {
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        const cuda::Stream stream{st, true};
        T* out = t.out[size_t(i)];
        const T* x = t.x[size_t(i)];
        if (a.cluster) CHECK(softmax_kernels::launch_in_clusters<T>(a.kernel, a.cluster, a.threads, r, out, x, stream));
        else CHECK(cuda::launch(a.kernel, dim3(unsigned(rows)), dim3(unsigned(a.threads)), stream, out, x, r));
      });
      std::printf("%s,%d,%d,%s,%d,%.2f,%.3f\n", dtype_name<T>(), rows, length, a.name, rep, us, 2.0 * bytes / us * 1e-6);
      std::fflush(stdout);
    }
}

// Sixth part (session 29, `softmax_waves prefetch`): the one structure runs eo-er left untimed, a CTA that
// loads its next row while it reduces and writes the current one, so that no thread of it waits through a
// reduction with nothing in flight. Each thread copies its four packs of the next row into its own 64 bytes of
// shared memory by cp.async (16 bytes each, L1 bypassed) and reads back only those, so the buffer needs no
// barrier; the row in registers is the library's raw packs (40 registers, three blocks an SM). ROWS rows a CTA,
// consecutive (2 or 4: 2048 or 1024 CTAs), or ROWS = 0: a persistent grid of three CTAs an SM striding the rows.
// SOFTMAX false: the same loop storing the packs unchanged after both reductions (held_copy's structure).
// Rows of exactly 16384 only (no masks), as the sweep's.
template <class T, int ROWS, bool SOFTMAX>
__global__ void __launch_bounds__(512, 3) held_prefetch(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  constexpr int kStride = 512 * 8;
  extern __shared__ uint4 next[];  // 512 x 4 packs
  __shared__ float smem[32];
  const int tid = int(threadIdx.x), first = tid * 8;
  const int64_t rows = r.rows;
  const int64_t step = ROWS ? 1 : gridDim.x;
  int64_t row = ROWS ? int64_t(blockIdx.x) * ROWS : blockIdx.x;
  const int64_t end = ROWS ? row + ROWS : rows;
  auto fetch = [&](int64_t at) {
    int64_t out_off, x_off;
    softmax_kernels::row_offsets<uint32_t>(r.outer, at, &out_off, &x_off);
#pragma unroll
    for (int u = 0; u < 4; ++u) __pipeline_memcpy_async(&next[u * 512 + tid], x + x_off + first + u * kStride, 16);
    __pipeline_commit();
  };
  fetch(row);
  for (; row < end; row += step) {
    __pipeline_wait_prior(0);
    softmax_kernels::HeldPacks<T, 8, 512, 4> held;
    held.valid = kLength - first;
#pragma unroll
    for (int u = 0; u < 4; ++u) memcpy(&held.raw[u], &next[u * 512 + tid], 16);
    if (row + step < end) fetch(row + step);
    int64_t out_off, x_off;
    softmax_kernels::row_offsets<uint32_t>(r.outer, row, &out_off, &x_off);
    const float m = cuda::group_reduce<512>(cuda::packed_max(held.raw), cuda::MaxOp{}, smem);
    if constexpr (SOFTMAX) {
      const float inv = 1.f / cuda::group_reduce<512>(held.exp_sum(m), cuda::SumOp{}, smem);
      held.store(out + out_off + first, m, inv);
    } else {
      const float s = cuda::group_reduce<512>(m, cuda::SumOp{}, smem);
      store_raw(out + out_off + first, held, s != s);
    }
  }
}

template <class T>
void sweep_prefetch() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  constexpr int rows = 4096;
  const size_t bytes = size_t(rows) * kLength * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  struct Arm {
    const char* name;
    Kernel<T> kernel;
    int grid;
    size_t smem;
  };
  const Arm arms[] = {{"library_online_held", softmax_kernels::online_held<T, 8, kThreads>, rows, 0},
                      {"held_copy", held_copy<T>, rows, 0},
                      {"prefetch_copy_2", held_prefetch<T, 2, false>, rows / 2, 32 << 10},
                      {"prefetch_copy_4", held_prefetch<T, 4, false>, rows / 4, 32 << 10},
                      {"prefetch_copy_persistent", held_prefetch<T, 0, false>, 3 * sms, 32 << 10},
                      {"held_prefetch_2", held_prefetch<T, 2, true>, rows / 2, 32 << 10},
                      {"held_prefetch_4", held_prefetch<T, 4, true>, rows / 4, 32 << 10},
                      {"held_prefetch_persistent", held_prefetch<T, 0, true>, 3 * sms, 32 << 10}};
  for (int rep = 0; rep < 2; ++rep)
    for (const Arm& a : arms) {
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        cudaLaunchAttribute attrs[2];
        const cuda::Stream stream{st, true};
        const dim3 grid{unsigned(a.grid)}, block{512u};
        cudaLaunchConfig_t cfg = cuda::launch_config(grid, block, 0, stream, attrs);
        cfg.dynamicSmemBytes = a.smem;
        CHECK(cudaLaunchKernelEx(&cfg, a.kernel, t.out[size_t(i)], static_cast<const T*>(t.x[size_t(i)]), r,
                                 cuda::trigger_for(grid, block, stream)));
      });
      std::printf("%s,%d,%s,%d,%.2f,%.3f\n", dtype_name<T>(), rows, a.name, rep, us, 2.0 * bytes / us * 1e-6);
      std::fflush(stdout);
    }
}

template <class T>
void sweep(const std::vector<int>& counts, int slots) {
  for (int rep = 0; rep < 2; ++rep)
    for (int rows : counts) {
      const double us = time_rows<T>(rows);
      const double bytes = 2.0 * rows * kLength * sizeof(T);
      std::printf("%s,%d,%.2f,%d,%.2f,%.4f,%.3f\n", dtype_name<T>(), rows, double(rows) / slots, rep, us, us / rows,
                  bytes / us * 1e-6);
      std::fflush(stdout);
    }
}

template <class T>
void sweep_shapes() {
  struct Shape {
    const char* name;
    Kernel<T> kernel;
    int threads;
    int smem_kb = 0;
  };
  const Shape shapes[] = {{"library_512x4", softmax_kernels::online_held<T, 8, kThreads>, 512},
                          {"library_512x4_2an_sm", softmax_kernels::online_held<T, 8, kThreads>, 512, 100},
                          {"held_warp_runs", held_warp_runs<T>, 512},
                          {"held_warp_runs_2an_sm", held_warp_runs<T, 2>, 512, 100},
                          {"held_256x8_b4", held_shape<T, 256, 8, 4>, 256},
                          {"held_cs", held_cs<T>, 512},
                          {"held_copy", held_copy<T>, 512},
                          {"rows_copy", rows_copy<T>, 512}};
  const double bytes = 2.0 * 4096 * kLength * sizeof(T);
  for (int rep = 0; rep < 2; ++rep) {
    for (const Shape& sh : shapes) {
      const double us = time_rows<T>(4096, sh.kernel, sh.threads, sh.smem_kb);
      std::printf("%s,4096,%s,%d,%.2f,%.3f\n", dtype_name<T>(), sh.name, rep, us, bytes / us * 1e-6);
      std::fflush(stdout);
    }
    const double us = time_copy<T>(4096);
    std::printf("%s,4096,copy_same_bytes,%d,%.2f,%.3f\n", dtype_name<T>(), rep, us, bytes / us * 1e-6);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "chunks") {
    sweep_chunks();
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "prefetch") {
    std::printf("dtype,rows,arm,rep,us,tbps\n");
    sweep_prefetch<half_t>();
    sweep_prefetch<bfloat16_t>();
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "long") {
    std::printf("dtype,rows,length,arm,rep,us,tbps\n");
    sweep_long<half_t>();
    sweep_long<bfloat16_t>();
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "clusters") {
    std::printf("dtype,rows,split,rep,us,tbps\n");
    sweep_clusters<half_t>();
    sweep_clusters<bfloat16_t>();
    return 0;
  }
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int slots = sms * kBlocksPerSm;
  const std::vector<int> counts = {10 * slots, 4096, 4224, 11 * slots};
  std::printf("dtype,rows,waves,rep,us,us_per_row,tbps\n");
  sweep<half_t>(counts, slots);
  sweep<bfloat16_t>(counts, slots);
  std::printf("dtype,rows,shape,rep,us,tbps\n");
  sweep_shapes<half_t>();
  sweep_shapes<bfloat16_t>();
  return 0;
}
