#pragma once
// What the GPU sweeps share: error checking and the timing method (the Python harness's, in CUDA):
// the median of 7 CUDA-graph replays of `launches` launches, each launch on its own input so that the
// inputs together do not stay in L2.
// The library launches every kernel with programmatic dependent launch on Hopper (core/cuda_launch.cuh), so
// that a launch overlaps the tail of the one before. The sweeps that launch through cuda::launch do too; the
// others launch with <<<>>> (no overlap), so their times compare kernels with each other, not with the library's
// bench rows.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "core/half_types.h"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));      \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// The element type's name as torch spells it, for the sweeps' CSV rows.
template <class T>
const char* dtype_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, ort::half_t>) return "float16";
  else return "bfloat16";
}

// Device 0's thread slots (SMs x threads an SM): what create() hands the launches whose PDL trigger depends on the
// grid's share of the GPU (core/cuda_launch.cuh's trigger_for).
inline int64_t device_thread_slots() {
  int sms = 0, threads_per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
  return int64_t(sms) * threads_per_sm;
}

// Launches per graph, each on its own tensors, for a kernel that moves `bytes` a launch: at least 20, and
// enough that together they span 256 MiB, so that a launch does not find its inputs in L2 (50 MiB).
inline int launches_for(size_t bytes) {
  return int(std::max<size_t>(20, ((size_t(256) << 20) + bytes - 1) / bytes));
}

// One (out, x) pair of device tensors per launch of a sweep's arm, x filled with 0x3c bytes (finite in every dtype:
// ~0.011 in fp32, ~1.06 in fp16), all freed when it goes out of scope.
template <class T>
struct LaunchTensors {
  std::vector<T*> out, x;
  LaunchTensors(int launches, size_t out_bytes, size_t x_bytes) : out(size_t(launches)), x(size_t(launches)) {
    for (int i = 0; i < launches; ++i) {
      CHECK(cudaMalloc(&out[size_t(i)], out_bytes));
      CHECK(cudaMalloc(&x[size_t(i)], x_bytes));
      CHECK(cudaMemset(x[size_t(i)], 0x3c, x_bytes));
    }
  }
  LaunchTensors(const LaunchTensors&) = delete;
  LaunchTensors& operator=(const LaunchTensors&) = delete;
  ~LaunchTensors() {
    for (size_t i = 0; i < out.size(); ++i) {
      cudaFree(out[i]);
      cudaFree(x[i]);
    }
  }
};

// Median microseconds per launch; launch(i, stream) enqueues launch number i on the capturing stream.
template <class F>
double time_graph(int launches, F&& launch) {
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  for (int i = 0; i < launches; ++i) launch(i, st);  // warm up (and fail early on a bad config)
  CHECK(cudaStreamSynchronize(st));
  CHECK(cudaGetLastError());
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < launches; ++i) launch(i, st);
  CHECK(cudaStreamEndCapture(st, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<double> us;
  for (int rep = 0; rep < 8; ++rep) {
    CHECK(cudaEventRecord(a, st));
    CHECK(cudaGraphLaunch(exec, st));
    CHECK(cudaEventRecord(b, st));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (rep) us.push_back(ms * 1000.0 / launches);  // replay 0 warms the graph
  }
  std::sort(us.begin(), us.end());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(st));
  return us[us.size() / 2];
}
