// The host-cost floor on this machine: microseconds per call of the CUDA calls a prepared op() makes,
// timed the way operator_runtime_testing.host_overhead times the Python forms (batches of calls, a synchronize
// between batches, median of 25 batches). Each call is timed at three batch lengths: 1 (one call on an idle GPU:
// what the host alone pays), 20 and 200 (the bench's batches). If a launch costs more per call in a long batch
// than alone, the host waits on the GPU (a launch slot freed only when an earlier kernel retires), and the long
// batch times the GPU's launch rate, not the host. The graph rows ask whether a one-kernel CUDA graph, replayed,
// costs the host less than the launch it holds.
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
double per_call_us(int batch, F&& call) {
  constexpr int kTrials = 25;
  for (int i = 0; i < 20; ++i) call();
  CHECK(cudaDeviceSynchronize());
  std::vector<double> samples;
  for (int t = 0; t < kTrials; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) call();
    const auto t1 = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / batch);
    CHECK(cudaDeviceSynchronize());
  }
  std::nth_element(samples.begin(), samples.begin() + kTrials / 2, samples.end());
  return samples[kTrials / 2];
}

template <class F>
void row(const char* name, F&& call) {
  for (int batch : {1, 20, 200}) std::printf("%s,%d,%.3f\n", name, batch, per_call_us(batch, call));
}

// A graph of one copy kernel, captured from the library's launch (with or without PDL) on `st`.
cudaGraphExec_t one_kernel_graph(cudaStream_t st, bool pdl, float* y, const float* x) {
  cudaGraph_t g;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  CHECK(ort::cuda::launch(copy_kernel, 4, 256, ort::cuda::Stream{st, pdl}, y, x, 1024));
  CHECK(cudaStreamEndCapture(st, &g));
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphDestroy(g));
  return exec;
}

}  // namespace

int main() {
  float *x, *y;
  CHECK(cudaMalloc(&x, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&y, 1024 * sizeof(float)));
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  int device = 0;
  std::printf("call,batch,us_per_call\n");
  row("cudaGetDevice", [&] { cudaGetDevice(&device); });
  row("cudaGetLastError", [&] { cudaGetLastError(); });
  row("empty kernel <<<1, 32>>>", [&] { empty_kernel<<<1, 32, 0, st>>>(); });
  row("copy kernel, 1024 fp32 <<<4, 256>>>",
      [&] { copy_kernel<<<4, 256, 0, st>>>(y, x, 1024, ort::cuda::Trigger::Early); });
  // The library's launch since session 13: cudaLaunchKernelEx with programmatic dependent launch. Run bl
  // (H200, batches of 200): 4.30 us without the attribute, 3.70 with it, 4.41 for <<<>>>.
  const ort::cuda::Stream pdl{st, true}, plain{st, false};
  row("copy kernel, cuda::launch without PDL",
      [&] { CHECK(ort::cuda::launch(copy_kernel, 4, 256, plain, y, x, 1024)); });
  row("copy kernel, cuda::launch with PDL", [&] { CHECK(ort::cuda::launch(copy_kernel, 4, 256, pdl, y, x, 1024)); });
  row("copy kernel + 2 cudaGetDevice + cudaGetLastError", [&] {
    cudaGetDevice(&device);
    copy_kernel<<<4, 256, 0, st>>>(y, x, 1024, ort::cuda::Trigger::Early);
    cudaGetDevice(&device);
    cudaGetLastError();
  });
  for (bool with_pdl : {false, true}) {
    cudaGraphExec_t exec = one_kernel_graph(st, with_pdl, y, x);
    row(with_pdl ? "one-kernel graph (PDL kernel), cudaGraphLaunch" : "one-kernel graph, cudaGraphLaunch",
        [&] { CHECK(cudaGraphLaunch(exec, st)); });
    CHECK(cudaGraphExecDestroy(exec));
  }
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
