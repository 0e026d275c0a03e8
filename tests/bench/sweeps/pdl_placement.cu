// Where the blocks of back-to-back grids land, with the PDL trigger at each kernel's start (Early) or at each
// block's exit (AtExit): a question the bench cannot answer and nsys cannot either here (the lent H200 has no
// working nsys, .library/device/KINDS.md).
//
// Session 14 (run bm, docs/runs/pdl-trigger-h200-2026-11-30-bm.md) measured the library's reduce_sum kernels
// 22-39 % slower with Early wherever the grid asks for about half of the GPU (256x262144 fp32: 83.4 against
// 59.9 us), while softmax kernels of the same share ran faster with it. The hypothesis this sweep tests: with
// Early, grid N+1 is launched while grid N runs, and its blocks go into the slots grid N left free, so grid N+1
// takes the complement of grid N's placement: the SMs that ran fewer of N's blocks get more of N+1's, and a
// memory-bound grid lasts as long as its most loaded SM. A softmax block of 512 threads that fills an SM's
// registers leaves no slot to take, so its grids keep their placement.
//
// Each grid here is a row sum shaped like a library case (blocks, threads, floats a block, blocks an SM from
// the launch bounds); thread 0 of each block logs its SM and %globaltimer after the wait and at its end. Per
// grid it writes the SMs used, the most and fewest blocks on one SM, and first start to last end.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/pdl_placement.cu -o pdl_placement
//   ./pdl_placement > pdl_placement.csv   (scripts/gpu_check.sh --sweep with SWEEPS=pdl_placement does both)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <vector>

#include "core/cuda_launch.cuh"
#include "core/cuda_math.cuh"
#include "sweep_timing.cuh"

namespace {

using ort::cuda::Trigger;

struct BlockLog {
  unsigned smid;
  unsigned long long start_ns, end_ns;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The blocks an SM holds are pinned to the library kernel's by dynamic shared memory (run() sizes it): ptxas
// gives the reduce_sum kernels 38-44 registers, so an SM holds 3 of their blocks of 512 threads, 6 of 256.
template <int THREADS>
__global__ void __launch_bounds__(THREADS) logged_row_sum(float* out, const float4* x, int packs, BlockLog* log,
                                                          Trigger trigger) {
  ort::cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  const unsigned long long start = global_ns();
  const float4* row = x + int64_t(blockIdx.x) * packs;
  float s = 0.f;
  for (int i = threadIdx.x; i < packs; i += THREADS) {
    const float4 v = row[i];
    s += (v.x + v.y) + (v.z + v.w);
  }
  s = ort::cuda::group_reduce<THREADS>(s, ort::cuda::SumOp{}, smem);
  if (threadIdx.x == 0) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    out[blockIdx.x] = s;
    log[blockIdx.x] = {smid, start, global_ns()};
  }
}

struct Case {
  const char* name;
  int blocks, floats_a_block, blocks_per_sm;
};

template <int THREADS>
void run(const Case& c, Trigger trigger, int sm_count, int smem_per_sm, int reserved_per_block) {
  auto kernel = logged_row_sum<THREADS>;
  // Dynamic shared memory that lets exactly blocks_per_sm blocks share an SM: each block also holds the
  // system's reserved bytes and the kernel's static array. Run br left the static array out and got 2 blocks
  // an SM where 3 were asked (and 5 for 6), so the 256x262144 shape never had the free slot it was meant to test.
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  const int smem = (smem_per_sm / c.blocks_per_sm - reserved_per_block - int(fa.sharedSizeBytes)) / 1024 * 1024;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, smem));
  if (per_sm != c.blocks_per_sm)
    std::fprintf(stderr, "%s: %d blocks an SM fit, %d were asked for\n", c.name, per_sm, c.blocks_per_sm);
  const size_t floats = size_t(c.blocks) * c.floats_a_block;
  // The inputs together overflow L2 (at most 64 grids: the 144x1280 control then stays in L2, as it does in
  // the bench, whose rotation is capped at 16 sets).
  const int grids = std::min(64, launches_for(floats * sizeof(float)));
  std::vector<float*> x(grids);
  for (auto& p : x) {
    CHECK(cudaMalloc(&p, floats * sizeof(float)));
    CHECK(cudaMemset(p, 0, floats * sizeof(float)));
  }
  float* out;
  BlockLog* log;
  CHECK(cudaMalloc(&out, size_t(c.blocks) * sizeof(float)));
  CHECK(cudaMalloc(&log, size_t(grids) * c.blocks * sizeof(BlockLog)));
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaLaunchAttribute attrs[2];
  cudaLaunchConfig_t cfg =
      ort::cuda::launch_config(dim3(c.blocks), dim3(THREADS), 0, ort::cuda::Stream{st, true}, attrs);
  cfg.dynamicSmemBytes = size_t(smem);
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float ms = 0;
  for (int pass = 0; pass < 2; ++pass) {  // pass 0 warms up; pass 1 is logged
    CHECK(cudaEventRecord(a, st));
    for (int g = 0; g < grids; ++g)
      CHECK(cudaLaunchKernelEx(&cfg, kernel, out, reinterpret_cast<const float4*>(x[g]), c.floats_a_block / 4,
                               log + size_t(g) * c.blocks, trigger));
    CHECK(cudaEventRecord(b, st));
    CHECK(cudaEventSynchronize(b));
  }
  CHECK(cudaEventElapsedTime(&ms, a, b));
  std::vector<BlockLog> host(size_t(grids) * c.blocks);
  CHECK(cudaMemcpy(host.data(), log, host.size() * sizeof(BlockLog), cudaMemcpyDeviceToHost));
  const char* when = trigger == Trigger::Early ? "early" : "exit";
  for (int g = 0; g < grids; ++g) {
    std::map<unsigned, int> on_sm;
    unsigned long long first = ~0ull, last = 0;
    for (int i = 0; i < c.blocks; ++i) {
      const BlockLog& l = host[size_t(g) * c.blocks + i];
      ++on_sm[l.smid];
      first = std::min(first, l.start_ns);
      last = std::max(last, l.end_ns);
    }
    int most = 0, fewest = c.blocks;
    for (const auto& [sm, n] : on_sm) {
      most = std::max(most, n);
      fewest = std::min(fewest, n);
    }
    if (int(on_sm.size()) < sm_count) fewest = 0;
    std::printf("%s,%s,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f\n", c.name, when, g, c.blocks, THREADS, per_sm,
                int(on_sm.size()), most, fewest, (last - first) / 1e3, ms * 1e3 / grids);
  }
  for (auto p : x) CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  CHECK(cudaFree(log));
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  CHECK(cudaStreamDestroy(st));
}

}  // namespace

