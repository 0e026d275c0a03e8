#pragma once
// How every nvidia kernel of the library is launched, and the call each kernel makes first.
//
// Programmatic dependent launch (PDL, compute capability 9.0+). A kernel launched with programmatic stream
// serialisation may start its blocks while the kernel before it in the stream is still running, once every
// block of that kernel has executed `griddepcontrol.launch_dependents`; `griddepcontrol.wait` then holds each
// thread until the kernel before has finished and its writes are visible. Every kernel here waits first
// (pdl_prologue; whether it also lets the next one start there is its Trigger), so it touches no memory before
// its predecessor is done: correctness is that of plain stream order. What it gains is the gap between kernels:
// the launch and the first blocks' start overlap the last blocks of the kernel before. Short softmax rows in
// back-to-back graph replay (sweep, H200, session 13): 4096x128 fp32 3.16 -> 2.26 us, 4096x1024 bf16 6.31 ->
// 5.64. The overlap happens only after a kernel that triggers it (ours); after one of torch's kernels the
// launch waits for its end, as without PDL.
#include <cuda_runtime.h>

#include <cstdint>

namespace ort::cuda {

// When a kernel lets the next one start: at once (Early), or as each of its blocks exits (AtExit, the implicit
// trigger). Early hides more of the gap; AtExit keeps the next kernel's blocks off the SMs until this kernel's
// blocks leave. Measured on the H200 with one build timing both (session 14, run bm,
// docs/runs/pdl-trigger-h200-2026-11-30-bm.md): the softmax, vector_add and copy kernels ran as fast or faster
// with Early on every benchmark row (softmax 4096x1024 bf16 5.45 against 6.15 us, vector_add 1008x2304 bf16 4.85
// against 5.26); the reduce_sum kernels ran faster with AtExit exactly where their grid asks for 35-75 % of the
// GPU's thread slots (256x262144 fp32, 131 K threads of 270 K: 59.9 against 83.4 us; 4096x4096 fp32 17.1 against
// 22.6) and with Early elsewhere (144x1280, 5 K threads: 1.71 against 2.04; 4096x4096 halves, 524 K: 9.3
// against 10.0). Why an early trigger costs a reduction that fills half the GPU is not measured yet
// (tests/bench/sweeps/pdl_placement.cu tests one guess: where the next grid's waiting blocks land).
enum class Trigger : unsigned char { Early, AtExit };

// AFTER_WAIT (a kernel's template argument; `when` then unread) triggers after the wait instead of before it. Early
// before the wait cascades: the next grid's blocks trigger the one after as soon as they are resident, so every grid
// of a back-to-back chain is launched at once, its blocks waiting in whatever slots the grids ahead left free, and a
// grid whose blocks land two to an SM lasts as long as that SM; after the wait, one grid at most waits behind the
// running one (reduce_sum's packed_rows: lane_packs_after_wait in ops/reduce_sum/nvidia/short_rows_plan.cuh). A
// template argument, not a third Trigger: a runtime branch on it in every kernel's prologue cost unchanged kernels
// 3-20 % (run kq, copy tiny 0.563 -> 0.681 us).
template <bool AFTER_WAIT = false>
__device__ __forceinline__ void pdl_prologue(Trigger when) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (AFTER_WAIT) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  } else {
    if (when == Trigger::Early) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
#endif
}

// Which grids trigger AtExit, by the share of the GPU's thread slots they ask for. Both rules are reduce_sum's,
// measured on the H200 with one build timing both triggers.
enum class TriggerRule : unsigned char {
  // 35-75 %: the row, split and column kernels (session 14, above). Above one wave these lost 1-2 % AtExit
  // (run ds, twice: the 4096x16384, 1024x65536 and 32768x4096 rows), so they stay Early there.
  HalfWindow,
  // Above two waves (200 %): short_rows. Run ds (docs/runs/short-rows-trigger-h200-2026-12-01-ds.txt): AtExit
  // took 262144x128 fp32 / bf16 40.6 / 40.5 -> 34.6 / 29.5 us and 65536x32 10.7 -> 7.8, where Early at 194 %
  // (16384x128) beat it by 5-13 %; and short_rows at 48 % ran faster Early (4096x128 bf16 1.41 -> 1.04).
  ManyWaves,
  // Every grid: reduce_sum's packed_rows where the next grid's blocks would not fit beside its own
  // (lane_packs_at_exit in ops/reduce_sum/nvidia/short_rows_plan.cuh).
  AtExit,
};

// A stream, whether its device runs PDL, and which trigger its launches pass: Early for every grid while
// thread_slots is 0; with thread_slots (SMs x threads an SM, from DeviceProps) AtExit where `rule` says
// (reduce_sum sets them, create() asks the device once).
struct Stream {
  cudaStream_t handle = nullptr;
  bool pdl = false;
  int64_t thread_slots = 0;
  TriggerRule rule = TriggerRule::HalfWindow;
};

inline Trigger trigger_for(dim3 grid, dim3 block, const Stream& s) {
  if (s.rule == TriggerRule::AtExit) return Trigger::AtExit;
  if (s.thread_slots <= 0) return Trigger::Early;
  const double threads = double(grid.x) * grid.y * grid.z * block.x * block.y * block.z;
  const double share = threads / double(s.thread_slots);
  if (s.rule == TriggerRule::ManyWaves) return share > 2.0 ? Trigger::AtExit : Trigger::Early;
  return share > 0.35 && share < 0.75 ? Trigger::AtExit : Trigger::Early;
}

// The configuration of kernel<<<grid, block, smem, s.handle>>>, with PDL where s allows it and a cluster of
// `cluster` CTAs along x where cluster > 0 (the attributes live in `attrs`). Also what occupancy queries of
// a cluster launch take (softmax's cluster_fits).
inline cudaLaunchConfig_t launch_config(dim3 grid, dim3 block, unsigned cluster, Stream s,
                                        cudaLaunchAttribute (&attrs)[2], size_t smem = 0) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
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
// With `smem` bytes of dynamic shared memory a CTA (over 48 KB, the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize
// must have been raised first: softmax's cluster_fits does it in create()).
template <class... Params, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned cluster, size_t smem,
                               Stream s, Args&&... args) {
  cudaLaunchAttribute attrs[2];
  const cudaLaunchConfig_t cfg = launch_config(grid, block, cluster, s, attrs, smem);
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<Args&&>(args)..., trigger_for(grid, block, s));
}

template <class... Params, class... Args>
cudaError_t launch_in_clusters(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned cluster, Stream s,
                               Args&&... args) {
  return launch_in_clusters(kernel, grid, block, cluster, size_t(0), s, static_cast<Args&&>(args)...);
}

template <class... Params, class... Args>
cudaError_t launch(void (*kernel)(Params...), dim3 grid, dim3 block, Stream s, Args&&... args) {
  return launch_in_clusters(kernel, grid, block, 0, s, static_cast<Args&&>(args)...);
}

}  // namespace ort::cuda
