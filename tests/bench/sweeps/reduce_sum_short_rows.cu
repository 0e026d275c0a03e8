// reduce_sum's short rows (at most 128 elements, a warp a row, 8 rows a block). Session 26 (run dt) timed our CUDA's
// bf16 short rows 5 % behind TileLang's at 131072-262144 rows of 128 (15.7 / 29.6 against 14.9 / 28.1 us), and
// TileLang's lowered kernel is ours line for line but for its `int` row index and sizes (ours then: `int64_t` rows
// and two `int64_t` row strides, for any row stride) and its guards in place of our early return. Arms, all
// launched the library's way, with PDL and the trigger rule short_rows uses (TriggerRule::ManyWaves), each twice,
// interleaved:
//   short_rows:     session 26's library kernel (64-bit, early return), kept here as `before`;
//   short_rows_32:  the same with 32-bit indices and guards, contiguous rows only (run dx: 5-6 % faster at
//                   131072-262144 bf16 rows, 1-5 % elsewhere);
//   library_64/32:  the library's short_rows since session 27 (guards, Index a template parameter) at int64_t
//                   and at int, which says whether the index width or the guards made the difference;
//   warp:           the library's `contiguous` kernel as create() launches it for unit-stride rows that are not
//                   short (a warp a row, 8 rows a block, 16-byte packs, 4 in flight), the kernel short_rows replaced
//                   at 4096x128 in session 17. Softmax's short rows (run ea) lost to 16-byte packs 1.2-4.2x from
//                   32768 rows: does reduce_sum's? No (run ec): warp was 1.3-1.8x slower at every size (262144x128
//                   bf16 48.8 against 27.9 us; 4096x128 2.49 against 1.41), a warp a row leaving half its lanes
//                   without a 16-byte pack of bf16. Softmax's winner holds a row in 16 threads of one pack each;
//   packed:         that shape for the sum (length / VEC threads a row, one 16-byte pack each, 256 / that rows a
//                   block, a shuffle sum over the row's threads), session 27's next experiment 1. Run ee: bf16
//                   262144x128 28.3 -> 18.2 us, 65536x32 7.48 -> 2.43, and faster at 4096 rows too (1.43 -> 1.34);
//                   fp32 rows of 128 tie, 65536x32 fp32 7.58 -> 3.73. The library's packed_rows since session 28
//                   (this arm launches it; run ee ran the same body as a copy here);
//   packed_pairs:   two packs a thread, half the threads a row (session 28, not yet run).
// `./reduce_sum_short_rows l2` cycles 16 input sets (the Python bench's rotation), so that 4096x128 stays in L2,
// where packed lost 9-17 % at halves in the bench's context (runs eg, eh) though it won 6 % here (run ee).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_short_rows.cu -o reduce_sum_short_rows
//   ./reduce_sum_short_rows > reduce_sum_short_rows.csv
//   (scripts/gpu_check.sh --sweep with SWEEPS=reduce_sum_short_rows)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
constexpr int kPerLane = 4;  // reduce_sum_cuda.cu's kShortPerLane: rows of up to 128

// Session 26's library kernel: 64-bit rows and strides, an early return for a warp past the last row.
template <class T>
__global__ void __launch_bounds__(256) before(T* out, const T* x, int64_t rows, int length, int64_t x_row_stride,
                                              int64_t out_row_stride, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t row = int64_t(blockIdx.x) * 8 + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;
  const T* p = x + row * x_row_stride;
  float v[kPerLane];
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) v[k] = lane + 32 * k < length ? to_float(p[lane + 32 * k]) : 0.f;
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) s += v[k];
  s = cuda::SumOp{}.warp<32>(s);
  if (lane == 0) out[row * out_row_stride] = from_float<T>(s);
}

// short_rows with 32-bit indices: contiguous rows only (row stride == length), fewer than 2^31 elements.
template <class T>
__global__ void __launch_bounds__(256) short_rows_32(T* out, const T* x, int rows, int length, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int row = int(blockIdx.x) * 8 + int(threadIdx.x) / 32;
  const int lane = int(threadIdx.x) % 32;
  float v[kPerLane];
#pragma unroll
  for (int k = 0; k < kPerLane; ++k)
    v[k] = row < rows && lane + 32 * k < length ? to_float(x[row * length + lane + 32 * k]) : 0.f;
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) s += v[k];
  s = cuda::SumOp{}.warp<32>(s);
  if (lane == 0 && row < rows) out[row] = from_float<T>(s);
}

// packed_rows with two packs a thread (half the threads a row: packs t and t + TPR), 512 / TPR rows a block of 256:
// session 28's next experiment 1, whether fewer, fuller threads keep packed_rows' gain out of L2 and lose less in it.
template <class T, int TPR>
__global__ void __launch_bounds__(256) packed_pairs(T* out, const T* x, int rows, int length, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  constexpr int kVec = 16 / sizeof(T);
  const int row = int(blockIdx.x) * (256 / TPR) + int(threadIdx.x) / TPR;
  const int first = int(threadIdx.x) % TPR * kVec;
  float f[2][kVec] = {};
  if (row < rows && first < length) cuda::load_f32<T, kVec>(x + row * length + first, f[0]);
  if (row < rows && first + TPR * kVec < length) cuda::load_f32<T, kVec>(x + row * length + first + TPR * kVec, f[1]);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < kVec; ++k) s += f[0][k] + f[1][k];
  s = cuda::SumOp{}.warp<TPR>(s);
  if (first == 0 && row < rows) out[row] = from_float<T>(s);
}

