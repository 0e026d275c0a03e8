// reduce_sum's rows of 33-256 16-byte packs: `contiguous` (the library's kernel for them until session 44: a warp a
// row, 8 rows a block, a 64-bit row walk and a loop of 4-pack batches) against packed_rows at a warp a row with the
// lane's 2-8 packs loaded at once (the library's since: 2-4 after run hj, 5-8 after runs hk and hl) (lane_packs_rows in short_rows_plan.cuh: TileLang's shape, which ran
// rows-4096x1024 halves 3.31 us against contiguous's 3.96 in session 43's bench). Run hi (session 44) ruled out the
// PDL trigger at 1024 halves (Early, HalfWindow and AtExit within 1 % at 4096 rows) but found Early 15 % faster at
// 4096x512 halves, so packed_rows is timed under both its launch's rule (ManyWaves: Early up to two waves) and
// contiguous's (HalfWindow), to tell the kernel from the trigger. Each launched with PDL in a CUDA graph as the bench
// replays it, A B C A B C:
//   contiguous:   the library's launch before (HalfWindow; the batched tail where a lane has 2-3 packs);
//   lane_packs:   packed_rows<T, 32, int, PACKS> as launch_short_rows launches it (ManyWaves);
//   lane_packs_hw: the same kernel under HalfWindow;
//   lane_packs_exit: the same kernel at exit whatever the grid (AtExit: lane_packs_at_exit's choice).
// Rows: 16-bit rows of 264-1024 halves and bf16 of 1024, fp32 rows of 256 and 512, at 256-131072 rows (the
// few-rows end, the half-wave window, and many waves).
// `./reduce_sum_lane_packs l2` cycles 16 input sets, as the Python bench holds inputs under its rotation bound;
// `./reduce_sum_lane_packs long` times rows of 5-8 packs a lane instead; `./reduce_sum_lane_packs window` times rows
// of 2-8 packs at 256-2048 rows, around the grids of more than a quarter of the SMs and at most one block an SM,
// where TileLang's warp a row ran 1.2-1.6x faster at exit than early (run ho).
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_lane_packs.cu -o reduce_sum_lane_packs
//   ./reduce_sum_lane_packs [l2] [long | window] > reduce_sum_lane_packs.csv   (scripts/gpu_check.sh --sweep with
//   SWEEPS=reduce_sum_lane_packs)
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "core/cuda_launch.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

int g_sets = 0;  // 0: launches_for's sets (out of L2); else this many sets cycled by 128 launches a graph

