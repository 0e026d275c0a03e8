// Does the last, partial wave cost softmax's 16-bit 4096x16384 its missing 1.5 %? online_held (the library's kernel
// for 16-bit rows of 8193-16384, 512 threads, three blocks an SM) runs 4096 rows over 132 x 3 = 396 row slots on
// the H200: 10.34 waves, the last a third full. This times it at whole waves (10 and 11: 3960 and 4356 rows on
// the H200; the counts follow the device's SMs) and at 4096 and 4224 rows, each twice, interleaved, and reports
// microseconds a row: if the tail costs, 4096's is above the whole waves'. Launched as create() launches it
// (PDL, triggered at the start). Run ee: 0.0164 us a row at every count (4.00 TB/s): the tail costs nothing.
//
// Second part: the held row in other shapes at 4096 rows, each twice, interleaved with the library's kernel, and
// the library's flat copy over the same 128 MiB in and out (`copy_same_bytes`). Session 28 (run ej): 256 threads x
// 8 packs at four blocks an SM (128 KB in flight an SM against the library's 96 KB), 128 x 16, 512 x 4 at four
// blocks: a tie or slower. Session 29 (runs em, en, eq): the copy 4.15-4.17 TB/s against online_held's 3.99-4.05;
// `.cs` hints (held_cs) a tie; held_copy (no exps) 4.04-4.06 and rows_copy (no reductions either) 3.99-4.01, so
// the exps cost nothing; two blocks an SM 16 % slower; a warp's packs as one run a tie. What bounds this row is
// the subject of softmax_held_ceiling.cu. Session 40 added 768 x 3, the row's 2048 packs over threads whose last
// pack is two-thirds full, at the library's 1536 threads an SM (36-40 registers, no spill), and its neighbours 640 x
// 4 (two blocks, 1280 threads) and 384 x 6 (three blocks: at four it spills). At rows of 4096 halves the registers
// kernel's 192 x 3 beat its 256 x 2 (0.7 %, runs gr-gs), and at 16384 halves its 768 x 3 (fp32 values) beat its 512
// x 4 and 1024 x 2 in every softmax_configs run (70.5 against 71.0-75.2 us, runs an, bg, cf, cg); the raw-pack body
// here was only ever timed at powers of two. Run gu: 768 x 3 3.75-3.78 TB/s, 640 x 4 3.71-3.76, 384 x 6 3.83-3.89,
// 512 x 4 3.68-3.90; in the bench 768 x 3 lost 5-7 % to 512 x 4 (fewer packs in flight an SM), so the library kept
// 512 x 4 (perf-notes, session 41).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_waves.cu -o softmax_waves
//   ./softmax_waves > softmax_waves.csv   (scripts/gpu_check.sh --sweep with SWEEPS=softmax_waves)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "ops/copy/nvidia/copy_kernels.cuh"
#include "softmax_held_arms.cuh"

namespace {

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
    if (u * kStride < held.valid)
      __stcs(reinterpret_cast<uint4*>(out + out_off + first + u * kStride), held_pack_out<T>(held.raw[u], m, inv));
  }
}

// rows_copy: a row a block read whole, then written, no reduction (run en: 3.99-4.01 TB/s, online_held's rate).
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
                          {"held_768x3_b2", held_shape<T, 768, 3, 2>, 768},
                          {"held_640x4_b2", held_shape<T, 640, 4, 2>, 640},
                          {"held_384x6_b3", held_shape<T, 384, 6, 3>, 384},
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

int main() {
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
