// Times the library's reduce_sum kernels (reduce_sum_kernels.cuh) with every split count from 1 to 1024 on
// the benchmark shapes that miss their targets, so that plan() in ops/reduce_sum/nvidia/reduce_sum_cuda.cu
// can be chosen by measurement. A split count s launches s blocks per row group (grid.y) that each sum a
// chunk into the fp32 workspace, then the finishing kernel the library would use; both are in the time.
// Row sums are also timed with every threads-per-row count (tpr) from 32 to 512 (TileLang's packed row
// kernel, 128 threads and 16 values a thread a pass, beat a warp per row on 16-bit rows in session 6);
// session 7's run of it set the library's row_tpr.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/reduce_sum_splits.cu -o reduce_sum_splits
//   ./reduce_sum_splits [CASE [MAX_SPLITS]] > reduce_sum_splits.csv   (scripts/gpu_check.sh --sweep does both;
//   SWEEP_ARGS="rows- 1" there: row sums only, unsplit, every threads-per-row count, in seconds)
//
// Same method as softmax_configs.cu: median of 7 CUDA-graph replays, every launch on its own input, so
// the inputs (>= 256 MiB together) do not stay in L2.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

// The library's row kernel with TPR threads a row (blocks of max(TPR, 256) threads, as the library's).
template <class T, int TPR>
void launch_rows(const RowsOfDim& r, int splits, T* out, const T* x, float* ws, cudaStream_t st) {
  constexpr int kBlock = TPR < 256 ? 256 : TPR;
  const unsigned blocks = unsigned((r.rows + kBlock / TPR - 1) / (kBlock / TPR));
  reduce_sum_kernels::contiguous<T, 16 / sizeof(T), TPR><<<dim3(blocks, unsigned(splits)), kBlock, 0, st>>>(out, x, ws, r, ort::cuda::Trigger::Early);
}

// The library's row kernel with other loads in flight a thread (UNROLL) and rows a block (BLOCK / TPR):
// session 8's bench ran TileLang's packed row sum (one row a block of 128 threads, 2 packs a thread a pass)
// faster than ours on 16-bit rows of 4096-16384 (4096x16384 halves 31.8 us against 34.1).
struct Variant {
  int tpr, unroll, block;
  void (*launch_f32)(const RowsOfDim&, float*, const float*, float*, cudaStream_t);
  void (*launch_bf16)(const RowsOfDim&, bfloat16_t*, const bfloat16_t*, float*, cudaStream_t);
};

template <class T, int TPR, int UNROLL, int BLOCK>
void launch_variant(const RowsOfDim& r, T* out, const T* x, float* ws, cudaStream_t st) {
  const unsigned blocks = unsigned((r.rows + BLOCK / TPR - 1) / (BLOCK / TPR));
  reduce_sum_kernels::contiguous<T, 16 / sizeof(T), TPR, UNROLL, BLOCK><<<blocks, BLOCK, 0, st>>>(out, x, ws, r, ort::cuda::Trigger::Early);
}

template <int TPR, int UNROLL, int BLOCK>
constexpr Variant variant() {
  return {TPR, UNROLL, BLOCK, launch_variant<float, TPR, UNROLL, BLOCK>, launch_variant<bfloat16_t, TPR, UNROLL, BLOCK>};
}

constexpr Variant kVariants[] = {
    variant<32, 2, 256>(),  variant<32, 8, 256>(),  variant<64, 2, 256>(),  variant<64, 8, 256>(),
    variant<64, 4, 64>(),   variant<128, 2, 128>(), variant<128, 4, 128>(), variant<128, 8, 128>(),
    variant<128, 2, 256>(), variant<256, 2, 256>(), variant<512, 2, 512>(), variant<512, 8, 512>(),
};

// The main kernel for this shape with `splits` blocks along grid.y (and `tpr` threads a row for row sums).
template <class T>
void launch_main(const RowsOfDim& r, bool columns, int splits, int tpr, T* out, const T* x, float* ws,
                 cudaStream_t st) {
  constexpr int kVec = 16 / sizeof(T);
  if (columns) {
    using namespace reduce_sum_kernels;
    const unsigned blocks = unsigned((r.rows + 256 / kColumnLanes * kVec - 1) / (256 / kColumnLanes * kVec));
    strided_lanes<T, kVec, kColumnLanes, kColumnUnroll><<<dim3(blocks, unsigned(splits)), 256, 0, st>>>(
        out, x, ws, r, ort::cuda::Trigger::Early);
  } else if (tpr == 32) {
    launch_rows<T, 32>(r, splits, out, x, ws, st);
  } else if (tpr == 64) {
    launch_rows<T, 64>(r, splits, out, x, ws, st);
  } else if (tpr == 128) {
    launch_rows<T, 128>(r, splits, out, x, ws, st);
  } else if (tpr == 256) {
    launch_rows<T, 256>(r, splits, out, x, ws, st);
  } else {
    launch_rows<T, 512>(r, splits, out, x, ws, st);
  }
  if (splits == 1) return;
  if (r.rows < reduce_sum_kernels::kWarpFinishRows)
    reduce_sum_kernels::finish_few_rows<T><<<unsigned((r.rows * 32 + 255) / 256), 256, 0, st>>>(out, ws, r, splits, ort::cuda::Trigger::Early);
  else
    reduce_sum_kernels::finish_rows<T><<<unsigned((r.rows + 31) / 32), dim3(32, reduce_sum_kernels::kFinishLanes), 0,
                                         st>>>(out, ws, r, splits, ort::cuda::Trigger::Early);
}

