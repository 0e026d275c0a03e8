// What bounds a softmax row held between its read and its write (session 29, perf-notes "Session 29"). 16-bit
// softmax 4096x16384 runs at 4.02-4.06 TB/s (online_held) where a flat copy of the same 128 MiB in and out runs
// 4.15-4.17 and the target is 4.1. Five parts, each a mode (no argument: all five):
//   chunks:   copies of those bytes as chunks read whole, a block barrier, then written (the softmax's dependency
//             without its arithmetic), over threads a block, packs a thread, blocks an SM and a warp's layout.
//             Runs eo-eq: only one pack a thread in blocks of <= 512 threads reached 4.13-4.16; every other shape
//             3.90-4.08, whatever its chunk or bytes in flight. 256x2, the registers kernel's shape for 16-bit
//             rows of 4096 until session 40: 4.02-4.04 TB/s against 512x1's 4.13-4.15 (run gq).
//   clusters: the row split across a cluster in that fast shape (the library's cluster_registers on halves).
//             Run er: one pack a thread 2.50-2.66 TB/s (each CTA waits on the exchange); two packs 3.89-3.98.
//   long:     a 16-bit row of 65536 held whole by one CTA of 1024 x 8 (one block an SM) against cluster_online.
//             Run es: fp16 3.52 against 3.63 TB/s (nothing overlaps the reductions at one block an SM; its CSV
//             has no cluster columns, added when split came).
//   split:    long 16-bit rows (65536, 262144) held whole across a cluster, in registers, shared memory or both,
//             and the library's cluster_smem_held at the other lengths of its rule against online (`split rule`:
//             those alone). Runs ew, ex: 2 CTAs of 64 KB in shared memory 3.92 TB/s at 65536 against
//             cluster_online's 3.61 (now the library's kernel there); a tie or -2 % at 262144; 32776 29 % slower.
//             Run ez: as few packs a thread as hold the row (5-7) so both CTAs hold about half of it: 40000 in
//             2 x 20480 65.3 us against 32768 + 7232's 75.7; 262144 in 6 CTAs of 88 KB 73.0 against
//             cluster_online's 78.8 (5 x 104 KB 82.6, 4 x 128 KB 99.4).
//   shapes:   cluster_smem_held's clusters and packs a thread at 16-bit rows of 45056-262144 (run fa: clusters of
//             4 and 5 lose, 2, 3, 6 and 7 win, before session 31 aligned the slots; the table in
//             softmax_smem_held_table.cuh).
//   table:    the library's table of those against what it ran there before (runs fb, fc).
//   fives:    the table's 5-CTA entry against 6 and 7 CTAs of fewer packs, and clusters of 4 and 8 (run fe).
//   sizes:    one length in every cluster size: 131072 in 3-8 CTAs (for ncu: why 4, 5 and 8 lose), and 262144 in
//             6-8 CTAs and in non-portable clusters of 11, 12 and 16 (three CTAs an SM where 6 x 11 holds two).
//             `sizes half`: fp16 only; a trailing `ncu` launches each arm twice untimed (for ncu).
//   refit:    the table's entries against the cluster sizes that lost only to the slots' offset (session 31, fixed):
//             prepared in session 31, timed in session 32 (run fl), with 81920, 100000 and 147456 added.
//   staged:   cluster_smem_held's STAGED switch (a cp.async group a pack, the statistics online as each lands)
//             against the two-pass build in the same (CTAs, packs) (session 32, run fl: 0.6-2.4 % faster from 8
//             packs, 0.3 % slower at 5; the library's since).
//   refit2:   the refitted table, staged, against each entry's runner-up sizes, staged (session 32, run fm).
//   refit3:   the table refitted from refit2 against the one before it where they differ (session 32).
//   gaps:     the landed table at lengths between its timed points, and 8 x 9 against online at 294912 (session
//             32, prepared; run fp: the entries within 1.9 % of their neighbours, 8 x 9 37 % ahead of online).
//   beyond:   the 8-CTA entry past 294912 (10-16 packs, or 16 CTAs) against online, and the 4 / 8 boundary
//             (session 33, run fq: 36-39 % faster than online to 458752, 16 x 8 13 % ahead of 8 x 16 at 524288).
//   beyond2:  the table landed from it at its new boundaries, and 16 CTAs of 5-7 packs against 8 of 10-14 (run fr:
//             16 ahead by 3.8-5.4 %, so the 16-CTA entry starts at 294913).
//   beyond3:  16 CTAs of 10-14 packs against online at 655360-917504 (run ft: 42-51 % faster, landed).
//   fp32:     cluster_smem_held with fp32 packs, 16 CTAs of 8-14, against online (and cluster_registers at 262144;
//             runs fu, fv: 43-46 % faster than online, 2.4 % than cluster_registers, landed from 262144).
//   fp32b:    the same at 16 x 5-7 against cluster_registers at 140000-229376 (run fw: 42-57 % faster, whose
//             masked 16-CTA kernel held 7 clusters; landed from 131073).
//   fp32c:    the fp32 rows of 16385-131072 that cluster_registers keeps (2, 4, 8 CTAs, masked and full) against
//             cluster_smem_held in as many CTAs and twice as many (prepared after run fw).
//   prefetch: a CTA that fetches its next row by cp.async while it reduces and writes the current one.
//             Run ev: slower with every row a CTA (softmax 3.90 / 3.75 / 3.40 TB/s at 2 / 4 rows and persistent).
// (chunks, clusters, long and prefetch were modes of softmax_waves.cu when runs eo-ev ran them; their scripts and
// CSVs name them so.)
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_held_ceiling.cu -o softmax_held_ceiling
//   ./softmax_held_ceiling [chunks|clusters|long|split [rule]|shapes|table|fives|sizes [half]|refit|staged|refit2|
//                           refit3|gaps|beyond|beyond2|beyond3|fp32|fp32b|fp32c|prefetch] [ncu] > softmax_held_ceiling.csv
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ops/softmax/nvidia/softmax_cluster.cuh"
#include "ops/softmax/nvidia/softmax_smem_held_table.cuh"
#include "softmax_held_arms.cuh"

