// softmax on the nvidia backend. create() picks, from the row length and layout:
//   unit-stride rows that fit (32768 elements with 16-byte packs, 8192 without) -> `registers`, with
//                                            the smallest (threads per row, packs per thread) that holds
//                                            the row (pick_registers)
//   longer unit-stride rows               -> `online` (two reads, the second mostly from L2)
//   any other layout                      -> `strided`
#include <algorithm>
#include <type_traits>

#include "core/cuda_common.cuh"
#include "core/dispatch.h"
#include "ops/softmax/nvidia/softmax_cuda.h"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "ops/softmax/softmax.h"

namespace ort {

enum class SoftmaxPath { Empty, Registers, Online, Strided };

// A registers-kernel configuration: TPR threads per row, NP packs per thread.
struct RegConfig {
  int tpr = 0, np = 0;
};

struct SoftmaxCudaDescriptor {
  SoftmaxInfo info;
  SoftmaxPath path = SoftmaxPath::Empty;
  bool packs_aligned = false;  // lengths and row strides allow 16-byte packs if the pointers do
  RegConfig wide, narrow;      // registers configs for 16-byte packs and for single elements
  int device_id = 0;
};

namespace {

constexpr int kMaxValuesPerThread = 32;  // 1024-thread blocks leave 64 registers per thread
constexpr int kOnlineThreads = 1024;

RegConfig pick_registers(int64_t length, int vec) {
  for (int tpr : {32, 256, 1024})
    for (int np : {1, 2, 4, 8})
      if (np * vec <= kMaxValuesPerThread && length <= int64_t(tpr) * np * vec) return {tpr, np};
  return {};
}

template <class T, int VEC, int TPR, int NP>
void launch_registers(const SoftmaxCudaDescriptor* d, T* out, const T* x, cudaStream_t st) {
  constexpr int kBlock = TPR < 256 ? 256 : TPR;
  const int64_t blocks = ceil_div(d->info.r.rows, kBlock / TPR);
  softmax_kernels::registers<T, VEC, TPR, NP><<<unsigned(blocks), kBlock, 0, st>>>(out, x, d->info.r);
}

// The table of instantiated configurations; RegConfig values outside it never come from pick_registers.
template <class T, int VEC>
void dispatch_registers(const SoftmaxCudaDescriptor* d, RegConfig c, T* out, const T* x, cudaStream_t st) {
  auto run = [&](auto tpr, auto np) {
    if constexpr (decltype(np)::value * VEC <= kMaxValuesPerThread)
      if (c.tpr == decltype(tpr)::value && c.np == decltype(np)::value)
        launch_registers<T, VEC, decltype(tpr)::value, decltype(np)::value>(d, out, x, st);
  };
  using I32 = std::integral_constant<int, 32>;
  using I256 = std::integral_constant<int, 256>;
  using I1024 = std::integral_constant<int, 1024>;
  auto for_np = [&](auto tpr) {
    run(tpr, std::integral_constant<int, 1>{});
    run(tpr, std::integral_constant<int, 2>{});
    run(tpr, std::integral_constant<int, 4>{});
    run(tpr, std::integral_constant<int, 8>{});
  };
  for_np(I32{});
  for_np(I256{});
  for_np(I1024{});
}

}  // namespace

Status softmax_cuda_create(SoftmaxCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim) {
  auto d = new SoftmaxCudaDescriptor;
  DeviceProps props;
  Status s = SoftmaxInfo::create(out, x, dim, DeviceType::Cuda, &d->info);
  if (s == Status::Success) s = query_device(x->device_id, &props);
  if (s != Status::Success) {
    delete d;
    return s;
  }
  d->device_id = x->device_id;
  const RowsOfDim& r = d->info.r;
  const int vec = 16 / int(dtype_size(d->info.dtype));
  d->packs_aligned = r.length % vec == 0;
  for (int i = 0; i < r.outer.ndim; ++i)
    d->packs_aligned &= r.outer.strides[0][i] % vec == 0 && r.outer.strides[1][i] % vec == 0;
  const bool unit_rows = (r.x_stride == 1 && r.out_stride == 1) || r.length <= 1;
  d->wide = pick_registers(r.length, vec);
  d->narrow = pick_registers(r.length, 1);
  if (r.rows == 0 || r.length == 0) d->path = SoftmaxPath::Empty;
  else if (!unit_rows) d->path = SoftmaxPath::Strided;
  else if ((d->packs_aligned && d->wide.tpr) || d->narrow.tpr) d->path = SoftmaxPath::Registers;
  else d->path = SoftmaxPath::Online;
  *desc = d;
  return Status::Success;
}

Status softmax_cuda_workspace_size(const SoftmaxCudaDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status softmax_cuda_execute(const SoftmaxCudaDescriptor* desc, void*, size_t, void* out, const void* x, void* stream) {
  if (desc->path == SoftmaxPath::Empty) return Status::Success;
  DeviceGuard guard(desc->device_id);
  auto st = static_cast<cudaStream_t>(stream);
  const bool wide = desc->packs_aligned &&
                    (reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(x)) % 16 == 0;
  const RowsOfDim& r = desc->info.r;
  const Status s = dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr int kVec = 16 / sizeof(T);
    T* o = static_cast<T*>(out);
    const T* px = static_cast<const T*>(x);
    if (desc->path == SoftmaxPath::Registers && wide && desc->wide.tpr) {
      dispatch_registers<T, kVec>(desc, desc->wide, o, px, st);
    } else if (desc->path == SoftmaxPath::Registers && desc->narrow.tpr) {
      dispatch_registers<T, 1>(desc, desc->narrow, o, px, st);
    } else if (desc->path != SoftmaxPath::Strided) {  // online, or registers rows met with misaligned pointers
      if (wide) softmax_kernels::online<T, kVec, kOnlineThreads><<<unsigned(r.rows), kOnlineThreads, 0, st>>>(o, px, r);
      else softmax_kernels::online<T, 1, kOnlineThreads><<<unsigned(r.rows), kOnlineThreads, 0, st>>>(o, px, r);
    } else {
      softmax_kernels::strided<T><<<unsigned(ceil_div(r.rows, 256)), 256, 0, st>>>(o, px, r);
    }
    return Status::Success;
  });
  if (s != Status::Success) return s;
  return last_launch_status("softmax");
}

Status softmax_cuda_destroy(SoftmaxCudaDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
