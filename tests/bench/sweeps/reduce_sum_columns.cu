// reduce_sum over dim 0 of a contiguous (rows, cols) tensor, the column sums: `strided_lanes` (a block of 256 threads
// as 256 / LANES output threads, a 16-byte pack of outputs each, by LANES row lanes, one fp32 sum a value, the lanes
// added in shared memory, then finish_rows where split) at LANES 1-8 and UNROLL 4 or 8, each unsplit (where that fills
// an eighth of a wave), at the split counts that fill half, one and two waves of its own resident blocks and at the
// largest power of two within one wave; and, for columns that are not whole packs, the element kernel (LANES 8,
// UNROLL 8, an output a thread). Session 52 wrote
// it to replace `strided` (a thread an output or pack walking every row of its split, UNROLL sums live), which runs
// il and in timed beside these arms (docs/runs/reduce-sum-columns-h200-2026-12-03-{il,in}.csv: 32768x4096 halves
// 66.4-66.9 against LANES 8 x UNROLL 8's 62.9-63.0 us; 32768x4095 bf16 elements 253.8 against 79.1) before it was
// removed. Launched as the library launches them (PDL, the HalfWindow trigger), in CUDA graphs of launches on their
// own inputs (sweep_timing.cuh), so the times compare with each other and, roughly, with the bench.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_columns.cu -o reduce_sum_columns
//   ./reduce_sum_columns [FIRST] > reduce_sum_columns.csv   (FIRST: skip the shapes before this index;
//   scripts/gpu_check.sh --sweep with SWEEPS=reduce_sum_columns)
//   ./reduce_sum_columns ROWSxCOLS... > edge.csv   (those shapes in every dtype, the library's arm only: session 53's
//   grid of columns whose unsplit grid fills a fifth of a wave or more, where the rule against splitting sits)
//   ncu -k regex:"strided_lanes|finish_rows" ... ./reduce_sum_columns ROWSxCOLS... ncu   (a trailing `ncu`: each
//   split count launched twice, untimed, outside graphs, so the profiler sees every count's kernels; the launch's
//   grid tells the counts apart)
//   ./reduce_sum_columns ROWSxCOLS... atexit|early|nopdl   (a trailing launch mode: every launch AtExit, every launch
//   Early, or no PDL, in place of the library's HalfWindow rule; the `launch` column names it. Session 55's ncu (run
//   iv) timed each kernel alone at 123.6-125.4 us where this sweep's graphs read 149-150 (fp32 32768x4096 at 10
//   splits, an Early grid under a wave) and 4-6 us under the kernels' sum elsewhere: these modes say how much of
//   each is the trigger)
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

// A trailing argument: `ncu` launches each count untimed; the others time every launch with one PDL trigger (or none)
// in place of the library's rule (the `launch` column).
enum class Mode { Library, Ncu, AtExit, Early, NoPdl };
constexpr const char* kModeNames[] = {"library", "ncu", "atexit", "early", "nopdl"};
Mode mode = Mode::Library;

cuda::Stream stream_for(cudaStream_t st, int64_t slots) {
  switch (mode) {
    case Mode::AtExit: return cuda::Stream{st, true, slots, cuda::TriggerRule::AtExit};
    case Mode::Early: return cuda::Stream{st, true, 0};
    case Mode::NoPdl: return cuda::Stream{st, false};
    default: return cuda::Stream{st, true, slots};
  }
}

struct Arm {
  const char* name;
  int lanes, unroll;
};

constexpr Arm kArms[] = {{"lanes1_u4", 1, 4}, {"lanes1_u8", 1, 8}, {"lanes2_u4", 2, 4}, {"lanes2_u8", 2, 8},
                         {"lanes4_u4", 4, 4}, {"lanes4_u8", 4, 8}, {"lanes8_u4", 8, 4}, {"lanes8_u8", 8, 8}};

// Calls f(kernel) with the arm's kernel for T: VEC outputs a thread (16-byte packs, or 1 for columns whose packs
// do not fit).
template <class T, int kVec = 16 / sizeof(T), class F>
void with_kernel(const Arm& a, F&& f) {
  namespace k = reduce_sum_kernels;
  if (a.lanes == 1 && a.unroll == 4) f(k::strided_lanes<T, kVec, 1, 4>);
  else if (a.lanes == 1) f(k::strided_lanes<T, kVec, 1, 8>);
  else if (a.lanes == 2 && a.unroll == 4) f(k::strided_lanes<T, kVec, 2, 4>);
  else if (a.lanes == 2) f(k::strided_lanes<T, kVec, 2, 8>);
  else if (a.lanes == 4 && a.unroll == 4) f(k::strided_lanes<T, kVec, 4, 4>);
  else if (a.lanes == 4) f(k::strided_lanes<T, kVec, 4, 8>);
  else if (a.unroll == 4) f(k::strided_lanes<T, kVec, 8, 4>);
  else f(k::strided_lanes<T, kVec, 8, 8>);
}