int main() {
  int device = 0, sm_count = 0, smem_per_sm = 0, reserved = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  std::printf("case,trigger,grid,blocks,threads,blocks_per_sm,sms_used,most_blocks_on_an_sm,"
              "fewest_blocks_on_an_sm,first_start_to_last_end_us,us_per_grid_of_the_batch\n");
  // reduce_sum rows as the library launches them (session 14): 256x262144 fp32, one row a block of 512;
  // 4096x4096 and 4096x1024 fp32, 8 rows a block of 256; 144x1280 fp32, 18 blocks (the control: 2 % of the GPU).
  // The softmax-like control: blocks of 512 threads two to an SM (softmax 4096x1024 halves: 256 blocks), where
  // the next grid finds almost no free slot.
  const Case rows_262144{"like reduce_sum 256x262144 fp32", 256, 262144, 3};
  const Case rows_4096{"like reduce_sum 4096x4096 fp32", 512, 8 * 4096, 6};
  const Case rows_1024{"like reduce_sum 4096x1024 fp32", 512, 8 * 1024, 6};
  const Case rows_1280{"like reduce_sum 144x1280 fp32", 18, 8 * 1280, 6};
  const Case two_an_sm{"256 blocks of 512, two an SM", 256, 16 * 1024, 2};
  for (Trigger t : {Trigger::Early, Trigger::AtExit}) {
    run<512>(rows_262144, t, sm_count, smem_per_sm, reserved);
    run<256>(rows_4096, t, sm_count, smem_per_sm, reserved);
    run<256>(rows_1024, t, sm_count, smem_per_sm, reserved);
    run<256>(rows_1280, t, sm_count, smem_per_sm, reserved);
    run<512>(two_an_sm, t, sm_count, smem_per_sm, reserved);
  }
  return 0;
}