template <class T>
void sweep_shape(const char* name, int64_t rows, int64_t length, bool columns, int max_splits) {
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  const int launches = launches_for(bytes);
  std::vector<void*> in(launches);
  for (auto& p : in) {
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMemset(p, 0x3c, bytes));
  }
  T* out;
  float* ws;
  CHECK(cudaMalloc(&out, size_t(rows) * sizeof(T)));
  CHECK(cudaMalloc(&ws, size_t(rows) * 1024 * sizeof(float)));
  // `rows` outputs over `length` elements; columns sum a (length, rows) matrix over dim 0
  const RowsOfDim r = columns ? contiguous_columns(length, rows) : contiguous_rows(rows, length, false);
  // Powers of two, and for column sums also counts between them: whether the power-of-two strides between
  // split chunks (256 rows of 8 KB = 2 MB apart at 128 splits) land on the same DRAM channels.
  std::vector<int> counts;
  for (int s = 1; s <= std::min(1024, max_splits); s *= 2) counts.push_back(s);
  if (columns)
    for (int s : {96, 112, 120, 132, 144, 160, 192, 264, 396})
      if (s <= max_splits) counts.push_back(s);
  std::vector<int> tprs = {256};  // column sums: 256 threads, one output (or pack of outputs) each
  if (!columns) tprs = {32, 64, 128, 256, 512};
  for (int tpr : tprs) {
    for (int splits : counts) {
      if (splits > 1 && length / splits < 64) continue;  // chunks shorter than this only add partials
      // Other thread counts than the library's: the useful splits only.
      if (!columns && tpr != reduce_sum_kernels::row_tpr(length, sizeof(T)) && splits > 64) continue;
      const double us = time_graph(launches, [&](int i, cudaStream_t st) {
        launch_main<T>(r, columns, splits, tpr, out, static_cast<const T*>(in[i]), ws, st);
      });
      std::printf("%s,%s,%lld,%lld,%d,%d,%.2f,%.0f,4,%d\n", dtype_name<T>(), name, (long long)rows,
                  (long long)length, tpr, splits, us, double(bytes + size_t(rows) * sizeof(T)) / us * 1e-3,
                  columns ? 256 : std::max(tpr, 256));
      std::fflush(stdout);
    }
  }
  for (const Variant& v : kVariants) {  // unsplit row sums only
    if (columns) break;
    const double us = time_graph(launches, [&](int i, cudaStream_t st) {
      if constexpr (std::is_same_v<T, float>) v.launch_f32(r, out, static_cast<const T*>(in[i]), ws, st);
      else v.launch_bf16(r, out, static_cast<const T*>(in[i]), ws, st);
    });
    std::printf("%s,%s,%lld,%lld,%d,1,%.2f,%.0f,%d,%d\n", dtype_name<T>(), name, (long long)rows, (long long)length,
                v.tpr, us, double(bytes + size_t(rows) * sizeof(T)) / us * 1e-3, v.unroll, v.block);
    std::fflush(stdout);
  }
  for (auto p : in) CHECK(cudaFree(p));
  CHECK(cudaFree(out));
  CHECK(cudaFree(ws));
}

}  // namespace

int main(int argc, char** argv) {
  const char* only = argc > 1 ? argv[1] : "";  // only cases whose name contains this
  const int max_splits = argc > 2 ? std::atoi(argv[2]) : 1024;
  std::printf("dtype,case,rows,length,tpr,splits,us,gbps,unroll,block\n");
  for (int t = 0; t < 2; ++t) {
    auto run = [&](const char* name, int64_t rows, int64_t length, bool columns) {
      if (!std::strstr(name, only)) return;
      if (t == 0) sweep_shape<float>(name, rows, length, columns, max_splits);
      else sweep_shape<bfloat16_t>(name, rows, length, columns, max_splits);
    };
    run("columns-32768x4096-dim0", 4096, 32768, true);
    run("rows-256x262144", 256, 262144, false);
    run("rows-1024x65536", 1024, 65536, false);
    run("rows-4096x16384", 4096, 16384, false);
    run("rows-32768x4096", 32768, 4096, false);
    run("rows-4096x4096", 4096, 4096, false);
    run("one-row-2^26", 1, int64_t(1) << 26, false);
    run("rows-4096x128", 4096, 128, false);
    run("rows-144x1280", 144, 1280, false);
    run("rows-1008x2304", 1008, 2304, false);
  }
  return 0;
}
