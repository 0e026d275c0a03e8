// Times every softmax kernel configuration that can hold a row, on the shapes of the benchmark suite,
// so that the tables in ops/softmax/nvidia/softmax_cuda.cu (registers, cluster, online threads) are
// chosen by measurement.
// It launches the library's own kernels (softmax_kernels.cuh), not copies of them, plus the cluster
// experiments (softmax_cluster_experiment.cuh), which the library does not dispatch; cluster_online is
// first checked against the library's online kernel (a mismatch skips it, reported on stderr).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_configs.cu -o softmax_configs
//   ./softmax_configs [MIN_LENGTH] > softmax_configs.csv   (scripts/gpu_check.sh --sweep does both)
//
// Each time is the median of 7 CUDA-graph replays of >= 20 launches, every launch on its own input and
// output so that the set (>= 256 MiB) does not fit in L2: the same method as the Python harness.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "softmax_cluster_experiment.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

// Launches per graph, each on its own input/output pair: at least 20 and enough pairs to span 256 MiB.
int launches_for(size_t bytes) { return int(std::max<size_t>(20, ((size_t(256) << 20) + 2 * bytes - 1) / (2 * bytes))); }

RowsOfDim contiguous_rows(int64_t rows, int64_t length) {
  RowsOfDim r;
  r.dim = 1;
  r.length = length;
  r.x_stride = r.out_stride = 1;
  r.rows = rows;
  r.outer.ndim = 1;
  r.outer.shape[0] = rows;
  r.outer.strides[0][0] = r.outer.strides[1][0] = length;
  return r;
}

struct Buffers {
  std::vector<void*> in, out;
};

template <class T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, half_t>) return "float16";
  else return "bfloat16";
}

template <class T>
void report(int64_t rows, int64_t length, const char* kernel, int tpr, int np, double us) {
  const double bytes = 2.0 * double(rows) * double(length) * sizeof(T);
  std::printf("%s,%lld,%lld,%s,%d,%d,%.2f,%.0f\n", dtype_name<T>(), (long long)rows, (long long)length, kernel,
              tpr, np, us, bytes / us * 1e-3);
  std::fflush(stdout);
}

template <class T, int TPR, int NP>
void sweep_registers(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  constexpr int kBlock = TPR < 256 ? 256 : TPR;
  // Only the smallest NP that holds the row for this TPR: a larger one leaves threads idle.
  const int64_t holds = int64_t(TPR) * NP * kVec;
  if (r.length > holds || (NP > 1 && r.length <= holds / 2)) return;
  const unsigned blocks = unsigned((r.rows + kBlock / TPR - 1) / (kBlock / TPR));
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    softmax_kernels::registers<T, kVec, TPR, NP>
        <<<blocks, kBlock, 0, st>>>(static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), r);
  });
  report<T>(r.rows, r.length, "registers", TPR, NP, us);
}

template <class T, int CLUSTER, int TPR, int NP>
void sweep_cluster(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  const int64_t holds = int64_t(CLUSTER) * TPR * NP * kVec;
  if (r.length > holds || r.length <= holds / 2) return;
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    CHECK((softmax_experiments::launch_cluster_registers<T, kVec, TPR, NP, CLUSTER>(
        r, static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), st)));
  });
  char name[32];
  std::snprintf(name, sizeof name, "cluster%d", CLUSTER);
  report<T>(r.rows, r.length, name, TPR, NP, us);
}

bool g_cluster_online_ok = true;  // set by check_cluster_online; a failed check skips the experiment only

template <class T, int CLUSTER, int TPR>
void sweep_cluster_online(const Buffers& buf, const RowsOfDim& r) {
  if (!g_cluster_online_ok) return;
  constexpr int kVec = 16 / sizeof(T);
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    CHECK((softmax_experiments::launch_cluster_online<T, kVec, TPR, CLUSTER>(
        r, static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), st)));
  });
  char name[32];
  std::snprintf(name, sizeof name, "cluster_online%d", CLUSTER);
  report<T>(r.rows, r.length, name, TPR, 0, us);
}

// The experiment is timed only if it computes what the library's online kernel computes: random rows,
// both kernels, the largest relative difference (summation orders differ; outputs round to T). A
// failure is reported on stderr and skips the experiment; the library's configurations are still swept.
template <class T, int CLUSTER, int TPR>
void check_cluster_online(int64_t rows, int64_t length) {
  constexpr int kVec = 16 / sizeof(T);
  const size_t n = size_t(rows) * size_t(length);
  std::vector<T> host(n);
  uint32_t state = 12345;
  for (auto& v : host) {
    state = state * 1664525u + 1013904223u;
    v = from_float<T>(float(state >> 8) * (16.f / 16777216.f) - 8.f);  // uniform in [-8, 8)
  }
  T *in, *a, *b;
  CHECK(cudaMalloc(&in, n * sizeof(T)));
  CHECK(cudaMalloc(&a, n * sizeof(T)));
  CHECK(cudaMalloc(&b, n * sizeof(T)));
  CHECK(cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  const RowsOfDim r = contiguous_rows(rows, length);
  softmax_kernels::online<T, kVec, 1024><<<unsigned(rows), 1024>>>(a, in, r);
  const cudaError_t launched = softmax_experiments::launch_cluster_online<T, kVec, TPR, CLUSTER>(r, b, in, 0);
  const cudaError_t finished = cudaDeviceSynchronize();
  if (launched != cudaSuccess || finished != cudaSuccess) {
    std::fprintf(stderr, "check cluster_online: %s\n", cudaGetErrorString(launched != cudaSuccess ? launched : finished));
    g_cluster_online_ok = false;
    return;
  }
  std::vector<T> ha(n), hb(n);
  CHECK(cudaMemcpy(ha.data(), a, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (size_t k = 0; k < n; ++k) {
    const double x = to_float(ha[k]), y = to_float(hb[k]);
    worst = std::max(worst, std::abs(x - y) / std::max(std::abs(x), 1e-30));
  }
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-2;  // a few fp32 ulps; one bf16 rounding step
  std::fprintf(stderr, "check cluster_online<%s, cluster %d, %d threads> %lldx%lld vs online: max rel diff %.2e\n",
               dtype_name<T>(), CLUSTER, TPR, (long long)rows, (long long)length, worst);
  CHECK(cudaFree(in));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  if (!(worst <= tol)) g_cluster_online_ok = false;
}

template <class T, int TPR>
void sweep_online(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    softmax_kernels::online<T, kVec, TPR>
        <<<unsigned(r.rows), TPR, 0, st>>>(static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), r);
  });
  report<T>(r.rows, r.length, "online", TPR, 0, us);
}

