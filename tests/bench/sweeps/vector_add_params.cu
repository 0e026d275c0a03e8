// Does the size of a kernel's parameters cost a small vector_add? Session 26 (run du, .device/va_order.py) timed our
// CUDA's one-pack-a-thread `rows` kernel 0.4-0.6 us slower than TileLang's kernel of the same grid (blocks of 128,
// one 16-byte pack a thread) at 65536-131072 elements, in either order in one process. `rows` takes a 296-byte
// RowsPlan; TileLang's kernel three pointers and two ints. This sweep launches, the library's way (cuda::launch:
// PDL, early trigger), with one grid:
//   rows:   vector_add_kernels::rows<T, VEC, 1, 0, 128> on one row (the library's small path until session 26);
//   flat:   vector_add_kernels::flat<T, VEC, 1, 128>, rows' body without the row loop and the RowsPlan (the
//           library's kernel for one contiguous row since session 26);
//   row_grid: vector_add_kernels::row_grid<T, VEC, 1, 0, 128> on one row: flat with a row step per tensor (the
//           library's kernel for small plans of several rows since session 27; run dy: 0.08-0.12 us over lean);
//   lean:   one pack's loads, adds and store with (out, a, b, n) as parameters, and no element-wise tail;
//   padded: lean with an unused 288-byte parameter, the size of RowsPlan's outer dims.
// padded against lean is the parameters' part of the cost; flat against lean, the tail's; row_grid against flat,
// the row steps'.
// A second table (after a blank line) times the row broadcast of a (rows, inner) by an (inner,) vector, which
// the library ran through `rows` until session 27 (one row a blockIdx.y, RowsPlan's outer dim): rows against
// `row_each`, the same body with the row index taken from blockIdx.y and its offset from the row length, no loop
// and no RowsPlan, and against the library's row_grid (row_each with a row step per tensor, the kernel the
// library runs for such plans since session 27), at sizes the library sends to one pack a thread (`small`). Run
// dx (H200): fp32 16x4096 / 64x2048 / 256x2048 rows 1.57 / 1.77 / 2.57 us, row_each 1.29 / 1.38 / 2.31; run dy:
// rows 1.54 / 1.75 / 2.55, row_each 1.26 / 1.35 / 2.30, row_grid 1.30 / 1.40 / 2.37.
//
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cuda_launch.cuh"
#include "ops/vector_add/nvidia/vector_add_kernels.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;
constexpr int kBlock = 128;

struct Unused {
  int64_t words[36];  // 288 bytes
};

template <class T, int VEC>
__device__ __forceinline__ void add_one_pack(T* out, const T* a, const T* b, int64_t inner) {
  const int64_t i = (int64_t(blockIdx.x) * kBlock + threadIdx.x) * VEC;
  if (i + VEC > inner) return;
  float fa[VEC], fb[VEC];
  cuda::unpack(cuda::load_pack<T, VEC>(a + i), fa);
  cuda::unpack(cuda::load_pack<T, VEC>(b + i), fb);
#pragma unroll
  for (int k = 0; k < VEC; ++k) fa[k] += fb[k];
  cuda::store_f32<T, VEC>(out + i, fa);
}

template <class T, int VEC>
__global__ void __launch_bounds__(kBlock, 8) lean(T* out, const T* a, const T* b, int64_t inner,
                                                 cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  add_one_pack<T, VEC>(out, a, b, inner);
}

template <class T, int VEC>
__global__ void __launch_bounds__(kBlock, 8) padded(T* out, const T* a, const T* b, int64_t inner, Unused,
                                                   cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  add_one_pack<T, VEC>(out, a, b, inner);
}

// One input set per launch (out and a of `bytes`, b of `b_bytes`), so that together they do not stay in L2.
template <class T>
struct InputSets {
  std::vector<T*> out, a, b;
  InputSets(size_t bytes, size_t b_bytes) {
    const int launches = launches_for(2 * bytes + b_bytes);
    out.resize(launches);
    a.resize(launches);
    b.resize(launches);
    for (int i = 0; i < launches; ++i) {
      CHECK(cudaMalloc(&out[i], bytes));
      CHECK(cudaMalloc(&a[i], bytes));
      CHECK(cudaMalloc(&b[i], b_bytes));
      CHECK(cudaMemset(a[i], 0x3c, bytes));
      CHECK(cudaMemset(b[i], 0x3c, b_bytes));
    }
  }
  ~InputSets() {
    for (size_t i = 0; i < out.size(); ++i) {
      CHECK(cudaFree(out[i]));
      CHECK(cudaFree(a[i]));
      CHECK(cudaFree(b[i]));
    }
  }
  int launches() const { return int(out.size()); }
};

