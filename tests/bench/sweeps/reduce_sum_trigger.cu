// reduce_sum's row kernel (`contiguous`, as create() launches it for unit-stride rows) under each PDL trigger.
// Session 43 (run hg, same bench run) timed our CUDA's rows-4096x1024 halves at 3.96 / 4.30 us (fp16 / bf16)
// against TileLang's 3.31 / 3.36, though both run a warp a row, 8 rows a block, a lane's 4 packs loaded before one
// warp reduction. One difference the CPU shows: 512 blocks of 256 threads ask 48.5 % of the H200's thread slots,
// so core/cuda_launch.cuh's HalfWindow rule launches ours AtExit, while TileLang's short-row kernels trigger Early
// up to two waves. Session 14 (run bm) found Early 22-39 % slower for reduce_sum grids of such shares (4096x4096
// and 256x262144 fp32), so this is a question for the GPU, not a fix. Arms, each launched with PDL in a CUDA graph
// as the bench replays it, A B C A B C:
//   early:    the trigger at the kernel's start for every grid (a Stream without thread slots);
//   library:  the library's rule (HalfWindow over the device's thread slots);
//   at_exit:  the trigger as each block exits, for every grid.
// Rows: 16-bit rows of 512 and 1024 halves and fp32 rows of 1024 at 1024-16384 rows (the shares either side of the
// window), and fp32 4096x4096 (a block of 256 a row, kRowBlockTpr), the row where session 14 found AtExit faster.
// `./reduce_sum_trigger l2` cycles 16 input sets, as the Python bench holds inputs under its rotation bound.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_trigger.cu -o reduce_sum_trigger
//   ./reduce_sum_trigger [l2] > reduce_sum_trigger.csv   (scripts/gpu_check.sh --sweep with SWEEPS=reduce_sum_trigger)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

int g_sets = 0;  // 0: launches_for's sets (out of L2); else this many sets cycled by 128 launches a graph

// The library's launch for these rows: TPR threads a row (grid_tpr), 4 packs in flight (unroll_for at 32 and 256
// threads), and the batched tail where a thread has 2-3 packs past its last batch (batch_tail: 512 halves).
template <class T, int TPR, bool kTail>
void sweep(int rows, int length, int64_t slots) {
  constexpr int kBlock = TPR < 256 ? 256 : TPR, kVec = 16 / int(sizeof(T));
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  const int sets = g_sets > 0 ? g_sets : launches_for(bytes + size_t(rows) * sizeof(T));
  const int launches = g_sets > 0 ? 128 : sets;
  const LaunchTensors<T> t(sets, size_t(rows) * sizeof(T), bytes);
  const RowsOfDim r = contiguous_rows(rows, length, false);
  const unsigned blocks = unsigned((rows + kBlock / TPR - 1) / (kBlock / TPR));
  const double share = double(blocks) * kBlock / double(slots);
  auto time = [&](cuda::Stream s) {
    return time_graph(launches, [&](int i, cudaStream_t st) {
      s.handle = st;
      cuda::launch(reduce_sum_kernels::contiguous<T, kVec, TPR, 4, kBlock, kTail>, dim3(blocks), dim3(kBlock), s,
                   t.out[size_t(i % sets)], static_cast<const T*>(t.x[size_t(i % sets)]), nullptr, r);
    });
  };
  for (int rep = 0; rep < 2; ++rep) {
    const double early = time(cuda::Stream{nullptr, true, 0});
    const double library = time(cuda::Stream{nullptr, true, slots, cuda::TriggerRule::HalfWindow});
    const double at_exit = time(cuda::Stream{nullptr, true, 1, cuda::TriggerRule::ManyWaves});  // every share > 2
    std::printf("%s,%d,%d,%d,%u,%.3f,%d,%.3f,%.3f,%.3f\n", dtype_name<T>(), rows, length, g_sets, blocks, share, rep,
                early, library, at_exit);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "l2") g_sets = 16;
  const int64_t slots = device_thread_slots();  // the thread slots reduce_sum's create() hands its launches
  std::printf("dtype,rows,length,sets,blocks,share,rep,early_us,library_us,at_exit_us\n");
  for (int rows : {1024, 2048, 4096, 8192, 16384}) {
    sweep<half_t, 32, false>(rows, 1024, slots);
    sweep<bfloat16_t, 32, false>(rows, 1024, slots);
    sweep<half_t, 32, true>(rows, 512, slots);
    sweep<float, 32, false>(rows, 1024, slots);
  }
  sweep<float, reduce_sum_kernels::kRowBlockTpr, false>(4096, 4096, slots);
  return 0;
}