template <class T, int TPR>
void sweep_tpr(const Buffers& buf, const RowsOfDim& r) {
  sweep_registers<T, TPR, 1>(buf, r);
  sweep_registers<T, TPR, 2>(buf, r);
  sweep_registers<T, TPR, 4>(buf, r);
  if constexpr (16 / sizeof(T) * 8 <= 32) sweep_registers<T, TPR, 8>(buf, r);
}

template <class T>
void for_each_cluster_config(const Buffers& buf, const RowsOfDim& r) {
  sweep_cluster<T, 2, 256, 2>(buf, r);
  sweep_cluster<T, 2, 256, 4>(buf, r);
  sweep_cluster<T, 2, 512, 2>(buf, r);
  sweep_cluster<T, 2, 512, 4>(buf, r);
  sweep_cluster<T, 4, 256, 2>(buf, r);
  sweep_cluster<T, 4, 256, 4>(buf, r);
  sweep_cluster<T, 4, 512, 2>(buf, r);
  sweep_cluster<T, 4, 512, 4>(buf, r);
  sweep_cluster<T, 4, 1024, 4>(buf, r);
  sweep_cluster<T, 8, 256, 4>(buf, r);
  sweep_cluster<T, 8, 512, 2>(buf, r);
  sweep_cluster<T, 8, 512, 4>(buf, r);
  sweep_cluster<T, 8, 1024, 2>(buf, r);
  sweep_cluster<T, 8, 1024, 4>(buf, r);
  sweep_cluster<T, 16, 256, 4>(buf, r);
  sweep_cluster<T, 16, 512, 2>(buf, r);
  sweep_cluster<T, 16, 512, 4>(buf, r);
  sweep_cluster<T, 16, 1024, 2>(buf, r);
  sweep_cluster<T, 16, 1024, 4>(buf, r);
}

template <class T>
void sweep_shape(int64_t rows, int64_t length) {
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  Buffers buf;
  const int launches = launches_for(bytes);
  for (int i = 0; i < launches; ++i) {
    void *in, *out;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemset(in, 0x3c, bytes));  // finite values (0x3c3c... is ~0.011 in fp32, ~1.06 in fp16)
    buf.in.push_back(in);
    buf.out.push_back(out);
  }
  const RowsOfDim r = contiguous_rows(rows, length);
  sweep_tpr<T, 4>(buf, r);
  sweep_tpr<T, 8>(buf, r);
  sweep_tpr<T, 16>(buf, r);
  sweep_tpr<T, 32>(buf, r);
  sweep_tpr<T, 64>(buf, r);
  sweep_tpr<T, 128>(buf, r);
  sweep_tpr<T, 256>(buf, r);
  sweep_tpr<T, 512>(buf, r);
  sweep_tpr<T, 1024>(buf, r);
  if (length >= 8192) {  // (cluster, threads, packs): slices of 4096 to 32768 values per CTA
    for_each_cluster_config<T>(buf, r);
  }
  if (length >= 32768) {  // the session-3 hypothesis: long rows split across a cluster, streamed twice
    sweep_cluster_online<T, 2, 1024>(buf, r);
    sweep_cluster_online<T, 4, 512>(buf, r);
    sweep_cluster_online<T, 4, 1024>(buf, r);
    sweep_cluster_online<T, 8, 512>(buf, r);
    sweep_cluster_online<T, 8, 1024>(buf, r);
    sweep_cluster_online<T, 16, 512>(buf, r);
    sweep_cluster_online<T, 16, 1024>(buf, r);
  }
  if (length >= 4096) {
    sweep_online<T, 256>(buf, r);
    sweep_online<T, 512>(buf, r);
    sweep_online<T, 1024>(buf, r);
  }
  for (int i = 0; i < launches; ++i) {
    CHECK(cudaFree(buf.in[i]));
    CHECK(cudaFree(buf.out[i]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t min_length = argc > 1 ? std::atoll(argv[1]) : 0;  // only rows at least this long
  const int64_t shapes[][2] = {{4096, 128},  {8192, 512},   {4096, 1024}, {1008, 2304},  {4080, 1536},
                               {4096, 4096}, {32768, 4096}, {4096, 8192}, {4096, 16384}, {2048, 32768},
                               {1024, 65536}, {256, 262144}};
  check_cluster_online<float, 8, 1024>(16, 262144);
  check_cluster_online<float, 2, 1024>(16, 65536 + 8);  // a ragged split
  check_cluster_online<bfloat16_t, 16, 512>(8, 262144);
  std::printf("dtype,rows,length,kernel,tpr,np,us,gbps\n");
  for (const auto& s : shapes) {
    if (s[1] < min_length) continue;
    sweep_shape<float>(s[0], s[1]);
    sweep_shape<bfloat16_t>(s[0], s[1]);
  }
  return 0;
}
