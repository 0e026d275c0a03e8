#pragma once
// Small CUDA helpers shared by every nvidia backend: status conversion, the device query that create()
// needs, and a guard that launches on the descriptor's device without leaving the caller's changed.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "core/status.h"

namespace ort {

inline Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::Success;
  return fail(Status::CudaError, std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

// Launch errors surface through cudaGetLastError; execute() reports them instead of leaving them sticky.
inline Status last_launch_status(const char* kernel) { return cuda_status(cudaGetLastError(), kernel); }

struct DeviceProps {
  int sm_count = 0;
  int max_smem_optin = 0;
  int cluster_launch = 0;  // thread-block clusters (compute capability 9.0+)
  bool programmatic_launch = false;  // programmatic dependent launch (9.0+; core/cuda_launch.cuh)
  int max_threads_per_sm = 2048;
  int arch = 0;  // compute capability as __CUDA_ARCH__ spells it: 900 for 9.0
};

inline Status query_device(int device_id, DeviceProps* p) {
  Status s = cuda_status(cudaDeviceGetAttribute(&p->sm_count, cudaDevAttrMultiProcessorCount, device_id),
                         "querying the CUDA device");
  if (s != Status::Success) return s;
  s = cuda_status(cudaDeviceGetAttribute(&p->max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device_id),
                  "querying the CUDA device");
  if (s != Status::Success) return s;
  s = cuda_status(cudaDeviceGetAttribute(&p->cluster_launch, cudaDevAttrClusterLaunch, device_id),
                  "querying the CUDA device");
  if (s != Status::Success) return s;
  int major = 0, minor = 0;
  s = cuda_status(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device_id),
                  "querying the CUDA device");
  if (s != Status::Success) return s;
  s = cuda_status(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device_id),
                  "querying the CUDA device");
  if (s != Status::Success) return s;
  p->arch = major * 100 + minor * 10;
  p->programmatic_launch = major >= 9;
  return cuda_status(cudaDeviceGetAttribute(&p->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device_id),
                     "querying the CUDA device");
}

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    cudaGetDevice(&previous_);
    if (previous_ != device) cudaSetDevice(device);
  }
  ~DeviceGuard() {
    int now = 0;
    cudaGetDevice(&now);
    if (now != previous_) cudaSetDevice(previous_);
  }

 private:
  int previous_ = 0;
};

constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Threads the device holds at once: what the PDL trigger is chosen against (core/cuda_launch.cuh).
inline int64_t thread_slots(const DeviceProps& p) { return int64_t(p.sm_count) * p.max_threads_per_sm; }

}  // namespace ort