template <class T, int kVec = 16 / sizeof(T)>
void sweep(int64_t rows, int64_t cols, int sms, int64_t slots, bool library_arm_only = false) {
  const size_t bytes = size_t(rows) * size_t(cols) * sizeof(T);
  const int launches = mode == Mode::Ncu ? 1 : launches_for(bytes);
  const LaunchTensors<T> t(launches, size_t(cols) * sizeof(T), bytes);
  float* ws;
  CHECK(cudaMalloc(&ws, size_t(cols) * 4096 * sizeof(float)));
  const RowsOfDim r = contiguous_columns(rows, cols);
  for (const Arm& a : kArms) {
    namespace k = reduce_sum_kernels;
    const bool library_arm = a.lanes == k::kColumnLanes && a.unroll == k::kColumnUnroll;
    if ((kVec == 1 || library_arm_only) && !library_arm) continue;  // elements: the library's shape
    with_kernel<T, kVec>(a, [&](auto kernel) {
      int resident = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, 256, 0));
      // 256 / lanes output threads a block, VEC outputs each: the blocks along x that cover cols.
      const int64_t per_block = int64_t(256 / a.lanes) * kVec;
      const unsigned bx = unsigned((cols + per_block - 1) / per_block);
      const int wave = int(std::max<int64_t>(1, int64_t(sms) * resident / bx));
      // Half a wave, one and two; and unsplit (no finishing kernel) where the unsplit grid fills at least an eighth
      // of a wave (below that it only runs long).
      std::vector<int> counts;
      if (int64_t(bx) * 8 >= int64_t(sms) * resident) counts.push_back(1);
      // And the largest power of two within the wave, the count TileLang's plan can cut (its pieces must divide the
      // length): its lanes kernel ran 32768x4096 fp32 at 16 pieces in 119.6 us against our 20 splits' 121.8 (run im).
      const int pow2 = int(reduce_sum_kernels::floor_pow2(wave));
      for (int s : {wave / 2, wave, wave * 2, pow2})
        if (s > 1 && std::find(counts.begin(), counts.end(), s) == counts.end()) counts.push_back(s);
      for (int splits : counts) {
        if (splits > 4096 || rows / splits < 16) continue;
        const auto launch = [&](int i, const cuda::Stream& s) {
          T* out = t.out[size_t(i)];
          const T* x = t.x[size_t(i)];
          cuda::launch(kernel, dim3(bx, unsigned(splits)), 256, s, out, x, ws, r);
          if (splits > 1)
            cuda::launch(reduce_sum_kernels::finish_rows<T>, unsigned((cols + 31) / 32),
                         dim3(32, reduce_sum_kernels::kFinishLanes), s, out, static_cast<const float*>(ws), r, splits);
        };
        if (mode == Mode::Ncu) {
          for (int rep = 0; rep < 2; ++rep) launch(0, cuda::Stream{nullptr, false});
          CHECK(cudaDeviceSynchronize());
          std::printf("%s,%lldx%lld,%s,%d,%d,%d,%d,launched,,ncu\n", dtype_name<T>(), (long long)rows,
                      (long long)cols, a.name, a.lanes, a.unroll, resident, splits);
          continue;
        }
        const double us =
            time_graph(launches, [&](int i, cudaStream_t st) { launch(i, stream_for(st, slots)); });
        std::printf("%s,%lldx%lld,%s,%d,%d,%d,%d,%.2f,%.0f,%s\n", dtype_name<T>(), (long long)rows, (long long)cols,
                    kVec == 1 ? "elements_lanes8_u8" : a.name, a.lanes, a.unroll, resident, splits, us,
                    double(bytes + size_t(cols) * sizeof(T)) / us * 1e-3, kModeNames[int(mode)]);
        std::fflush(stdout);
      }
    });
  }
  CHECK(cudaFree(ws));
}

}  // namespace

int main(int argc, char** argv) {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int64_t slots = device_thread_slots();
  std::printf("dtype,shape,arm,lanes,unroll,blocks_per_sm,splits,us,gbps,launch\n");
  for (int m = 1; argc > 2 && m < int(std::size(kModeNames)); ++m)
    if (std::strcmp(argv[argc - 1], kModeNames[m]) == 0) mode = Mode(m);
  if (argc > 1 && std::strchr(argv[1], 'x')) {
    for (int i = 1; i < argc - int(mode != Mode::Library); ++i) {
      long long rows = 0, cols = 0;
      if (std::sscanf(argv[i], "%lldx%lld", &rows, &cols) != 2 || rows <= 0 || cols <= 0 || cols % 8) {
        std::fprintf(stderr, "bad shape %s (want ROWSxCOLS, COLS a multiple of 8)\n", argv[i]);
        return 2;
      }
      sweep<bfloat16_t>(rows, cols, sms, slots, true);
      sweep<half_t>(rows, cols, sms, slots, true);
      sweep<float>(rows, cols, sms, slots, true);
    }
    return 0;
  }
  const int64_t first_shape = argc > 1 ? std::atoi(argv[1]) : 0;  // skip the shapes before this index
  // The bench's case first, then columns of other widths and depths (a rule fitted on one shape is timed on its
  // neighbours before it lands).
  // Run il (session 52) timed the first six; the next four put the unsplit grid at 19-48 % of a wave of 16-bit lane
  // blocks (256x65536 ran 16 % faster unsplit than at the wave's 2 splits), where a rule against splitting would sit.
  const int64_t shapes[][2] = {{32768, 4096}, {4096, 4096}, {65536, 1024}, {2048, 16384}, {256, 65536}, {262144, 256},
                               {1024, 32768}, {1024, 49152}, {2048, 65536}, {512, 81920}};
  for (int64_t i = first_shape; i < int64_t(std::size(shapes)); ++i) {
    const auto& s = shapes[i];
    sweep<bfloat16_t>(s[0], s[1], sms, slots);
    sweep<half_t>(s[0], s[1], sms, slots);
    sweep<float>(s[0], s[1], sms, slots);
  }
  // Columns that are not whole packs (a width of 4095) take the element kernel.
  for (const auto& s : {std::array<int64_t, 2>{32768, 4095}, std::array<int64_t, 2>{4096, 4095}}) {
    sweep<bfloat16_t, 1>(s[0], s[1], sms, slots);
    sweep<float, 1>(s[0], s[1], sms, slots);
  }
  return 0;
}
