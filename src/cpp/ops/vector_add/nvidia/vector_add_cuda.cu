// vector_add on the nvidia backend: create() picks the rows path (vectorised; one contiguous row, the common
// case, runs the `flat` kernel, plans of up to 65535 rows of one outer dim `row_grid`, a row a blockIdx.y, the
// others `rows`), the tiled path (an input transposed relative to out; in words of two elements where the strides
// allow, tiled_pairs) or the strided path.
#include <algorithm>
#include <type_traits>

#include "core/cuda_common.cuh"
#include "core/cuda_launch.cuh"
#include "core/dispatch.h"
#include "ops/vector_add/nvidia/vector_add_cuda.h"
#include "ops/vector_add/nvidia/vector_add_kernels.cuh"
#include "ops/vector_add/vector_add.h"

namespace ort {

struct VectorAddCudaDescriptor {
  VectorAddInfo info;
  bool rows_path = false;
  bool outer_strides_aligned = false;  // every row starts on a pack boundary if the base pointers do
  bool small = false;  // too few blocks of kUnroll packs per thread to fill the GPU
  int device_id = 0;
  DeviceProps props;
  vector_add_kernels::RowsPlan rows;
  bool row_grid = false;  // a small rows plan of at most one outer dim and 65535 rows (not one contiguous row)
  vector_add_kernels::RowSteps steps;
  bool tiled_path = false;
  bool transposed[2] = {false, false};  // a, b: staged through shared memory on the tiled path
  bool pairs = false;  // the tiled path's strides allow words of two elements (tiled_pairs)
  vector_add_kernels::TiledPlan tiled;
  bool flat_wide = false;  // one contiguous row of many waves: flat in blocks of kFlatWideBlock
};

namespace {

// Packs per thread on the rows path. Session 10's sweep (tests/bench/sweeps/vector_add_rows.cu, cold
// tensors) against the 4 before it: 1008x2304 fp32 8.70 against 9.21 us, bf16 5.94 against 6.11,
// 4096x4096 fp32 48.0 against 48.7, 2^28 fp32 737.5 against 740.1; the row broadcast ties (519 / 519 fp32,
// 264 / 261 bf16). One pack lost everywhere but the tiny case, which `small` already sends there.
constexpr int kUnroll = 2;
// Threads per block on the rows path. Session 11's sweep (run av, cold tensors), 128 against 256 threads at 2
// packs: row broadcast fp32 507.0 against 518.9 us, bf16 255.8 against 263.6; 2^28, 4096x4096 and 1008x2304
// within 0.5 % either way (docs/runs/vector-add-rows-h200-2026-11-30-av.csv). 512 won 2^28 by 0.4 % and lost
// the broadcast by 4 %.
constexpr int kRowsBlock = 128;
// One contiguous row of at least kFlatWideWaves waves of 1024-thread blocks: flat in blocks of 1024.
// Session 49 (H200), the bench against torch in the same process: run ia (one build, 128 / 512 / 1024 threads,
// twice) flat-2^28 fp32 736.4 -> 731.4 us, fp16 368.4 -> 366.1 (0.998x -> 1.004x torch); run ib A B A B 730.9 ->
// 727.2 / 366.3 -> 364.0 (1.003-1.004x). tests/bench/sweeps/vector_add_flat_blocks.cu (run ib): 1024 threads
// 0.3 % ahead from 31 waves, 0.4-0.6 % from 62, behind below 16 (4096x4096 fp16, 7.8 waves: 1.6 %; 1008x2304: 6-15 %).
// bf16 kept 128 while its body held 56 registers (fp16 and fp32: 40) and ran 12-29 % slower in blocks of 1024; with
// its pairs added in hardware (36 registers) it takes 1024 too: flat-2^28 bf16 within 0.4 % of before (runs kb-kc).
constexpr int kFlatWideBlock = 1024;
constexpr int64_t kFlatWideWaves = 32;

bool plan_rows(const Nest<3>& n, vector_add_kernels::RowsPlan* p) {
  if (n.ndim == 0) {  // a single element
    p->inner = 1;
    return true;
  }
  const int i = n.ndim - 1;
  if (n.strides[0][i] != 1 || n.strides[1][i] > 1 || n.strides[2][i] > 1) return false;
  p->inner = n.shape[i];
  p->a_inner = n.strides[1][i];
  p->b_inner = n.strides[2][i];
  p->outer_ndim = i;
  for (int d = 0; d < i; ++d) {
    p->outer_shape[d] = n.shape[d];
    for (int t = 0; t < 3; ++t) p->outer_stride[t][d] = n.strides[t][d];
    p->rows *= n.shape[d];
  }
  return true;
}

// A tile dim shorter than this wastes most of a tile; such layouts stay on the strided path.
constexpr int64_t kMinTileExtent = 16;

// The tiled path: out unit-stride along its innermost dim i; each input either runs along i (stride 0 or
// 1 there) or is unit-stride along one other dim j, the same j for both; at least one input is the latter.
bool plan_tiled(const Nest<3>& n, vector_add_kernels::TiledPlan* p, bool (&transposed)[2]) {
  const int i = n.ndim - 1;
  if (n.ndim < 2 || n.strides[0][i] != 1) return false;
  int j = -1;
  for (int t = 1; t < 3; ++t) {
    transposed[t - 1] = n.strides[t][i] > 1;
    if (!transposed[t - 1]) continue;
    int jt = -1;
    for (int d = 0; d < i; ++d)
      if (n.strides[t][d] == 1) jt = d;
    if (jt < 0 || (j >= 0 && jt != j)) return false;
    j = jt;
  }
  if (j < 0 || n.shape[i] < kMinTileExtent || n.shape[j] < kMinTileExtent) return false;
  p->ni = n.shape[i];
  p->nj = n.shape[j];
  for (int t = 0; t < 3; ++t) {
    p->stride_i[t] = n.strides[t][i];
    p->stride_j[t] = n.strides[t][j];
  }
  for (int d = 0; d < i; ++d) {
    if (d == j) continue;
    p->batch_shape[p->batch_ndim] = n.shape[d];
    for (int t = 0; t < 3; ++t) p->batch_stride[t][p->batch_ndim] = n.strides[t][d];
    p->batch_count *= n.shape[d];
    ++p->batch_ndim;
  }
  return true;
}

// tiled_pairs steps between words by these strides: each must be even. A direct input must also be
// unit-stride along i (a broadcast along i, stride 0, has no pairs to load).
bool plan_pairs(const vector_add_kernels::TiledPlan& p, const bool (&transposed)[2]) {
  bool ok = p.stride_j[0] % 2 == 0;
  for (int t = 1; t < 3; ++t)
    ok &= transposed[t - 1] ? p.stride_i[t] % 2 == 0 : p.stride_i[t] == 1 && p.stride_j[t] % 2 == 0;
  for (int d = 0; d < p.batch_ndim; ++d)
    for (int t = 0; t < 3; ++t) ok &= p.batch_stride[t][d] % 2 == 0;
  return ok;
}

template <class T, bool kTA, bool kTB>
void launch_tiled(const vector_add_kernels::TiledPlan& p, bool pairs, T* out, const T* a, const T* b,
                  cuda::Stream stream) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(a) |
                         reinterpret_cast<uintptr_t>(b);
  if (pairs && addr % (2 * sizeof(T)) == 0) {
    // 64 x 64 elements (32 words along i), 8 rows of 32 threads: with fp32, 128 bytes in flight a thread
    // (8 words of a transposed input, 8 of a direct one), 64 KB an SM, as the tiled kernel.
    constexpr int TI = 64, ROWS = 8;
    const dim3 grid(unsigned(ceil_div(p.ni, TI)), unsigned(std::min<int64_t>(ceil_div(p.nj, 64), 65535)),
                    unsigned(std::min<int64_t>(p.batch_count, 65535)));
    cuda::launch(vector_add_kernels::tiled_pairs<T, TI, ROWS, kTA, kTB>, grid, dim3(32, ROWS), stream, out, a, b, p);
    return;
  }
  // 64 x 64 tiles (fp32 in shared memory, 16.6 KB per transposed input; copy's transpose measured 2.75
  // TB/s with 32 x 32 tiles, 3.64 with these) and 8 rows of threads: each thread holds 8 values of each
  // input, all loaded at once, in at most 64 registers (with 4 rows, 16 values of each spilled).
  constexpr int TILE = 64, ROWS = 8;
  const dim3 grid(unsigned(ceil_div(p.ni, TILE)), unsigned(std::min<int64_t>(ceil_div(p.nj, TILE), 65535)),
                  unsigned(std::min<int64_t>(p.batch_count, 65535)));
  cuda::launch(vector_add_kernels::tiled<T, TILE, ROWS, kTA, kTB>, grid, dim3(TILE, ROWS), stream, out, a, b, p);
}

template <class T>
void launch_tiled(const VectorAddCudaDescriptor* d, T* out, const T* a, const T* b, cuda::Stream stream) {
  if (d->transposed[0] && d->transposed[1]) launch_tiled<T, true, true>(d->tiled, d->pairs, out, a, b, stream);
  else if (d->transposed[0]) launch_tiled<T, true, false>(d->tiled, d->pairs, out, a, b, stream);
  else launch_tiled<T, false, true>(d->tiled, d->pairs, out, a, b, stream);
}

template <class T, int VEC, int UNROLL>
void launch_rows(const VectorAddCudaDescriptor* d, T* out, const T* a, const T* b, cuda::Stream stream) {
  const auto& p = d->rows;
  const dim3 grid(unsigned(ceil_div(p.inner, kRowsBlock * VEC * UNROLL)), unsigned(std::min<int64_t>(p.rows, 65535)));
  const int bcast = (p.a_inner == 0 ? 1 : 0) | (p.b_inner == 0 ? 2 : 0);
  if (p.rows == 1 && bcast == 0) {
    if constexpr (VEC > 1 && UNROLL == kUnroll) {
      if (d->flat_wide) {
        const unsigned wide = unsigned(ceil_div(p.inner, kFlatWideBlock * VEC * UNROLL));
        cuda::launch(vector_add_kernels::flat<T, VEC, UNROLL, kFlatWideBlock>, wide, kFlatWideBlock, stream, out, a, b,
                     p.inner);
        return;
      }
    }
    cuda::launch(vector_add_kernels::flat<T, VEC, UNROLL, kRowsBlock>, grid, kRowsBlock, stream, out, a, b, p.inner);
    return;
  }
  auto launch = [&](auto k) {
    constexpr int kBcast = decltype(k)::value;
    if (d->row_grid) {  // small plans at one pack a thread, large plans at kUnroll (create() decides)
      cuda::launch(vector_add_kernels::row_grid<T, VEC, UNROLL, kBcast, kRowsBlock>, grid, kRowsBlock, stream, out, a,
                   b, d->steps);
      return;
    }
    cuda::launch(vector_add_kernels::rows<T, VEC, UNROLL, kBcast, kRowsBlock>, grid, kRowsBlock, stream, out, a, b, p);
  };
  switch (bcast) {
    case 0: launch(std::integral_constant<int, 0>{}); break;
    case 1: launch(std::integral_constant<int, 1>{}); break;
    case 2: launch(std::integral_constant<int, 2>{}); break;
    default: launch(std::integral_constant<int, 3>{}); break;
  }
}

// Small problems take one pack per thread: four times the blocks, so that a tensor of 4096 elements
// spreads over 4 SMs instead of waiting on one (launch-bound sizes; 0.68x torch with 4 packs per thread).
template <class T, int VEC>
void launch_rows(const VectorAddCudaDescriptor* d, T* out, const T* a, const T* b, cuda::Stream stream) {
  if (d->small) launch_rows<T, VEC, 1>(d, out, a, b, stream);
  else launch_rows<T, VEC, kUnroll>(d, out, a, b, stream);
}

}  // namespace

