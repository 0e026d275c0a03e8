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

namespace ort::cuda {

// When a kernel lets the next one start: at once (Early), or as each of its blocks exits (AtExit, the implicit
// trigger). Early hides more of the gap, but then the next kernel's blocks wait beside this kernel's on every SM
// with room for them; kernels whose grid fills part of the GPU for a few microseconds or more ran slower so
// (why was not profiled: the waiting blocks' cost to the running ones is the guess).
// Measured on the H200 (session 13, run bi, the bench built both ways): reduce_sum 256x262144 fp32 61.1 us
// (AtExit) against 83.3 (Early), 4096x4096 fp32 17.2 against 22.6, 4096x1024 fp32 5.5 against 6.7; softmax
// 4096x128 fp32 2.91 against 2.35, vector_add 4096 elements 1.08 against 0.76. So the reduce_sum kernels
// trigger at exit and the others early.
enum class Trigger { Early, AtExit };

template <Trigger WHEN = Trigger::Early>
__device__ __forceinline__ void pdl_prologue() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (WHEN == Trigger::Early) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// A stream, and whether its device runs PDL (create() asks once: DeviceProps::programmatic_launch).
struct Stream {
  cudaStream_t handle = nullptr;
  bool pdl = false;
};

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
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Args&&>(args)...);
}

template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, Stream s, Args&&... args) {
  return launch_in_clusters(kernel, grid, block, 0, s, static_cast<Args&&>(args)...);
}

}  // namespace ort::cuda
