// Does the last, partial wave cost softmax's 16-bit 4096x16384 its missing 1.5 %? online_held (the library's kernel
// for 16-bit rows of 8193-16384, 512 threads, three blocks an SM) runs 4096 rows over 132 x 3 = 396 row slots on
// the H200: 10.34 waves, the last a third full. This times it at whole waves (10 and 11: 3960 and 4356 rows on
// the H200; the counts follow the device's SMs) and at 4096 and 4224 rows, each twice, interleaved, and reports
// microseconds a row: if the tail costs, 4096's is above the whole waves'. Launched as create() launches it
// (PDL, triggered at the start).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_waves.cu -o softmax_waves
//   ./softmax_waves > softmax_waves.csv   (scripts/gpu_check.sh --sweep with SWEEPS=softmax_waves)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
constexpr int kLength = 16384, kThreads = 512, kBlocksPerSm = 3;  // online_held's launch bounds at 512 threads

template <class T>
double time_rows(int rows) {
  const size_t bytes = size_t(rows) * kLength * sizeof(T);
  const int launches = launches_for(2 * bytes);
  std::vector<T*> out(launches), x(launches);
  for (int i = 0; i < launches; ++i) {
    CHECK(cudaMalloc(&out[i], bytes));
    CHECK(cudaMalloc(&x[i], bytes));
    CHECK(cudaMemset(x[i], 0x3c, bytes));
  }
  const RowsOfDim r = contiguous_rows(rows, kLength, true);
  const double us = time_graph(launches, [&](int i, cudaStream_t st) {
    cuda::launch(softmax_kernels::online_held<T, 8, kThreads>, dim3(unsigned(rows)), dim3(kThreads),
                 cuda::Stream{st, true}, out[i], static_cast<const T*>(x[i]), r);
  });
  for (int i = 0; i < launches; ++i) {
    CHECK(cudaFree(out[i]));
    CHECK(cudaFree(x[i]));
  }
  return us;
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

}  // namespace

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int slots = sms * kBlocksPerSm;
  const std::vector<int> counts = {10 * slots, 4096, 4224, 11 * slots};
  std::printf("dtype,rows,waves,rep,us,us_per_row,tbps\n");
  sweep<half_t>(counts, slots);
  sweep<bfloat16_t>(counts, slots);
  return 0;
}
