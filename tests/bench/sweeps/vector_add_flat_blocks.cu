// Threads a block and the PDL trigger of vector_add's `flat` kernel (one contiguous row, 2 packs a thread, the
// library's kernel for every large contiguous add), by size. Session 49's bench (run ia, one build, an experiment
// switch) read flat-2^28 fp16 / fp32 0.5-0.7 % faster in blocks of 1024 than in the library's 128, bf16 6-9 %
// slower (its body takes 56 registers, fp16 and fp32 40), and 4096x4096 / 1008x2304 fp16 1-11 % slower: this
// sweep finds the size from which the wide blocks win, and whether the trigger (Early in the library: a grid's
// blocks let the next grid launch as they start) is part of it.
//
// Arms, each launched the library's way (cuda::launch) on its own tensors (sweep_timing.cuh):
//   t128 / t512 / t1024: blocks of that many threads, Early trigger (t128 is the library's kernel);
//   t128_exit / t1024_exit: the same with the trigger at exit (the next grid launches as this one ends);
//   t128_nopdl: no programmatic launch at all, as torch launches.
// Two repetitions, the arms interleaved within each, so that a drift between them shows in the CSV.
// Run ib (H200, docs/runs/vector-add-flat-blocks-h200-2026-12-03-ib.csv), the faster repetition against t128:
// t1024 0.997x at 31 waves, 0.994-0.996x from 62, 1.016x at 7.8 and 1.06-1.15x at 1-2 waves (fp32, fp16); bf16
// t1024 1.12-1.29x everywhere; the AtExit arms 0.1-0.9 % and no PDL 0.1-1.4 % slower than Early from 2^24 on.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/vector_add_flat_blocks.cu -o vector_add_flat_blocks
//   ./vector_add_flat_blocks > vector_add_flat_blocks.csv   (scripts/gpu_check.sh --sweep, SWEEPS=vector_add_flat_blocks)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/vector_add/nvidia/vector_add_kernels.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
constexpr int kUnroll = 2;  // the library's packs a thread on large plans (vector_add_cuda.cu)

template <class T>
struct Tensors {
  std::vector<T*> out, a, b;
  Tensors(int launches, size_t bytes) {
    for (int i = 0; i < launches; ++i) {
      T *o, *x, *y;
      CHECK(cudaMalloc(&o, bytes));
      CHECK(cudaMalloc(&x, bytes));
      CHECK(cudaMalloc(&y, bytes));
      CHECK(cudaMemset(x, 0x3c, bytes));
      CHECK(cudaMemset(y, 0x3c, bytes));
      out.push_back(o);
      a.push_back(x);
      b.push_back(y);
    }
  }
  Tensors(const Tensors&) = delete;
  Tensors& operator=(const Tensors&) = delete;
  ~Tensors() {
    for (size_t i = 0; i < out.size(); ++i) {
      cudaFree(out[i]);
      cudaFree(a[i]);
      cudaFree(b[i]);
    }
  }
};

template <class T, int BLOCK>
void arm(const char* name, const Tensors<T>& t, int64_t n, cuda::Stream how, int rep, int sms) {
  constexpr int kVec = 16 / sizeof(T);
  const int64_t blocks = (n + BLOCK * kVec * kUnroll - 1) / (BLOCK * kVec * kUnroll);
  const double us = time_graph(int(t.out.size()), [&](int i, cudaStream_t st) {
    how.handle = st;
    cuda::launch(vector_add_kernels::flat<T, kVec, kUnroll, BLOCK>, dim3(unsigned(blocks)), dim3(BLOCK), how,
                 t.out[size_t(i)], t.a[size_t(i)], t.b[size_t(i)], n);
  });
  // Resident blocks an SM, for the waves column: the kernel's own occupancy, not a guess from its threads.
  int resident = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, vector_add_kernels::flat<T, kVec, kUnroll, BLOCK>,
                                                      BLOCK, 0));
  std::printf("%s,%lld,%s,%d,%lld,%d,%.2f,%d,%.3f,%.0f\n", dtype_name<T>(), (long long)n, name, BLOCK,
              (long long)blocks, resident, double(blocks) / (double(resident) * sms), rep, us,
              3.0 * double(n) * sizeof(T) / us * 1e-3);
  std::fflush(stdout);
}

template <class T>
void sweep(int64_t n, int sms) {
  const Tensors<T> t(launches_for(3 * size_t(n) * sizeof(T)), size_t(n) * sizeof(T));
  const cuda::Stream early{nullptr, true}, exit{nullptr, true, 0, cuda::TriggerRule::AtExit}, plain{nullptr, false};
  for (int rep = 0; rep < 2; ++rep) {
    arm<T, 128>("t128", t, n, early, rep, sms);
    arm<T, 512>("t512", t, n, early, rep, sms);
    arm<T, 1024>("t1024", t, n, early, rep, sms);
    arm<T, 128>("t128_exit", t, n, exit, rep, sms);
    arm<T, 1024>("t1024_exit", t, n, exit, rep, sms);
    arm<T, 128>("t128_nopdl", t, n, plain, rep, sms);
  }
}

}  // namespace

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::printf("dtype,elements,arm,threads,blocks,resident,waves,rep,us,gbps\n");
  // The bench's contiguous rows (1008x2304, 4096x4096 = 2^24, 2^28) and the sizes between, where a rule would cut.
  for (const int64_t n : {int64_t(1008) * 2304, int64_t(1) << 24, int64_t(1) << 25, int64_t(1) << 26,
                          int64_t(1) << 27, int64_t(3) << 26, int64_t(1) << 28}) {
    sweep<float>(n, sms);
    sweep<half_t>(n, sms);
    sweep<bfloat16_t>(n, sms);
  }
  return 0;
}