Status vector_add_cuda_create(VectorAddCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* a,
                              const TensorDesc* b) {
  auto d = new VectorAddCudaDescriptor;
  Status s = VectorAddInfo::create(out, a, b, DeviceType::Cuda, &d->info);
  if (s == Status::Success) s = query_device(a->device_id, &d->props);
  if (s != Status::Success) {
    delete d;
    return s;
  }
  d->device_id = a->device_id;
  d->rows_path = plan_rows(d->info.nest, &d->rows);
  d->tiled_path = !d->rows_path && plan_tiled(d->info.nest, &d->tiled, d->transposed);
  d->pairs = d->tiled_path && plan_pairs(d->tiled, d->transposed);
  const int vec = 16 / int(dtype_size(d->info.dtype));
  d->outer_strides_aligned = true;  // a row tail that does not fill a pack is handled in the kernel
  for (int dd = 0; dd < d->rows.outer_ndim; ++dd)
    for (int t = 0; t < 3; ++t) d->outer_strides_aligned &= d->rows.outer_stride[t][dd] % vec == 0;
  d->small = ceil_div(d->rows.inner, kRowsBlock * vec * kUnroll) * d->rows.rows < 4 * int64_t(d->props.sm_count);
  // Small plans at one pack a thread (run dy). Large plans of one outer dim at kUnroll packs: the row broadcast of
  // 16384^2 ran 1-2 % faster than in rows, ahead of Inductor's 1-D kernel (runs jv and kc, H200: fp32 506.2 -> 501.9
  // us, fp16 253.8 -> 251.0; bf16 256.5 -> 251.8 once its pairs were added in hardware (add_pairs): before that its
  // widening held 60 registers a thread and row_grid ran it 10 % slower). One pack a thread ran 25 % slower.
  d->row_grid = d->rows_path && d->rows.rows <= 65535 && (d->small ? d->rows.outer_ndim <= 1 : d->rows.outer_ndim == 1);
  // flat's blocks of 1024 hold one an SM (36-40 registers a thread), so a wave is sm_count blocks.
  d->flat_wide = d->rows_path && !d->small && d->rows.rows == 1 && d->rows.a_inner == 1 && d->rows.b_inner == 1 &&
                 ceil_div(d->rows.inner, kFlatWideBlock * vec * kUnroll) >= kFlatWideWaves * d->props.sm_count;
  d->steps.inner = d->rows.inner;
  for (int t = 0; t < 3 && d->rows.outer_ndim == 1; ++t) d->steps.step[t] = d->rows.outer_stride[t][0];
  *desc = d;
  return Status::Success;
}

