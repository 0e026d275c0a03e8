// Times vector_add's rows kernel (vector_add_kernels.cuh) at 1, 2, 4 and 8 packs a thread (blocks of 256
// threads) and at 128- and 512-thread blocks, on the benchmark's contiguous and row-broadcast shapes. The
// library launches 2 packs in 128 threads (1 when the grid would not fill the GPU): session 10's run of this
// sweep (docs/runs/vector-add-rows-h200-2026-11-30-aq.csv) had 2 beat 4 by 3-6 % at 1008x2304, session 11's
// (-av.csv) 128 threads beat 256 by 2-3 % on the row broadcast and tied elsewhere.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/vector_add_rows.cu -o vector_add_rows
//   ./vector_add_rows > vector_add_rows.csv   (scripts/gpu_check.sh --sweep with SWEEPS=vector_add_rows)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "ops/vector_add/nvidia/vector_add_kernels.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

struct Buffers {
  std::vector<void*> out, a, b;
};

// rows x inner, out and a contiguous; b contiguous too, or one row broadcast over the rows (outer stride 0).
vector_add_kernels::RowsPlan plan(int64_t rows, int64_t inner, bool row_broadcast) {
  vector_add_kernels::RowsPlan p;
  p.rows = rows;
  p.inner = inner;
  p.outer_ndim = 1;
  p.outer_shape[0] = rows;
  p.outer_stride[0][0] = p.outer_stride[1][0] = inner;
  p.outer_stride[2][0] = row_broadcast ? 0 : inner;
  return p;
}

template <class T, int UNROLL, int BLOCK = 256>
void sweep_unroll(const Buffers& buf, const vector_add_kernels::RowsPlan& p, const char* shape, double bytes) {
  constexpr int kVec = 16 / sizeof(T);
  const dim3 grid(unsigned((p.inner + BLOCK * kVec * UNROLL - 1) / (BLOCK * kVec * UNROLL)),
                  unsigned(std::min<int64_t>(p.rows, 65535)));
  const double us = time_graph(int(buf.out.size()), [&](int i, cudaStream_t st) {
    vector_add_kernels::rows<T, kVec, UNROLL, 0, BLOCK><<<grid, BLOCK, 0, st>>>(
        static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.a[i]), static_cast<const T*>(buf.b[i]), p, ort::cuda::Trigger::Early);
  });
  std::printf("%s,%s,%d,%d,%u,%.2f,%.0f\n", dtype_name<T>(), shape, UNROLL, BLOCK, grid.x * grid.y, us,
              bytes / us * 1e-3);
  std::fflush(stdout);
}

template <class T>
void sweep_shape(const char* shape, int64_t rows, int64_t inner, bool row_broadcast) {
  const size_t n = size_t(rows) * size_t(inner), big = n * sizeof(T), small = size_t(inner) * sizeof(T);
  const size_t b_bytes = row_broadcast ? small : big;
  const int launches = launches_for(2 * big + b_bytes);
  Buffers buf;
  for (int i = 0; i < launches; ++i) {
    void *o, *a, *b;
    CHECK(cudaMalloc(&o, big));
    CHECK(cudaMalloc(&a, big));
    CHECK(cudaMalloc(&b, b_bytes));
    CHECK(cudaMemset(a, 0x3c, big));
    CHECK(cudaMemset(b, 0x3c, b_bytes));
    buf.out.push_back(o);
    buf.a.push_back(a);
    buf.b.push_back(b);
  }
  const auto p = plan(rows, inner, row_broadcast);
  const double bytes = double(2 * big + b_bytes);  // the bytes that must move, as the benchmark counts them
  sweep_unroll<T, 1>(buf, p, shape, bytes);
  sweep_unroll<T, 2>(buf, p, shape, bytes);
  sweep_unroll<T, 4>(buf, p, shape, bytes);
  sweep_unroll<T, 8>(buf, p, shape, bytes);
  // Block size at the library's 2 packs and at 1: vector_add 1008x2304 halves trail torch by 5 % (session
  // 10), and torch launches 128-thread blocks there.
  sweep_unroll<T, 1, 128>(buf, p, shape, bytes);
  sweep_unroll<T, 2, 128>(buf, p, shape, bytes);
  sweep_unroll<T, 2, 512>(buf, p, shape, bytes);
  for (int i = 0; i < launches; ++i) {
    CHECK(cudaFree(buf.out[i]));
    CHECK(cudaFree(buf.a[i]));
    CHECK(cudaFree(buf.b[i]));
  }
}

}  // namespace

int main() {
  std::printf("dtype,shape,unroll,threads,blocks,us,gbps\n");
  // Equal shapes coalesce into one long row (plan_rows), as the library launches them.
  sweep_shape<float>("tiny-4096", 1, 4096, false);
  for (auto one : {&sweep_shape<float>, &sweep_shape<bfloat16_t>}) {
    one("1008x2304", 1, 1008 * 2304, false);
    one("4096x4096", 1, 4096 * 4096, false);
    one("flat-2^28", 1, int64_t(1) << 28, false);
    one("row-broadcast-16384^2", 16384, 16384, true);
  }
  return 0;
}
