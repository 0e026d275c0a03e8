#pragma once
// How every nvidia kernel of the library is launched, and the call each kernel makes first.
//
// Programmatic dependent launch (PDL, compute capability 9.0+). A kernel launched with programmatic stream
// serialisation may start its blocks while the kernel before it in the stream is still running, once every
// block of that kernel has executed `griddepcontrol.launch_dependents`; `griddepcontrol.wait` then holds each
// thread until the kernel before has finished and its writes are visible. Every kernel here waits first
// (pdl_prologue; most trigger there too, see Trigger), so it touches no memory before its predecessor is done:
// correctness is that of plain stream order. What it gains is the gap between kernels: the launch and the first blocks' start overlap the last
// blocks of the kernel before. Short softmax rows in back-to-back graph replay (sweep, H200, session 13):
// 4096x128 fp32 3.16 -> 2.26 us, 4096x1024 bf16 6.31 -> 5.64. The overlap happens only after a kernel that
// triggers it (ours); after one of torch's kernels the launch waits for its end, as without PDL.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ort::cuda {

// When a kernel lets the next one start: at once (Early), or as each of its blocks exits (AtExit, the implicit
// trigger). Early hides more of the gap, but then the next kernel's blocks wait beside this kernel's on every SM
// with room for them. Measured on the H200 (session 13, run bi, the library built both ways,
// docs/runs/pdl-trigger-h200-2026-11-30-bi.md): AtExit won on every row whose grid asked for about half the GPU's
// thread slots (128-131 K threads of 270 K: reduce_sum 256x262144 fp32 61.1 us against 83.3, 4096x4096 fp32 17.2
// against 22.6, softmax 4096x1024 bf16 5.69 against 5.88), Early on every row that asked for a quarter or less
// (softmax 4096x128 fp32, 65 K: 2.35 against 2.91; reduce_sum 1008x2304, 32 K: 4.92 against 5.42) or nearly
// all (vector_add 1008x2304, 258 K; reduce_sum 4096x4096 halves, 262 K). EXPERIMENT (branch
// next/pdl-trigger-by-grid, not run on the GPU): launch() picks it from that share, each kernel gets it as
// its last argument. The bounds are fitted to run bi's rows, between the shares it measured.
enum class Trigger : unsigned char { Early, AtExit };

__device__ __forceinline__ void pdl_prologue(Trigger when) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if (when == Trigger::Early) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// A stream, whether its device runs PDL, and how many threads the device holds at once (SMs x threads an SM):
// create() asks once (DeviceProps).
struct Stream {
  cudaStream_t handle = nullptr;
  bool pdl = false;
  int64_t thread_slots = 0;
};

// EXPERIMENT switch (session 14): ORT_PDL_TRIGGER=early or exit forces one trigger for every launch, so one
// build can time both on the same machine; anything else keeps the choice by grid. Read once.
inline int forced_trigger() {
  static const int forced = [] {
    const char* e = std::getenv("ORT_PDL_TRIGGER");
    if (e && std::strcmp(e, "early") == 0) return 1;
    if (e && std::strcmp(e, "exit") == 0) return 2;
    return 0;
  }();
  return forced;
}

inline Trigger trigger_for(dim3 grid, dim3 block, const Stream& s) {
  if (forced_trigger() != 0) return forced_trigger() == 1 ? Trigger::Early : Trigger::AtExit;
  if (s.thread_slots <= 0) return Trigger::Early;
  const double threads = double(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
  const double share = threads / double(s.thread_slots);
  return share > 0.35 && share < 0.75 ? Trigger::AtExit : Trigger::Early;
}

// The configuration of kernel<<<grid, block, 0, s.handle>>>, with PDL where s allows it and a cluster of
// `cluster` CTAs along x where cluster > 0 (the attributes live in `attrs`). Also what occupancy queries of
// a cluster launch take (softmax's cluster_fits).
inline cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, unsigned cluster, Stream s,
                                        cudaLaunchAttribute (&attrs)[2]) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.stream = s.handle;
  unsigned n = 0;
  if (s.pdl) {
    attrs[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[n].val.programmaticStreamSerializationAllowed = 1;
    ++n;
  }
  if (cluster > 0) {
    attrs[n].id = cudaLaunchAttributeClusterDimension;
    attrs[n].val.clusterDim.x = cluster;
    attrs[n].val.clusterDim.y = attrs[n].val.clusterDim.z = 1;
    ++n;
  }
  cfg.attrs = attrs;
  cfg.numAttrs = n;
  return cfg;
}

// A failed launch is also recorded for cudaGetLastError, which execute() reads (last_launch_status), so
// callers that launch several kernels may ignore the returned error.
template <class... Params, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned cluster, Stream s,
                               Args&&... args) {
  cudaLaunchAttribute attrs[2];
  const cudaLaunchConfig_t cfg = launch_config(grid, block, cluster, s, attrs);
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Args&&>(args)..., trigger_for(grid, block, s));
}

template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, Stream s, Args&&... args) {
  return launch_in_clusters(kernel, grid, block, 0, s, static_cast<Args&&>(args)...);
}

}  // namespace ort::cuda