// 0: every arm on launches_for's sets (inputs out of L2); otherwise this many input sets, cycled by 128 launches a
// graph, as the Python bench's rotation holds small inputs in L2 (`./reduce_sum_short_rows l2`: 16 sets).
int g_sets = 0;

template <class T, int LENGTH>
void sweep(int rows, int64_t slots) {
  constexpr int length = LENGTH, kTpr = LENGTH / (16 / int(sizeof(T)));
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  const int sets = g_sets > 0 ? g_sets : launches_for(bytes + size_t(rows) * sizeof(T));
  const int launches = g_sets > 0 ? 128 : sets;
  const LaunchTensors<T> t(sets, size_t(rows) * sizeof(T), bytes);
  struct Cycle {  // launch i's tensors: set i % sets
    const std::vector<T*>& v;
    int sets;
    T* operator[](int i) const { return v[size_t(i % sets)]; }
  };
  const Cycle out{t.out, sets}, x{t.x, sets};
  const unsigned blocks = unsigned((rows + 7) / 8);
  const RowsOfDim r = contiguous_rows(rows, length, false);  // the warp arm's rows
  for (int rep = 0; rep < 2; ++rep) {
    auto time = [&](auto launch) {
      return time_graph(launches, [&](int i, cudaStream_t st) {
        launch(cuda::Stream{st, true, slots, cuda::TriggerRule::ManyWaves}, i);
      });
    };
    const double before_us = time([&](cuda::Stream st, int i) {
      cuda::launch(before<T>, dim3(blocks), dim3(256), st, out[i], static_cast<const T*>(x[i]), int64_t(rows), length,
                   int64_t(length), int64_t(1));
    });
    const double narrow_us = time([&](cuda::Stream st, int i) {
      cuda::launch(short_rows_32<T>, dim3(blocks), dim3(256), st, out[i], static_cast<const T*>(x[i]), rows, length);
    });
    const double lib64_us = time([&](cuda::Stream st, int i) {
      cuda::launch(reduce_sum_kernels::short_rows<T, kPerLane, int64_t>, dim3(blocks), dim3(256), st, out[i],
                   static_cast<const T*>(x[i]), int64_t(rows), length, int64_t(length), int64_t(1));
    });
    const double lib32_us = time([&](cuda::Stream st, int i) {
      cuda::launch(reduce_sum_kernels::short_rows<T, kPerLane, int>, dim3(blocks), dim3(256), st, out[i],
                   static_cast<const T*>(x[i]), rows, length, length, 1);
    });
    const double warp_us = time([&](cuda::Stream st, int i) {
      cuda::launch(reduce_sum_kernels::contiguous<T, 16 / sizeof(T), 32>, dim3(blocks), dim3(256),
                   cuda::Stream{st.handle, true, slots}, out[i], static_cast<const T*>(x[i]), nullptr, r);
    });
    const double packed_us = time([&](cuda::Stream st, int i) {
      cuda::launch(reduce_sum_kernels::packed_rows<T, kTpr, int>, dim3(unsigned((rows + 256 / kTpr - 1) / (256 / kTpr))),
                   dim3(256), st, out[i], static_cast<const T*>(x[i]), rows, length, length, 1);
    });
    double pairs_us = 0;
    if constexpr (kTpr >= 2) {
      pairs_us = time([&](cuda::Stream st, int i) {
        cuda::launch(packed_pairs<T, kTpr / 2>, dim3(unsigned((rows + 512 / kTpr - 1) / (512 / kTpr))), dim3(256), st,
                     out[i], static_cast<const T*>(x[i]), rows, length);
      });
    }
    std::printf("%s,%d,%d,%d,%u,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", dtype_name<T>(), rows, length, g_sets, blocks,
                rep, before_us, narrow_us, lib64_us, lib32_us, warp_us, packed_us, pairs_us);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "l2") g_sets = 16;
  const int64_t slots = device_thread_slots();  // the thread slots reduce_sum's create() hands its launches
  std::printf("dtype,rows,length,sets,blocks,rep,before_us,short_rows_32_us,library_64_us,library_32_us,warp_us,"
              "packed_us,packed_pairs_us\n");
  for (int rows : {4096, 16384, 32768, 131072, 262144}) {
    if (g_sets > 0 && rows > 16384) continue;  // in L2: the bench's small rows only
    sweep<float, 128>(rows, slots);
    sweep<bfloat16_t, 128>(rows, slots);
  }
  sweep<float, 32>(65536, slots);
  sweep<bfloat16_t, 32>(65536, slots);
  return 0;
}