template <class T>
void sweep(int64_t n) {
  constexpr int kVec = 16 / sizeof(T);
  const size_t bytes = size_t(n) * sizeof(T);
  const InputSets<T> sets(bytes, bytes);
  const int launches = sets.launches();
  const auto &out = sets.out, &a = sets.a, &b = sets.b;
  vector_add_kernels::RowsPlan p;
  p.inner = n;
  const unsigned grid = unsigned((n + kBlock * kVec - 1) / (kBlock * kVec));
  // Twice each, interleaved, so that a drift between the first and the last timing shows.
  for (int rep = 0; rep < 2; ++rep) {
    const double rows_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(vector_add_kernels::rows<T, kVec, 1, 0, kBlock>, dim3(grid), dim3(kBlock), cuda::Stream{st, true},
                   out[i], static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), p);
    });
    const double flat_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(vector_add_kernels::flat<T, kVec, 1, kBlock>, dim3(grid), dim3(kBlock), cuda::Stream{st, true},
                   out[i], static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), n);
    });
    const double row_grid_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(vector_add_kernels::row_grid<T, kVec, 1, 0, kBlock>, dim3(grid), dim3(kBlock),
                   cuda::Stream{st, true}, out[i], static_cast<const T*>(a[i]), static_cast<const T*>(b[i]),
                   vector_add_kernels::RowSteps{n, {0, 0, 0}});
    });
    const double lean_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(lean<T, kVec>, dim3(grid), dim3(kBlock), cuda::Stream{st, true}, out[i],
                   static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), n);
    });
    const double padded_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(padded<T, kVec>, dim3(grid), dim3(kBlock), cuda::Stream{st, true}, out[i],
                   static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), n, Unused{});
    });
    std::printf("%s,%lld,%u,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", dtype_name<T>(), static_cast<long long>(n), grid, rep,
                rows_us, flat_us, row_grid_us, lean_us, padded_us);
    std::fflush(stdout);
  }
}

// One row a blockIdx.y (grid.y == rows), b one row broadcast over them: no loop over rows, no RowsPlan.
template <class T, int VEC>
__global__ void __launch_bounds__(kBlock, 8) row_each(T* out, const T* a, const T* b, int64_t inner,
                                                     cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t off = int64_t(blockIdx.y) * inner;
  vector_add_kernels::add_row_packs<T, VEC, 1, 0, kBlock>(out + off, a + off, b, inner, 1, 1);
}

template <class T>
void sweep_broadcast(int64_t rows, int64_t inner) {
  constexpr int kVec = 16 / sizeof(T);
  const InputSets<T> sets(size_t(rows * inner) * sizeof(T), size_t(inner) * sizeof(T));
  const int launches = sets.launches();
  const auto &out = sets.out, &a = sets.a, &b = sets.b;
  vector_add_kernels::RowsPlan p;  // as the library plans a row broadcast (vector_add_cuda.cu, plan_rows)
  p.rows = rows;
  p.inner = inner;
  p.outer_ndim = 1;
  p.outer_shape[0] = rows;
  p.outer_stride[0][0] = p.outer_stride[1][0] = inner;
  p.outer_stride[2][0] = 0;
  const vector_add_kernels::RowSteps steps{inner, {inner, inner, 0}};  // as vector_add_cuda.cu's create() plans it
  const dim3 grid(unsigned((inner + kBlock * kVec - 1) / (kBlock * kVec)), unsigned(rows));
  for (int rep = 0; rep < 2; ++rep) {
    const double rows_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(vector_add_kernels::rows<T, kVec, 1, 0, kBlock>, grid, dim3(kBlock), cuda::Stream{st, true},
                   out[i], static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), p);
    });
    const double each_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(row_each<T, kVec>, grid, dim3(kBlock), cuda::Stream{st, true}, out[i],
                   static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), inner);
    });
    const double grid_us = time_graph(launches, [&](int i, cudaStream_t st) {
      cuda::launch(vector_add_kernels::row_grid<T, kVec, 1, 0, kBlock>, grid, dim3(kBlock), cuda::Stream{st, true},
                   out[i], static_cast<const T*>(a[i]), static_cast<const T*>(b[i]), steps);
    });
    std::printf("%s,%lld,%lld,%u,%d,%.3f,%.3f,%.3f\n", dtype_name<T>(), static_cast<long long>(rows),
                static_cast<long long>(inner), grid.x * grid.y, rep, rows_us, each_us, grid_us);
    std::fflush(stdout);
  }
}

}  // namespace

int main() {
  std::printf("dtype,elements,blocks,rep,rows_us,flat_us,row_grid_us,lean_us,padded_us\n");
  for (int64_t n : {4096, 65536, 131072, 262144}) sweep<float>(n);
  for (int64_t n : {65536, 131072}) sweep<bfloat16_t>(n);
  std::printf("\ndtype,rows,inner,blocks,rep,rows_us,row_each_us,row_grid_us\n");
  for (auto [r, n] : {std::pair<int64_t, int64_t>{16, 4096}, {64, 2048}, {256, 2048}}) {
    sweep_broadcast<float>(r, n);
    sweep_broadcast<bfloat16_t>(r, n);
  }
  return 0;
}
