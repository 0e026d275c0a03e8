// softmax's short rows (at most 128 elements): the registers kernel the library ran them through until session
// 27 (the registers table's entry for the length: 8-16 threads a row, one or two 16-byte packs each, every pack
// full) against short_rows (a warp a row, 8 rows a block, lane l holding elements l, l + 32, ...: the shape of
// our TileLang kernel, which ran 4096x128 in 2.24 / 1.41 / 1.41 us against the registers kernel's 2.36 / 1.66 /
// 1.63, run dt). short_rows twice: with the registers kernel's PDL trigger (Early, always) and with the rule
// the library gives it (TriggerRule::ManyWaves: at exit above two waves, as reduce_sum's short rows). Each arm
// twice, interleaved. Run ea (H200): short_rows 2-6 % faster at 4096 rows (half a wave of its blocks; 128 fp32
// 2.48 -> 2.42 us, bf16 1.95 -> 1.91; 64 bf16 1.79 -> 1.68), and from 32768 rows 1.2-4.2x slower but for fp32 rows
// of 128, a tie (262144x128 bf16 34-37 -> 47 us, 262144x32 bf16 9.9 -> 36-41): the registers kernel's 16-byte packs
// carry the bandwidth, one 2- or 4-byte load a lane does not. Run eb added 8192 rows (tied or 2-27 % slower) and
// 16384 (4-94 % slower). The library takes short_rows up to half a wave (softmax_cuda.cu).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_short_rows.cu -o softmax_short_rows
//   ./softmax_short_rows > softmax_short_rows.csv   (scripts/gpu_check.sh --sweep with SWEEPS=softmax_short_rows)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

// The registers table's entry for rows of LENGTH (softmax_cuda.cu, registers_table): threads a row, packs each.
template <class T, int LENGTH>
constexpr int kTpr = sizeof(T) == 4 ? (LENGTH == 32 ? 8 : 16) : (LENGTH == 32 ? 4 : LENGTH == 64 ? 8 : 16);

template <class T, int LENGTH>
void sweep(int rows, int64_t slots) {
  constexpr int kVec = 16 / sizeof(T), kTprL = kTpr<T, LENGTH>, kNp = LENGTH / (kTprL * kVec);
  static_assert(kTprL * kNp * kVec == LENGTH, "every pack full, as the library's FULL kernel");
  const size_t bytes = size_t(rows) * LENGTH * sizeof(T);
  const int launches = launches_for(2 * bytes);
  const LaunchTensors<T> t(launches, bytes, bytes);
  const auto& out = t.out;
  const auto& x = t.x;
  const RowsOfDim r = contiguous_rows(rows, LENGTH, true);
  const unsigned reg_blocks = unsigned((rows + 256 / kTprL - 1) / (256 / kTprL));
  const unsigned short_blocks = unsigned((rows + 7) / 8);
  for (int rep = 0; rep < 2; ++rep) {
    const double registers_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(softmax_kernels::registers<T, kVec, kTprL, kNp, 256, true>, dim3(reg_blocks), dim3(256),
                   cuda::Stream{st, true}, out[i], static_cast<const T*>(x[i]), r);
    });
    const double early_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(softmax_kernels::short_rows<T, 4, int>, dim3(short_blocks), dim3(256), cuda::Stream{st, true},
                   out[i], static_cast<const T*>(x[i]), rows, LENGTH, LENGTH, LENGTH);
    });
    const double waves_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(softmax_kernels::short_rows<T, 4, int>, dim3(short_blocks), dim3(256),
                   cuda::Stream{st, true, slots, cuda::TriggerRule::ManyWaves}, out[i], static_cast<const T*>(x[i]),
                   rows, LENGTH, LENGTH, LENGTH);
    });
    std::printf("%s,%d,%d,%d,%.3f,%.3f,%.3f\n", dtype_name<T>(), rows, LENGTH, rep, registers_us, early_us, waves_us);
    std::fflush(stdout);
  }
}

template <int LENGTH>
void sweep_length(int64_t slots) {
  for (int rows : {4096, 6144, 8192, 16384, 32768, 262144}) {
    sweep<float, LENGTH>(rows, slots);
    sweep<bfloat16_t, LENGTH>(rows, slots);
  }
}

}  // namespace

int main() {
  const int64_t slots = device_thread_slots();  // the thread slots softmax's create() hands the short rows' launch
  std::printf("dtype,rows,length,rep,registers_us,short_rows_early_us,short_rows_waves_us\n");
  sweep_length<128>(slots);
  sweep_length<64>(slots);
  sweep_length<32>(slots);
  return 0;
}