Status vector_add_cuda_workspace_size(const VectorAddCudaDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status vector_add_cuda_execute(const VectorAddCudaDescriptor* desc, void*, size_t, void* out, const void* a,
                               const void* b, void* stream) {
  if (desc->info.numel == 0) return Status::Success;
  DeviceGuard guard(desc->device_id);
  const cuda::Stream st{static_cast<cudaStream_t>(stream), desc->props.programmatic_launch};
  const Status s = dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    if (desc->rows_path) {
      // 16-byte packs need every row of every tensor to start 16-byte aligned.
      const uintptr_t addr = reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(a) |
                             reinterpret_cast<uintptr_t>(b);
      if (desc->outer_strides_aligned && addr % 16 == 0) launch_rows<T, 16 / sizeof(T)>(desc, o, pa, pb, st);
      else launch_rows<T, 1>(desc, o, pa, pb, st);
    } else if (desc->tiled_path) {
      launch_tiled<T>(desc, o, pa, pb, st);
    } else {
      const int64_t blocks = std::min<int64_t>(ceil_div(desc->info.numel, 256), int64_t(desc->props.sm_count) * 32);
      cuda::launch(vector_add_kernels::strided<T>, unsigned(blocks), 256, st, o, pa, pb, desc->info.nest,
                   desc->info.numel);
    }
    return Status::Success;
  });
  if (s != Status::Success) return s;
  return last_launch_status("vector_add");
}

Status vector_add_cuda_destroy(VectorAddCudaDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