namespace {

// chunks: which shape of "read a chunk whole, then write it" moves these
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
                          {"256x1_2an_sm", chunk_copy<256, 1>, 256, 1, 100},
                          // The registers kernel's shape for 16-bit rows of 4096 (256 x 2 packs, 8 KB a block):
                          // whether softmax 32768x4096 halves (4.09 TB/s, session 39) sit at this shape's copy
                          // rate, and whether 512 x 1, the same 8 KB a pack a thread, moves it faster.
                          {"256x2", chunk_copy<256, 2>, 256, 2, 0}};
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

// clusters: run eq's copies moved 128 MiB at 4.13-4.16 TB/s only in
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

// One kernel of a long-row part at `rows` x `length`: CLUSTER CTAs a row (0: no cluster, one CTA a row) of THREADS
// threads with SMEM bytes of dynamic shared memory. time_arms times each arm twice, interleaved, and reports how
// many clusters the GPU holds at once.
template <class T>
struct Arm {
  const char* name;
  Kernel<T> kernel;
  int cluster, threads;
  size_t smem;
};

// Set by a trailing `ncu` argument: each arm is launched twice and not timed, so that a profiler filtered on the
// kernel's name sees every arm (ncu -k regex:cluster_smem_held ... softmax_held_ceiling sizes half ncu).
bool launch_only = false;

template <class T>
void time_arms(int rows, int length, const std::vector<Arm<T>>& arms) {
  const size_t bytes = size_t(rows) * length * sizeof(T);
  const int launches = launch_only ? 1 : launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const RowsOfDim r = contiguous_rows(rows, length, true);
  for (int rep = 0; rep < 2; ++rep)
    for (const Arm<T>& a : arms) {
      const unsigned cluster = unsigned(a.cluster > 0 ? a.cluster : 1);
      if (cluster > 8) CHECK(cudaFuncSetAttribute(a.kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      if (a.smem) CHECK(cudaFuncSetAttribute(a.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(a.smem)));
      cudaLaunchAttribute attrs[2];
      const dim3 grid{unsigned(rows) * cluster}, block{unsigned(a.threads)};
      const unsigned in_clusters = a.cluster > 0 ? cluster : 0;
      int resident = 0;
      if (in_clusters) {
        const cudaLaunchConfig_t probe = cuda::launch_config(dim3(cluster), block, cluster, {}, attrs, a.smem);
        CHECK(cudaOccupancyMaxActiveClusters(&resident, a.kernel, &probe));
      }
      if (launch_only) {
        CHECK(cuda::launch_in_clusters(a.kernel, grid, block, in_clusters, a.smem, cuda::Stream{nullptr, false},
                                       t.out[0], static_cast<const T*>(t.x[0]), r));
        CHECK(cudaDeviceSynchronize());
        std::printf("%s,%d,%d,%s,%d,%d,%d,launched,\n", dtype_name<T>(), rows, length, a.name, a.cluster, resident, rep);
        continue;
      }
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        CHECK(cuda::launch_in_clusters(a.kernel, grid, block, in_clusters, a.smem, cuda::Stream{st, true},
                                       t.out[size_t(i)], static_cast<const T*>(t.x[size_t(i)]), r));
      });
      std::printf("%s,%d,%d,%s,%d,%d,%d,%.2f,%.3f\n", dtype_name<T>(), rows, length, a.name, a.cluster, resident, rep,
                  us, 2.0 * bytes / us * 1e-6);
      std::fflush(stdout);
    }
}

// long: a 16-bit row of 65536 held whole by one CTA, one block an SM
// (1024 threads x 8 packs: 32 registers of raw packs a thread, 128 KB an SM in flight), against the library's
// cluster_online (4 CTAs of 512 threads, each streaming 32 KB twice, the second time from L2) at 1024x65536.
// Session 19's cluster_held (4 CTAs each holding 32 KB) lost to online_held's rate by 14 % waiting on its
// cluster; a CTA that holds the whole row waits on nobody.
template <class T>
void sweep_long() {
  time_arms<T>(1024, 65536, {{"library_cluster_online_4x512", softmax_kernels::cluster_online<T, 8, 512, 4>, 4, 512, 0},
                             {"held_1024x8_b1", held_shape<T, 1024, 8, 1>, 0, 1024, 0},
                             {"held_512x16_b1", held_shape<T, 512, 16, 1>, 0, 512, 0}});
}

// prefetch: the one structure runs eo-er left untimed, a CTA that
// loads its next row while it reduces and writes the current one, so that no thread of it waits through a
// reduction with nothing in flight. Each thread copies its four packs of the next row into its own 64 bytes of
// shared memory by cp.async (16 bytes each, L1 bypassed) and reads back only those, so the buffer needs no
// barrier; the row in registers is the library's raw packs (40 registers, three blocks an SM). ROWS rows a CTA,
// consecutive (2 or 4: 2048 or 1024 CTAs), or ROWS = 0: a persistent grid of three CTAs an SM striding the rows.
// SOFTMAX false: the same loop storing the packs unchanged after both reductions (held_copy's structure).
// Rows of exactly 16384 only (no masks), as the sweep's. Run ev: every arm slower than online_held and the more
// rows a CTA the slower (copy 3.99 / 3.89 / 3.70 TB/s at 2 / 4 rows and persistent; softmax 3.90 / 3.75 / 3.40).
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

