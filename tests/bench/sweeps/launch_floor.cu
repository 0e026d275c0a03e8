// The host-cost floor on this machine: microseconds per call of the CUDA calls a prepared op() makes,
// timed the way operator_runtime_testing.host_overhead times the Python forms (batches of 200 calls,
// a synchronize between batches so the launch queue never fills, median of 25 batches). The issue's
// target (<= 3 us per prepared call) cannot be met where one empty-kernel launch alone costs more.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/launch_floor.cu -o launch_floor
//   ./launch_floor > launch_floor.csv   (scripts/gpu_check.sh --sweep does both)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/cuda_launch.cuh"
#include "sweep_timing.cuh"

namespace {

__global__ void empty_kernel() {}

__global__ void copy_kernel(float* out, const float* x, int n, ort::cuda::Trigger trigger) {
  ort::cuda::pdl_prologue(trigger);  // as every library kernel: it may be launched with PDL below
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i];
}

template <class F>
double per_call_us(F&& call) {
  constexpr int kBatch = 200, kTrials = 25;
  for (int i = 0; i < 20; ++i) call();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> samples;
  for (int t = 0; t < kTrials; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatch; ++i) call();
    const auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / kBatch);
    CHECK(cudaDeviceSynchronize());
  }
  std::nth_element(samples.begin(), samples.begin() + kTrials / 2, samples.end());
  return samples[kTrials / 2];
}

}  // namespace

int main() {
  float *x, *y;
  CHECK(cudaMalloc(&x, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&y, 1024 * sizeof(float)));
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  int device = 0;
  std::printf("call,us_per_call\n");
  std::printf("cudaGetDevice,%.3f\n", per_call_us([&] { cudaGetDevice(&device); }));
  std::printf("cudaGetLastError,%.3f\n", per_call_us([&] { cudaGetLastError(); }));
  std::printf("empty kernel <<<1, 32>>>,%.3f\n", per_call_us([&] { empty_kernel<<<1, 32, 0, st>>>(); }));
  std::printf("copy kernel, 1024 fp32 <<<4, 256>>>,%.3f\n",
              per_call_us([&] { copy_kernel<<<4, 256, 0, st>>>(y, x, 1024, ort::cuda::Trigger::Early); }));
  // The library's launch since session 13: cudaLaunchKernelEx with programmatic dependent launch. Run bl
  // (H200): 4.30 us without the attribute, 3.70 with it, 4.41 for <<<>>> (docs/benchmarks.md, "The floor").
  const ort::cuda::Stream pdl{st, true}, plain{st, false};
  std::printf("copy kernel, cuda::launch without PDL,%.3f\n",
              per_call_us([&] { CHECK(ort::cuda::launch(copy_kernel, 4, 256, plain, y, x, 1024)); }));
  std::printf("copy kernel, cuda::launch with PDL,%.3f\n",
              per_call_us([&] { CHECK(ort::cuda::launch(copy_kernel, 4, 256, pdl, y, x, 1024)); }));
  std::printf("copy kernel + 2 cudaGetDevice + cudaGetLastError,%.3f\n", per_call_us([&] {
                cudaGetDevice(&device);
                copy_kernel<<<4, 256, 0, st>>>(y, x, 1024, ort::cuda::Trigger::Early);
                cudaGetDevice(&device);
                cudaGetLastError();
              }));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
