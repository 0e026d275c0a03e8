// Times the contiguous copy: the library's flat kernel (copy_kernels.cuh) for each unroll and block size,
// and cudaMemcpyAsync (what torch's copy_ calls for a contiguous copy of one dtype), on the benchmark's
// sizes. Our 64 MiB copy ran at 0.93-0.95x torch in every session while the 1 GiB copy ran at 1.5x; this
// finds out whether a launch shape or the driver's copy is what wins there.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/copy_flat.cu -o copy_flat
//   ./copy_flat > copy_flat.csv   (scripts/gpu_check.sh --sweep with SWEEPS=copy_flat does both)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "ops/copy/nvidia/copy_kernels.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;


void report(size_t bytes, const char* how, int threads, int unroll, double us) {
  std::printf("%zu,%s,%d,%d,%.2f,%.0f\n", bytes, how, threads, unroll, us, 2.0 * double(bytes) / us * 1e-3);
  std::fflush(stdout);
}

template <int UNROLL>
void sweep_flat(const std::vector<void*>& in, const std::vector<void*>& out, size_t bytes, int threads) {
  const int64_t n = int64_t(bytes / sizeof(uint4));
  const int64_t blocks = std::max<int64_t>(1, (n + int64_t(threads) * UNROLL - 1) / (int64_t(threads) * UNROLL));
  const double us = time_graph(int(in.size()), [&](int i, cudaStream_t st) {
    copy_kernels::flat<uint4, UNROLL><<<unsigned(blocks), threads, 0, st>>>(static_cast<uint4*>(out[i]),
                                                                            static_cast<const uint4*>(in[i]), n, ort::cuda::Trigger::Early);
  });
  report(bytes, "flat", threads, UNROLL, us);
}

void sweep_size(size_t bytes) {
  std::vector<void*> in, out;
  for (int i = 0, n = launches_for(2 * bytes); i < n; ++i) {
    void *a, *b;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    in.push_back(a);
    out.push_back(b);
  }
  const double us = time_graph(int(in.size()), [&](int i, cudaStream_t st) {
    CHECK(cudaMemcpyAsync(out[i], in[i], bytes, cudaMemcpyDeviceToDevice, st));
  });
  report(bytes, "cudaMemcpyAsync", 0, 0, us);
  for (int threads : {128, 256, 512, 1024}) {
    sweep_flat<1>(in, out, bytes, threads);
    sweep_flat<2>(in, out, bytes, threads);
    sweep_flat<4>(in, out, bytes, threads);
    sweep_flat<8>(in, out, bytes, threads);
  }
  for (size_t i = 0; i < in.size(); ++i) {
    CHECK(cudaFree(in[i]));
    CHECK(cudaFree(out[i]));
  }
}

}  // namespace

int main() {
  std::printf("bytes,kernel,threads,unroll,us,gbps\n");
  // tiny (1024 fp32) up to the crossover with cudaMemcpyAsync, contiguous-64MiB in bf16 and fp32, contiguous-1GiB
  for (size_t bytes : {size_t(4) << 10, size_t(8) << 10, size_t(16) << 10, size_t(32) << 10, size_t(64) << 10, size_t(256) << 10, size_t(1) << 20, size_t(4) << 20,
                       size_t(16) << 20, size_t(32) << 20, size_t(64) << 20, size_t(256) << 20, size_t(1) << 30})
    sweep_size(bytes);
  return 0;
}