// split: a long 16-bit row held whole across a cluster whose CTAs keep more than registers allow. Each CTA of
// CLUSTER holds its part of 512 x (4 + SP) packs: online_held's 4 raw packs a thread in registers and SP more in
// the thread's own slots of dynamic shared memory (cp.async, 16 bytes each, read back only by the thread that
// copied them, so no barrier), at 40 registers and three blocks an SM while SP <= 4 (32 KB). The row is read
// from HBM once and written from what is held; the CTAs trade one (max, sum) pair (cluster_combine). Runs
// er-es: a cluster of 2 cost ~2 % at 16384 and held rows need three blocks an SM; cluster_online (4 x 512 at
// 65536, 16 x 512 at 262144) streams each part twice, the second time from L2.
template <class T, int CLUSTER, int RP, int SP>
__global__ void __launch_bounds__(512, (SP <= 8 ? 3 : 2)) cluster_held_smem(T* out, const T* x, RowsOfDim r,
                                                                              cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using Pack = cuda::Pack<T, 8>;
  constexpr int kStride = 512 * 8, kPart = kStride * (RP + SP);
  __shared__ uint64_t arrived;
  softmax_kernels::start_exchange<true>(&arrived);
  __shared__ softmax_kernels::Online warps[16], every[CLUSTER];
  extern __shared__ uint4 slots[];  // 512 x SP
  const int tid = int(threadIdx.x), rank = int(cooperative_groups::this_cluster().block_rank());
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x / CLUSTER, &out_off, &x_off);
  const T* px = x + x_off + int64_t(rank) * kPart + tid * 8;
  T* po = out + out_off + int64_t(rank) * kPart + tid * 8;
#pragma unroll
  for (int q = 0; q < SP; ++q) __pipeline_memcpy_async(&slots[q * 512 + tid], px + (RP + q) * kStride, 16);
  __pipeline_commit();
  float m = -INFINITY;
  softmax_kernels::HeldPacks<T, 8, 512, (RP > 0 ? RP : 1)> held;
  if constexpr (RP > 0) {
    held.valid = kPart - tid * 8;
    m = held.load(px);
  }
  __pipeline_wait_prior(0);
  auto slot = [&](int q) {
    const uint4 v = softmax_kernels::read_slot(&slots[q * 512 + tid]);
    Pack pk[1];
    memcpy(&pk[0], &v, 16);
    return pk[0];
  };
#pragma unroll
  for (int q = 0; q < SP; ++q) {
    const Pack pk[1] = {slot(q)};
    m = fmaxf(m, cuda::packed_max(pk));
  }
  softmax_kernels::Online own;
  own.m = m;
  own.s = 0.f;
  if constexpr (RP > 0) own.s = held.exp_sum(m);
#pragma unroll
  for (int q = 0; q < SP; ++q) {
    const Pack pk = slot(q);
    uint32_t w[4];
    memcpy(w, &pk, 16);
#pragma unroll
    for (int k = 0; k < 4; ++k)
      own.s += softmax_kernels::exp_of_difference(cuda::widen_half<T, 0>(w[k]), m) +
               softmax_kernels::exp_of_difference(cuda::widen_half<T, 1>(w[k]), m);
  }
  const softmax_kernels::Online row = softmax_kernels::cluster_combine<512, CLUSTER, true>(own, warps, every, &arrived);
  const float inv = 1.f / row.s;
  if constexpr (RP > 0) held.store(po, row.m, inv);
#pragma unroll
  for (int q = 0; q < SP; ++q) softmax_kernels::write_pack(po + (RP + q) * kStride, slot(q), row.m, inv);
#endif
}