template <class T, int PACKS>
void sweep(int rows, int length, int64_t slots) {
  constexpr int kVec = 16 / int(sizeof(T));
  // contiguous's batched tail where a lane has 2-3 packs (batch_tail in reduce_sum_cuda.cu, 4 packs a batch)
  constexpr bool kTail = PACKS % 4 >= 2;
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  const int sets = g_sets > 0 ? g_sets : launches_for(bytes + size_t(rows) * sizeof(T));
  const int launches = g_sets > 0 ? 128 : sets;
  const LaunchTensors<T> t(sets, size_t(rows) * sizeof(T), bytes);
  const RowsOfDim r = contiguous_rows(rows, length, false);
  const ShortRowsPlan p = plan_short_rows(r);
  const unsigned blocks = unsigned(p.blocks);
  const double share = double(blocks) * 256 / double(slots);
  auto time = [&](bool packed, cuda::TriggerRule rule) {
    return time_graph(launches, [&](int i, cudaStream_t st) {
      const cuda::Stream s{st, true, slots, rule};
      T* out = t.out[size_t(i % sets)];
      const T* x = static_cast<const T*>(t.x[size_t(i % sets)]);
      if (packed)
        cuda::launch(reduce_sum_kernels::packed_rows<T, 32, int, PACKS>, blocks, 256, s, out, x, rows, length,
                     length, 1);
      else
        cuda::launch(reduce_sum_kernels::contiguous<T, kVec, 32, 4, 256, kTail>, blocks, 256, s, out, x,
                     static_cast<float*>(nullptr), r);
    });
  };
  for (int rep = 0; rep < 2; ++rep) {
    const double contiguous = time(false, cuda::TriggerRule::HalfWindow);
    const double lane_packs = time(true, cuda::TriggerRule::ManyWaves);
    const double lane_packs_hw = time(true, cuda::TriggerRule::HalfWindow);
    const double lane_packs_exit = time(true, cuda::TriggerRule::AtExit);
    std::printf("%s,%d,%d,%d,%d,%u,%.3f,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", dtype_name<T>(), rows, length, g_sets, PACKS,
                blocks, share, rep, contiguous, lane_packs, lane_packs_hw, lane_packs_exit, contiguous / lane_packs);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool longer = false, window = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "l2") g_sets = 16;
    if (std::string(argv[i]) == "long") longer = true;
    if (std::string(argv[i]) == "window") window = true;
  }
  const int64_t slots = device_thread_slots();  // the thread slots reduce_sum's create() hands its launches
  std::printf("dtype,rows,length,sets,lane_packs,blocks,share,rep,contiguous_us,lane_packs_us,lane_packs_hw_us,"
              "lane_packs_exit_us,speedup\n");
  if (window) {
    // 256 rows: 32 blocks, a quarter of 132 SMs or less; 272-1056: the window; 1064: 133 blocks; 2048: 2 an SM
    for (int rows : {256, 272, 512, 1024, 1056, 1064, 2048}) {
      sweep<half_t, 2>(rows, 512, slots);
      sweep<half_t, 3>(rows, 768, slots);
      sweep<half_t, 4>(rows, 1024, slots);
      sweep<bfloat16_t, 4>(rows, 1024, slots);
      sweep<float, 4>(rows, 512, slots);
      sweep<half_t, 5>(rows, 1280, slots);
      sweep<half_t, 6>(rows, 1536, slots);
      sweep<bfloat16_t, 8>(rows, 2048, slots);
      sweep<float, 8>(rows, 1024, slots);
    }
    return 0;
  }
  if (longer) {
    // `./reduce_sum_lane_packs long`: rows of 129-256 packs, 5-8 a lane: whether the warp a row's one batch of loads
    // still wins where a lane holds 40-64 floats (more registers) and contiguous loops twice (1536 halves: the
    // batched tail; the bench's 4080x1536 halves and rows-4096x1024 fp32 are such rows). Run hk: 1.0-1.35x but
    // fp32 rows of 1024 at 65536 rows (0.995x); the bench then ran 4080x1536 fp16 2 % slower (run hl)
    for (int rows : {1024, 4096, 16384, 65536}) {
      sweep<half_t, 5>(rows, 1280, slots);
      sweep<half_t, 6>(rows, 1536, slots);
      sweep<half_t, 8>(rows, 2048, slots);
      sweep<bfloat16_t, 6>(rows, 1536, slots);
      sweep<float, 6>(rows, 768, slots);
      sweep<float, 8>(rows, 1024, slots);
    }
    sweep<half_t, 6>(4080, 1536, slots);  // the bench's row, both dtypes
    sweep<bfloat16_t, 6>(4080, 1536, slots);
    return 0;
  }
  for (int rows : {256, 1024, 2048, 4096, 8192, 16384, 65536, 131072}) {
    sweep<half_t, 2>(rows, 264, slots);
    sweep<half_t, 2>(rows, 512, slots);
    sweep<half_t, 3>(rows, 768, slots);
    sweep<half_t, 4>(rows, 1000, slots);
    sweep<half_t, 4>(rows, 1024, slots);
    sweep<bfloat16_t, 4>(rows, 1024, slots);
    sweep<float, 2>(rows, 256, slots);
    sweep<float, 4>(rows, 512, slots);
  }
  return 0;
}