template <class T>
void sweep_split(int rows, int length) {
  constexpr size_t kB = 512 * 16;  // a pack a thread of shared memory
  if (length == 65536)
    time_arms<T>(rows, length,
                 {{"library_cluster_online", softmax_kernels::cluster_online<T, 8, 512, 4>, 4, 512, 0},
                  {"held_r4", cluster_held_smem<T, 4, 4, 0>, 4, 512, 0},
                  {"held_s4", cluster_held_smem<T, 4, 0, 4>, 4, 512, 4 * kB},
                  {"held_r4_s4", cluster_held_smem<T, 2, 4, 4>, 2, 512, 4 * kB},
                  {"held_s8", cluster_held_smem<T, 2, 0, 8>, 2, 512, 8 * kB},
                  {"library_cluster_smem_held", softmax_kernels::cluster_smem_held<T, 8, 512, 8, 2, false>, 2, 512,
                   8 * kB}});
  else if (length == 262144)
    time_arms<T>(rows, length,
                 {{"library_cluster_online", softmax_kernels::cluster_online<T, 8, 512, 16>, 16, 512, 0},
                  {"held_r4", cluster_held_smem<T, 16, 4, 0>, 16, 512, 0},
                  {"held_s4", cluster_held_smem<T, 16, 0, 4>, 16, 512, 4 * kB},
                  {"held_r4_s4", cluster_held_smem<T, 8, 4, 4>, 8, 512, 4 * kB},
                  {"held_s8", cluster_held_smem<T, 8, 0, 8>, 8, 512, 8 * kB},
                  // fewer CTAs a cluster, more shared memory each (session 30): 2 CTAs an SM at 11-13 packs, 1 at 16
                  {"smem_held_c6_p11", softmax_kernels::cluster_smem_held<T, 8, 512, 11, 6, false>, 6, 512, 11 * kB},
                  {"smem_held_c5_p13", softmax_kernels::cluster_smem_held<T, 8, 512, 13, 5, false>, 5, 512, 13 * kB},
                  {"smem_held_c4_p16", softmax_kernels::cluster_smem_held<T, 8, 512, 16, 4, false>, 4, 512, 16 * kB}});
  else {  // the rule's other lengths: what the library ran there before cluster_smem_held, the library's 8 packs,
          // and (not yet run) as few packs as hold the row, so both CTAs hold about half of it
    std::vector<Arm<T>> arms = {
        {"library_online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0},
        {"library_cluster_smem_held", softmax_kernels::cluster_smem_held<T, 8, 512, 8, 2, false>, 2, 512, 8 * kB}};
    const int packs = (length + 2 * 512 * 8 - 1) / (2 * 512 * 8);
    const Kernel<T> fewer[] = {softmax_kernels::cluster_smem_held<T, 8, 512, 5, 2, false>,
                               softmax_kernels::cluster_smem_held<T, 8, 512, 6, 2, false>,
                               softmax_kernels::cluster_smem_held<T, 8, 512, 7, 2, false>};
    static const char* names[] = {"cluster_smem_held_p5", "cluster_smem_held_p6", "cluster_smem_held_p7"};
    if (packs >= 5 && packs <= 7) arms.push_back({names[packs - 5], fewer[packs - 5], 2, 512, size_t(packs) * kB});
    time_arms<T>(rows, length, arms);
  }
}

// shapes (session 30): cluster_smem_held in clusters of C CTAs holding P packs a thread (P x 8 KB a CTA) against
// cluster_online where the library runs it, at 16-bit rows between the two that run ez measured (65536 in 2 x 8,
// 262144 in 6 x 11: 73.0 against 78.8 us), and P = 6-8 at 2 CTAs for the shorter rule's lengths. Each length
// takes the fewest CTAs of at most 11 packs (two CTAs an SM) and the fewest of at most 8 (three an SM).
// The kernel as sessions 29-31 timed it (STAGED false: one cp.async group, then a pass over the slots for the max
// and one for the sum); the library's has been STAGED since session 32 (run fl), and so is library_choice.
template <class T, int C, int P>
Arm<T> smem_held(const char* name) {
  return {name, softmax_kernels::cluster_smem_held<T, 8, 512, P, C, false>, C, 512, size_t(P) * 512 * 16};
}

template <class T, int C, int P>
Arm<T> smem_held_staged(const char* name) {
  return {name, softmax_kernels::cluster_smem_held<T, 16 / sizeof(T), 512, P, C, true>, C, 512, size_t(P) * 512 * 16};
}

template <class T, int C>
Arm<T> online_in(const char* name) {
  return {name, softmax_kernels::cluster_online<T, 8, 512, C>, C, 512, 0};
}

template <class T>
void sweep_shapes() {
  time_arms<T>(1489, 45056, {{"library_online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0},
                             smem_held<T, 2, 6>("smem_held_c2_p6")});
  time_arms<T>(1260, 53248, {{"library_online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0},
                             smem_held<T, 2, 7>("smem_held_c2_p7")});
  time_arms<T>(1092, 61440, {{"library_online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0},
                             smem_held<T, 2, 8>("smem_held_c2_p8")});
  time_arms<T>(819, 81920, {online_in<T, 8>("library_cluster_online"), smem_held<T, 2, 10>("smem_held_c2_p10"),
                            smem_held<T, 3, 7>("smem_held_c3_p7")});
  time_arms<T>(682, 98304, {online_in<T, 8>("library_cluster_online"), smem_held<T, 3, 8>("smem_held_c3_p8"),
                            smem_held<T, 2, 12>("smem_held_c2_p12")});
  time_arms<T>(512, 131072, {online_in<T, 8>("library_cluster_online"), smem_held<T, 3, 11>("smem_held_c3_p11"),
                             smem_held<T, 4, 8>("smem_held_c4_p8")});
  time_arms<T>(409, 163840, {online_in<T, 16>("library_cluster_online"), smem_held<T, 4, 10>("smem_held_c4_p10"),
                             smem_held<T, 5, 8>("smem_held_c5_p8")});
  time_arms<T>(341, 196608, {online_in<T, 16>("library_cluster_online"), smem_held<T, 5, 10>("smem_held_c5_p10"),
                             smem_held<T, 6, 8>("smem_held_c6_p8")});
  time_arms<T>(292, 229376, {online_in<T, 16>("library_cluster_online"), smem_held<T, 6, 10>("smem_held_c6_p10"),
                             smem_held<T, 7, 8>("smem_held_c7_p8")});
  time_arms<T>(256, 262144, {online_in<T, 16>("library_cluster_online"), smem_held<T, 6, 11>("smem_held_c6_p11"),
                             smem_held<T, 7, 10>("smem_held_c7_p10"), smem_held<T, 8, 8>("smem_held_c8_p8")});
}

// table (session 30): the library's cluster_smem_held choice (softmax_smem_held_table.cuh) at lengths inside its
// entries, against what the library ran there before. Run fb timed a build whose packs a thread were counted at run
// time (one kernel per cluster size): 1-3 % slower than runs ez and fa's kernels built for their packs, with the
// same references; the library builds each (CTAs, packs) pair since.
template <class T>
Arm<T> library_choice(int64_t length) {
  const int shape = softmax_kernels::smem_held_shape<softmax_kernels::kSmemHeldVec<T>>(length);
  return {"library_smem_held", softmax_kernels::smem_held_kernel<T>(shape),
          softmax_kernels::smem_held_cluster<T>(shape), 512, softmax_kernels::smem_held_bytes<T>(shape)};
}

template <class T>
void sweep_table() {
  const Arm<T> online = {"online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0};
  time_arms<T>(1640, 40000, {online, library_choice<T>(40000)});
  time_arms<T>(1365, 49152, {online, library_choice<T>(49152)});
  time_arms<T>(1024, 65536, {online_in<T, 4>("cluster_online"), library_choice<T>(65536)});
  time_arms<T>(819, 81920, {online_in<T, 8>("cluster_online"), library_choice<T>(81920)});
  time_arms<T>(671, 100000, {online_in<T, 8>("cluster_online"), library_choice<T>(100000)});
  time_arms<T>(512, 131072, {online_in<T, 8>("cluster_online"), library_choice<T>(131072)});
  time_arms<T>(479, 140000, {online_in<T, 16>("cluster_online"), library_choice<T>(140000)});
  time_arms<T>(341, 196608, {online_in<T, 16>("cluster_online"), library_choice<T>(196608)});
  time_arms<T>(335, 200000, {online_in<T, 16>("cluster_online"), library_choice<T>(200000)});
  time_arms<T>(256, 262144, {online_in<T, 16>("cluster_online"), library_choice<T>(262144)});
}

// fives (session 30, after run fc): the table's 5-CTA entry (135169-163840, ~77 us where its neighbours run 68-71)
// against 6 and 7 CTAs of fewer packs, and clusters of 4 and 8 beside them, to ask whether the cluster size or the
// packs a thread make 4 and 5 lose.
template <class T>
void sweep_fives() {
  time_arms<T>(512, 131072, {library_choice<T>(131072), smem_held<T, 4, 8>("smem_held_c4_p8"),
                             smem_held<T, 6, 6>("smem_held_c6_p6"), smem_held<T, 8, 4>("smem_held_c8_p4")});
  time_arms<T>(455, 147456, {library_choice<T>(147456), smem_held<T, 4, 9>("smem_held_c4_p9"),
                             smem_held<T, 6, 6>("smem_held_c6_p6"), smem_held<T, 7, 6>("smem_held_c7_p6")});
  time_arms<T>(409, 163840, {library_choice<T>(163840), smem_held<T, 6, 7>("smem_held_c6_p7"),
                             smem_held<T, 7, 6>("smem_held_c7_p6"), smem_held<T, 8, 5>("smem_held_c8_p5")});
}

// sizes (session 31): session 30's fives had clusters of 4, 5 and 8 ~10 % slower than 3, 6 and 7 whatever the packs
// a thread. One length in each size, so ncu can compare them kernel by kernel; and 262144 (6 x 11 packs, 88 KB a
// CTA, two CTAs an SM: 72.7 us, 3.69 TB/s) in clusters past the portable 8 that hold three CTAs an SM.
template <class T>
void sweep_sizes() {
  time_arms<T>(512, 131072, {library_choice<T>(131072), smem_held<T, 4, 8>("smem_held_c4_p8"),
                             smem_held<T, 5, 7>("smem_held_c5_p7"), smem_held<T, 6, 6>("smem_held_c6_p6"),
                             smem_held<T, 7, 5>("smem_held_c7_p5"), smem_held<T, 8, 4>("smem_held_c8_p4")});
  time_arms<T>(256, 262144, {library_choice<T>(262144), smem_held<T, 7, 10>("smem_held_c7_p10"),
                             smem_held<T, 8, 8>("smem_held_c8_p8"), smem_held<T, 11, 6>("smem_held_c11_p6"),
                             smem_held<T, 12, 6>("smem_held_c12_p6"), smem_held<T, 16, 4>("smem_held_c16_p4")});
}

// refit (session 31, prepared after run fj; session 32 added 81920, 100000 and 147456): with the slots aligned,
// clusters of 4, 5 and 8 no longer lose by ~10 % (131072 in 4 x 8 68.0 us against the 3 x 11 entry's 70.1), so each
// entry of kSmemHeldTable, which was fitted while they lost, meets the sizes that fill its length with whole packs.
template <class T>
void sweep_refit() {
  time_arms<T>(1024, 65536, {library_choice<T>(65536), smem_held<T, 4, 4>("smem_held_c4_p4")});
  time_arms<T>(819, 81920, {library_choice<T>(81920), smem_held<T, 4, 5>("smem_held_c4_p5"),
                            smem_held<T, 5, 4>("smem_held_c5_p4")});
  time_arms<T>(682, 98304, {library_choice<T>(98304), smem_held<T, 4, 6>("smem_held_c4_p6"),
                            smem_held<T, 6, 4>("smem_held_c6_p4")});
  time_arms<T>(671, 100000, {library_choice<T>(100000), smem_held<T, 4, 7>("smem_held_c4_p7"),
                             smem_held<T, 5, 5>("smem_held_c5_p5")});
  time_arms<T>(512, 131072, {library_choice<T>(131072), smem_held<T, 4, 8>("smem_held_c4_p8"),
                             smem_held<T, 8, 4>("smem_held_c8_p4")});
  time_arms<T>(455, 147456, {library_choice<T>(147456), smem_held<T, 4, 9>("smem_held_c4_p9"),
                             smem_held<T, 8, 5>("smem_held_c8_p5")});
  time_arms<T>(409, 163840, {library_choice<T>(163840), smem_held<T, 5, 8>("smem_held_c5_p8"),
                             smem_held<T, 8, 5>("smem_held_c8_p5")});
  time_arms<T>(341, 196608, {library_choice<T>(196608), smem_held<T, 8, 6>("smem_held_c8_p6")});
  time_arms<T>(292, 229376, {library_choice<T>(229376), smem_held<T, 8, 7>("smem_held_c8_p7")});
  time_arms<T>(256, 262144, {library_choice<T>(262144), smem_held<T, 6, 11>("smem_held_c6_p11")});
  time_arms<T>(248, 270336, {library_choice<T>(270336), smem_held<T, 8, 9>("smem_held_c8_p9")});
}

// staged (session 32, run fl): cluster_smem_held with each pack its own cp.async group and the (max, sum) taken
// online as each lands (STAGED, now the library's), against one group and two passes over the slots (smem_held), in
// the same (CTAs, packs).
template <class T>
void sweep_staged() {
  time_arms<T>(1640, 40000, {smem_held<T, 2, 5>("smem_held_c2_p5"), smem_held_staged<T, 2, 5>("staged_c2_p5")});
  time_arms<T>(1024, 65536, {smem_held<T, 2, 8>("smem_held_c2_p8"), smem_held_staged<T, 2, 8>("staged_c2_p8")});
  time_arms<T>(512, 131072, {smem_held<T, 4, 8>("smem_held_c4_p8"), smem_held_staged<T, 4, 8>("staged_c4_p8")});
  time_arms<T>(341, 196608, {smem_held<T, 6, 8>("smem_held_c6_p8"), smem_held_staged<T, 6, 8>("staged_c6_p8")});
  time_arms<T>(256, 262144, {smem_held<T, 8, 8>("smem_held_c8_p8"), smem_held_staged<T, 8, 8>("staged_c8_p8")});
  time_arms<T>(248, 270336, {smem_held<T, 6, 11>("smem_held_c6_p11"), smem_held_staged<T, 6, 11>("staged_c6_p11")});
}

// refit2 (session 32, after run fl): the table as refitted, with STAGED, against the staged kernel in each entry's
// runner-up sizes, and the two-pass kernel (smem_held) in the entry's own size. 165000: 8 CTAs of 6 packs, the last
// holding none of the row, against 6 of 7.
template <class T>
void sweep_refit2() {
  time_arms<T>(1024, 65536, {library_choice<T>(65536), smem_held_staged<T, 4, 4>("staged_c4_p4"),
                             smem_held<T, 2, 8>("two_pass_c2_p8")});
  time_arms<T>(819, 81920, {library_choice<T>(81920), smem_held_staged<T, 3, 7>("staged_c3_p7"),
                            smem_held<T, 4, 5>("two_pass_c4_p5")});
  time_arms<T>(671, 100000, {library_choice<T>(100000), smem_held_staged<T, 3, 9>("staged_c3_p9"),
                             smem_held_staged<T, 5, 5>("staged_c5_p5")});
  time_arms<T>(512, 131072, {library_choice<T>(131072), smem_held_staged<T, 6, 6>("staged_c6_p6"),
                             smem_held_staged<T, 3, 11>("staged_c3_p11"), smem_held<T, 4, 8>("two_pass_c4_p8")});
  time_arms<T>(455, 147456, {library_choice<T>(147456), smem_held_staged<T, 4, 9>("staged_c4_p9"),
                             smem_held_staged<T, 8, 5>("staged_c8_p5")});
  time_arms<T>(409, 163840, {library_choice<T>(163840), smem_held_staged<T, 8, 5>("staged_c8_p5"),
                             smem_held_staged<T, 5, 8>("staged_c5_p8")});
  time_arms<T>(406, 165000, {library_choice<T>(165000), smem_held_staged<T, 6, 7>("staged_c6_p7")});
  time_arms<T>(341, 196608, {library_choice<T>(196608), smem_held_staged<T, 6, 8>("staged_c6_p8"),
                             smem_held<T, 8, 6>("two_pass_c8_p6")});
  time_arms<T>(292, 229376, {library_choice<T>(229376), smem_held_staged<T, 7, 8>("staged_c7_p8")});
  time_arms<T>(256, 262144, {library_choice<T>(262144), smem_held_staged<T, 6, 11>("staged_c6_p11")});
  time_arms<T>(248, 270336, {library_choice<T>(270336), smem_held_staged<T, 6, 11>("staged_c6_p11"),
                             smem_held<T, 8, 9>("two_pass_c8_p9")});
}

// refit3 (session 32, after run fm): run fn's table (2 CTAs to 49152, 4 to 131072, 8 to 270336) against the one run
// fm ran (2 to 65536, 6 for 131073-163840), both staged, at the lengths where they differ, and 49152 in 4 CTAs. Run
// fn moved the 2-CTA entry's end to 57344 (53248 bf16 in 4 x 4 70.9 us against 2 x 7's 67.4), so at 53248 and 57344
// both arms are now 2 x 7.
template <class T>
void sweep_refit3() {
  time_arms<T>(1365, 49152, {library_choice<T>(49152), smem_held_staged<T, 4, 3>("staged_c4_p3")});
  time_arms<T>(1260, 53248, {library_choice<T>(53248), smem_held_staged<T, 2, 7>("staged_c2_p7")});
  time_arms<T>(1170, 57344, {library_choice<T>(57344), smem_held_staged<T, 2, 7>("staged_c2_p7")});
  time_arms<T>(1092, 61440, {library_choice<T>(61440), smem_held_staged<T, 2, 8>("staged_c2_p8")});
  time_arms<T>(1024, 65536, {library_choice<T>(65536), smem_held_staged<T, 2, 8>("staged_c2_p8")});
  time_arms<T>(496, 135168, {library_choice<T>(135168), smem_held_staged<T, 6, 6>("staged_c6_p6")});
  time_arms<T>(479, 140000, {library_choice<T>(140000), smem_held_staged<T, 6, 6>("staged_c6_p6")});
  time_arms<T>(455, 147456, {library_choice<T>(147456), smem_held_staged<T, 6, 6>("staged_c6_p6")});
  time_arms<T>(409, 163840, {library_choice<T>(163840), smem_held_staged<T, 6, 7>("staged_c6_p7")});
}

// gaps (session 32, prepared after run fo; timed in session 33's run fp, results in docs/perf-notes.md): run fn found 53248 bf16 5 % slower in a shape nobody had
// timed there, so the landed table (2 CTAs to 57344, 4 to 131072, 8 to 270336) meets its neighbours at lengths
// between the timed points, and 8 CTAs of 9 packs meet `online` (16-bit rows past 270336 run an `online` kernel) at
// 294912.
template <class T>
void sweep_gaps() {
  time_arms<T>(910, 73728, {library_choice<T>(73728), smem_held_staged<T, 2, 9>("staged_c2_p9"),
                            smem_held_staged<T, 3, 6>("staged_c3_p6")});
  time_arms<T>(745, 90112, {library_choice<T>(90112), smem_held_staged<T, 3, 8>("staged_c3_p8"),
                            smem_held_staged<T, 6, 4>("staged_c6_p4")});
  time_arms<T>(630, 106496, {library_choice<T>(106496), smem_held_staged<T, 5, 6>("staged_c5_p6"),
                             smem_held_staged<T, 6, 5>("staged_c6_p5")});
  time_arms<T>(546, 122880, {library_choice<T>(122880), smem_held_staged<T, 6, 5>("staged_c6_p5"),
                             smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(390, 172032, {library_choice<T>(172032), smem_held_staged<T, 6, 7>("staged_c6_p7"),
                             smem_held_staged<T, 7, 6>("staged_c7_p6")});
  time_arms<T>(356, 188416, {library_choice<T>(188416), smem_held_staged<T, 6, 8>("staged_c6_p8"),
                             smem_held_staged<T, 7, 7>("staged_c7_p7")});
  time_arms<T>(328, 204800, {library_choice<T>(204800), smem_held_staged<T, 6, 9>("staged_c6_p9"),
                             smem_held_staged<T, 7, 8>("staged_c7_p8")});
  time_arms<T>(282, 237568, {library_choice<T>(237568), smem_held_staged<T, 7, 9>("staged_c7_p9")});
  time_arms<T>(264, 253952, {library_choice<T>(253952), smem_held_staged<T, 7, 9>("staged_c7_p9")});
  time_arms<T>(228, 294912, {{"online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0},
                             smem_held_staged<T, 8, 9>("staged_c8_p9")});
}

// beyond (session 33, after run fp): run fp's gaps put 8 x 9 at 294912 37 % ahead of the `online` kernel that 16-bit
// rows past 270336 run (no cluster_online past 16 x 32 KB), so the 8-CTA entry grows to 294912 with no new kernel.
// Past it, 8 CTAs of 10-14 packs (80-112 KB: two CTAs an SM) and of 16 (one), or 16 of 8 (non-portable, three an
// SM), against `online`. And the 4 / 8 boundary: 122880 ran 8 x 4 1.5-1.9 % ahead of the 4 x 8 entry in run fp.
template <class T>
void sweep_beyond() {
  const Arm<T> online = {"online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0};
  time_arms<T>(572, 114696, {library_choice<T>(114696), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(546, 122880, {library_choice<T>(122880), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(528, 126976, {library_choice<T>(126976), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(512, 131072, {library_choice<T>(131072), smem_held_staged<T, 8, 4>("staged_c8_p4"),
                             smem_held_staged<T, 6, 6>("staged_c6_p6")});
  time_arms<T>(240, 280000, {library_choice<T>(280000), online});  // 8 x 9, the last CTA part-filled
  time_arms<T>(204, 327680, {online, smem_held_staged<T, 8, 10>("staged_c8_p10")});
  time_arms<T>(186, 360448, {online, smem_held_staged<T, 8, 11>("staged_c8_p11")});
  time_arms<T>(170, 393216, {online, smem_held_staged<T, 8, 12>("staged_c8_p12")});
  time_arms<T>(157, 425984, {online, smem_held_staged<T, 8, 13>("staged_c8_p13")});
  time_arms<T>(146, 458752, {online, smem_held_staged<T, 8, 14>("staged_c8_p14")});
  time_arms<T>(128, 524288, {online, smem_held_staged<T, 8, 16>("staged_c8_p16"),
                             smem_held_staged<T, 16, 8>("staged_c16_p8")});
}

// beyond2 (session 33, after run fq): the table as landed from runs fp and fq (4 CTAs to 114688, 8 to 458752, 16 to
// 524288) at its new boundaries, and 16 CTAs of 5-7 packs (three CTAs an SM) against its 8 of 10-14 (two): 16 x 8
// beat 8 x 16 by 13 % at 524288. 500000: 16 x 8 whose last two CTAs hold none of the row; 589824 in 16 x 9 against
// online (past the table).
template <class T>
void sweep_beyond2() {
  const Arm<T> online = {"online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0};
  time_arms<T>(585, 114688, {library_choice<T>(114688), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(572, 114696, {library_choice<T>(114696), smem_held_staged<T, 4, 8>("staged_c4_p8")});
  time_arms<T>(204, 327680, {library_choice<T>(327680), smem_held_staged<T, 16, 5>("staged_c16_p5")});
  time_arms<T>(170, 393216, {library_choice<T>(393216), smem_held_staged<T, 16, 6>("staged_c16_p6")});
  time_arms<T>(146, 458752, {library_choice<T>(458752), smem_held_staged<T, 16, 7>("staged_c16_p7")});
  time_arms<T>(134, 500000, {library_choice<T>(500000), online});
  time_arms<T>(113, 589824, {online, smem_held_staged<T, 16, 9>("staged_c16_p9")});
}

// beyond3 (session 33, prepared after run fs, not timed): 16-bit rows past the table's 589824 still run `online`
// (~2.3 TB/s). 16 CTAs of 10-14 packs (80-112 KB: two CTAs an SM) would hold them to 917504, the most one cluster of
// the H200 holds; 8 CTAs of 10-14 ran 1-4 % over 8 x 9 in run fq, so each is predicted ~69-72 us against online.
template <class T>
void sweep_beyond3() {
  const Arm<T> online = {"online_1024", softmax_kernels::online<T, 8, 1024>, 0, 1024, 0};
  time_arms<T>(102, 655360, {online, smem_held_staged<T, 16, 10>("staged_c16_p10")});
  time_arms<T>(93, 720896, {online, smem_held_staged<T, 16, 11>("staged_c16_p11")});
  time_arms<T>(85, 786432, {online, smem_held_staged<T, 16, 12>("staged_c16_p12")});
  time_arms<T>(78, 851968, {online, smem_held_staged<T, 16, 13>("staged_c16_p13")});
  time_arms<T>(73, 917504, {online, smem_held_staged<T, 16, 14>("staged_c16_p14")});
}

// fp32 (session 34, runs fu and fv): fp32 rows past 262144 ran `online` (cluster_registers holds at most 16 x 512 x 32
// values, cluster_online 16 x 32 KB) at ~2.2 TB/s. cluster_smem_held with 4-value packs (8 KB a pack of a CTA, as
// for halves) holds 16 x 14 x 2048 = 458752 of them, the bytes its 16-bit rows of 917504 hold; at 262144 it is timed
// against the library's cluster_registers (16 CTAs of 512 threads x 8 packs in registers).
void sweep_fp32() {
  using T = float;
  const Arm<T> online = {"online_1024", softmax_kernels::online<T, 4, 1024>, 0, 1024, 0};
  time_arms<T>(128, 262144, {{"library_cluster_registers", softmax_kernels::cluster_registers<T, 4, 512, 8, 16, true>,
                              16, 512, 0},
                             smem_held_staged<T, 16, 8>("staged_c16_p8")});
  time_arms<T>(113, 294912, {online, smem_held_staged<T, 16, 9>("staged_c16_p9")});
  time_arms<T>(102, 327680, {online, smem_held_staged<T, 16, 10>("staged_c16_p10")});
  time_arms<T>(85, 393216, {online, smem_held_staged<T, 16, 12>("staged_c16_p12")});
  time_arms<T>(73, 458752, {online, smem_held_staged<T, 16, 14>("staged_c16_p14")});
}

// fp32b (session 34, prepared after run fv; run fw: held 67.0-67.8 us against 111.4-155.0): fp32 rows of 131073-262143 run cluster_registers' masked
// 16 x 512 x 8 entry (14 clusters resident); 16 CTAs of 5-7 packs in shared memory fit three an SM (21), which won
// 2.4 % at 262144 (run fu). 140000: 16 x 5 whose last CTA holds a part-filled part.
void sweep_fp32b() {
  using T = float;
  const Arm<T> registers = {"library_cluster_registers", softmax_kernels::cluster_registers<T, 4, 512, 8, 16, false>,
                            16, 512, 0};
  time_arms<T>(240, 140000, {registers, smem_held_staged<T, 16, 5>("staged_c16_p5")});
  time_arms<T>(205, 163840, {registers, smem_held_staged<T, 16, 5>("staged_c16_p5")});
  time_arms<T>(171, 196608, {registers, smem_held_staged<T, 16, 6>("staged_c16_p6")});
  time_arms<T>(146, 229376, {registers, smem_held_staged<T, 16, 7>("staged_c16_p7")});
}

// fp32c (session 35, prepared after run fw): run fw timed cluster_registers' masked 16-CTA kernel at 7 clusters
// resident and 1.7-2.4 TB/s (fp32b: 16 x 5-7 held in shared memory 42-57 % faster, landed from 131073). The
// library's other fp32 clusters are in registers too: 2, 4 and 8 CTAs, masked below each entry's length and unmasked
// at it (32768 2 x 512 x 8, 65536 4 x, 131072 8 x: 4.12 TB/s at 1024x65536 in the bench). Each against
// cluster_smem_held in the CTAs the 16-bit table gives the same bytes (fp32 rows to 28672 in 2, 57344 in 4, 147456
// in 8) and in twice as many.
template <int C, bool FULL>
Arm<float> registers_in(const char* name) {
  return {name, softmax_kernels::cluster_registers<float, 4, 512, 8, C, FULL>, C, 512, 0};
}

void sweep_fp32c() {
  using T = float;
  time_arms<T>(1398, 24000, {registers_in<2, false>("library_registers_c2_masked"),
                             smem_held_staged<T, 2, 6>("staged_c2_p6"), smem_held_staged<T, 4, 3>("staged_c4_p3")});
  time_arms<T>(1024, 32768, {registers_in<2, true>("library_registers_c2_full"),
                             smem_held_staged<T, 2, 8>("staged_c2_p8"), smem_held_staged<T, 4, 4>("staged_c4_p4")});
  time_arms<T>(671, 50000, {registers_in<4, false>("library_registers_c4_masked"),
                            smem_held_staged<T, 4, 7>("staged_c4_p7"), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(512, 65536, {registers_in<4, true>("library_registers_c4_full"),
                            smem_held_staged<T, 4, 8>("staged_c4_p8"), smem_held_staged<T, 8, 4>("staged_c8_p4")});
  time_arms<T>(335, 100000, {registers_in<8, false>("library_registers_c8_masked"),
                             smem_held_staged<T, 8, 7>("staged_c8_p7"), smem_held_staged<T, 16, 4>("staged_c16_p4")});
  time_arms<T>(256, 131072, {registers_in<8, true>("library_registers_c8_full"),
                             smem_held_staged<T, 8, 8>("staged_c8_p8"), smem_held_staged<T, 16, 4>("staged_c16_p4")});
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  launch_only = std::string(argv[argc - 1]) == "ncu";
  if (mode == "all" || mode == "chunks") sweep_chunks();
  if (mode == "all" || mode == "clusters") {
    std::printf("dtype,rows,split,rep,us,tbps\n");
    sweep_clusters<half_t>();
    sweep_clusters<bfloat16_t>();
  }
  if (mode == "all" || mode == "long") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep_long<half_t>();
    sweep_long<bfloat16_t>();
  }
  if (mode == "all" || mode == "split") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    const bool rule = argc > 2 && std::string(argv[2]) == "rule";  // the library's rule's other lengths only
    if (!rule) {
      sweep_split<half_t>(1024, 65536);
      sweep_split<bfloat16_t>(1024, 65536);
      sweep_split<half_t>(256, 262144);
      sweep_split<bfloat16_t>(256, 262144);
    }
    for (const auto& [rows, length] : {std::pair{2048, 32776}, {1640, 40000}, {1365, 49152}, {1024, 65528}}) {
      sweep_split<half_t>(rows, length);
      sweep_split<bfloat16_t>(rows, length);
    }
  }
  // The modes that time arms by time_arms share its CSV header, and each runs fp16, then bf16.
  const auto arms_mode = [&](const char* name, auto sweep) {
    if (mode != "all" && mode != name) return;
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep(static_cast<half_t*>(nullptr));
    sweep(static_cast<bfloat16_t*>(nullptr));
  };
  arms_mode("shapes", [](auto* t) { sweep_shapes<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("table", [](auto* t) { sweep_table<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("fives", [](auto* t) { sweep_fives<std::remove_pointer_t<decltype(t)>>(); });
  if (mode == "all" || mode == "sizes") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep_sizes<half_t>();
    if (!(argc > 2 && std::string(argv[2]) == "half")) sweep_sizes<bfloat16_t>();
  }
  arms_mode("refit", [](auto* t) { sweep_refit<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("staged", [](auto* t) { sweep_staged<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("refit2", [](auto* t) { sweep_refit2<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("refit3", [](auto* t) { sweep_refit3<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("gaps", [](auto* t) { sweep_gaps<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("beyond", [](auto* t) { sweep_beyond<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("beyond2", [](auto* t) { sweep_beyond2<std::remove_pointer_t<decltype(t)>>(); });
  arms_mode("beyond3", [](auto* t) { sweep_beyond3<std::remove_pointer_t<decltype(t)>>(); });
  if (mode == "all" || mode == "fp32") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep_fp32();
  }
  if (mode == "all" || mode == "fp32b") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep_fp32b();
  }
  if (mode == "all" || mode == "fp32c") {
    std::printf("dtype,rows,length,arm,cluster,clusters_resident,rep,us,tbps\n");
    sweep_fp32c();
  }
  if (mode == "all" || mode == "prefetch") {
    std::printf("dtype,rows,arm,rep,us,tbps\n");
    sweep_prefetch<half_t>();
    sweep_prefetch<bfloat16_t>();
  }
  return 0;
}
