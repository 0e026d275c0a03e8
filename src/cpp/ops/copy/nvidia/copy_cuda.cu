// copy on the nvidia backend: create() picks one of four paths from the coalesced layout and size.
#include <algorithm>

#include "core/cuda_common.cuh"
#include "core/cuda_launch.cuh"
#include "core/dispatch.h"
#include "ops/copy/copy.h"
#include "ops/copy/nvidia/copy_cuda.h"
#include "ops/copy/nvidia/copy_kernels.cuh"

namespace ort {

enum class CopyPath { Empty, Memcpy, Flat, Transpose, Strided };

struct CopyCudaDescriptor {
  CopyInfo info;
  CopyPath path = CopyPath::Empty;
  int device_id = 0;
  DeviceProps props;
  copy_kernels::TransposePlan transpose;
  bool pairs = false;  // a 16- or 32-bit transpose whose strides allow words of two (transpose_pairs)
};

namespace {

constexpr int kThreads = 256;
// Without programmatic dependent launch, contiguous copies up to this size go to cudaMemcpyAsync, as torch's
// copy_ sends every contiguous copy: the driver's copy has the lower fixed cost only up to 4 KiB, our kernel
// the higher rate beyond (copy_flat sweep, session 9, runs ao and ap: 4 KiB 1.12-1.14 us against our kernel's
// 1.48-1.52; 8 KiB 1.55 against 1.50; 1 GiB 776-792 against 500-502). That sweep launched without PDL. With it
// a kernel overlaps the end of the one before, which a memcpy node does not, so where the device has PDL every
// contiguous copy takes the kernel: copy of 1024 fp32 0.84 -> 0.56 us in a graph (session 15, run br, A/B in
// one build; torch 1.01).
constexpr int64_t kMemcpyMaxBytes = int64_t(4) << 10;
// A tile dim shorter than this wastes most of a tile; such layouts take the strided path.
constexpr int64_t kMinTileExtent = 16;

// The transpose path applies when out is unit-stride along its innermost dim i and src is unit-stride
// along some other dim j; every remaining dim becomes the batch.
bool plan_transpose(const Nest<2>& n, copy_kernels::TransposePlan* p) {
  const int i = n.ndim - 1;
  if (n.ndim < 2 || n.strides[0][i] != 1 || n.strides[1][i] == 1) return false;
  int j = -1;
  for (int d = 0; d < i; ++d)
    if (n.strides[1][d] == 1) j = d;
  if (j < 0 || n.shape[i] < kMinTileExtent || n.shape[j] < kMinTileExtent) return false;
  p->ni = n.shape[i];
  p->nj = n.shape[j];
  p->out_sj = n.strides[0][j];
  p->src_si = n.strides[1][i];
  for (int d = 0; d < i; ++d) {
    if (d == j) continue;
    auto& b = p->batch;
    b.shape[b.ndim] = n.shape[d];
    b.out_stride[b.ndim] = n.strides[0][d];
    b.src_stride[b.ndim] = n.strides[1][d];
    b.count *= n.shape[d];
    ++b.ndim;
  }
  return true;
}

template <class V>
void launch_flat(void* out, const void* src, int64_t nbytes, cuda::Stream stream) {
  // One pass: each thread moves kUnroll words once. Session 1 capped the grid at 16 blocks per SM with a
  // grid-stride loop and reached 3.96 TB/s on 1 GiB, while TileLang's one-shot grid reached 4.16; the
  // loop stays only for grids beyond the launch limit. One word a thread, not 4: the copy_flat sweep
  // (session 9, H200) timed 1 against 2, 4 and 8 at 128-1024 threads, and 1 won at every size from
  // 32 MiB: 64 MiB 33.3 vs 35.0 us (cudaMemcpyAsync, torch's copy, 33.4), 1 GiB 500 vs 512. (Why is not
  // profiled; a one-shot grid of 2^22 blocks keeps enough loads in flight without unrolling.)
  constexpr int kUnroll = 1;
  const int64_t n = nbytes / int64_t(sizeof(V));
  const int64_t blocks = std::min<int64_t>(ceil_div(n, kThreads * kUnroll), int64_t(1) << 30);
  cuda::launch(copy_kernels::flat<V, kUnroll>, unsigned(blocks), kThreads, stream, static_cast<V*>(out),
               static_cast<const V*>(src), n);
}

// The widest word that divides both addresses and the byte count: 16 bytes for aligned tensors.
void dispatch_flat(void* out, const void* src, int64_t nbytes, cuda::Stream stream) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(src) | uintptr_t(nbytes);
  if (a % 16 == 0) return launch_flat<uint4>(out, src, nbytes, stream);
  if (a % 8 == 0) return launch_flat<uint2>(out, src, nbytes, stream);
  if (a % 4 == 0) return launch_flat<unsigned int>(out, src, nbytes, stream);
  if (a % 2 == 0) return launch_flat<unsigned short>(out, src, nbytes, stream);
  launch_flat<unsigned char>(out, src, nbytes, stream);
}

// transpose_pairs reads and writes words of two elements: every offset it forms from these strides must be even.
bool plan_pairs(const copy_kernels::TransposePlan& p) {
  bool even = p.src_si % 2 == 0 && p.out_sj % 2 == 0;
  for (int d = 0; d < p.batch.ndim; ++d) even &= p.batch.out_stride[d] % 2 == 0 && p.batch.src_stride[d] % 2 == 0;
  return even;
}

template <class T>
void launch_transpose(T* out, const T* src, const copy_kernels::TransposePlan& p, bool pairs, cuda::Stream stream) {
  if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
    if (pairs && (reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(src)) % (2 * sizeof(T)) == 0) {
      // Tiles of 64 words along i by 64 along j (128 x 64 16-bit values, 64 x 64 32-bit ones): 8 rows of 32
      // threads, each loading 64 bytes in flight (8 row pairs of 4-byte words, or 4 of 8-byte words); 16 KB
      // of shared memory either way.
      using E = cuda::BitsOf<T>;
      constexpr int TI = sizeof(T) == 2 ? 128 : 64, TJ = 64, ROWS = 8;
      const dim3 grid(unsigned(ceil_div(p.ni, TI)), unsigned(std::min<int64_t>(ceil_div(p.nj, TJ), 65535)),
                      unsigned(std::min<int64_t>(p.batch.count, 65535)));
      cuda::launch(copy_kernels::transpose_pairs<E, TI, TJ, ROWS>, grid, dim3(32, ROWS), stream,
                   reinterpret_cast<E*>(out), reinterpret_cast<const E*>(src), p);
      return;
    }
  }
  // 64 x 64 tiles with 4 rows of threads: each thread keeps 16 loads in flight (32 x 32 tiles gave fp32
  // only 4, and 2.75 TB/s on the H200). 8-byte types keep 32 x 32 (a 64-wide tile would need 33 KB).
  constexpr int TILE = sizeof(T) <= 4 ? 64 : 32;
  constexpr int ROWS = 256 / TILE;
  const dim3 grid(unsigned(ceil_div(p.ni, TILE)), unsigned(std::min<int64_t>(ceil_div(p.nj, TILE), 65535)),
                  unsigned(std::min<int64_t>(p.batch.count, 65535)));
  cuda::launch(copy_kernels::transpose<T, TILE, ROWS>, grid, dim3(TILE, ROWS), stream, out, src, p);
}

}  // namespace

Status copy_cuda_create(CopyCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* src) {
  auto d = new CopyCudaDescriptor;
  Status s = CopyInfo::create(out, src, DeviceType::Cuda, &d->info);
  if (s == Status::Success) s = query_device(src->device_id, &d->props);
  if (s != Status::Success) {
    delete d;
    return s;
  }
  d->device_id = src->device_id;
  const Nest<2>& n = d->info.nest;
  if (d->info.numel == 0) d->path = CopyPath::Empty;
  else if (n.ndim == 0 || (n.ndim == 1 && n.strides[0][0] == 1 && n.strides[1][0] == 1)) {
    const bool tiny = d->info.numel * d->info.elem_size <= kMemcpyMaxBytes;
    d->path = tiny && !d->props.programmatic_launch ? CopyPath::Memcpy : CopyPath::Flat;
  }
  else if (plan_transpose(n, &d->transpose)) {
    d->path = CopyPath::Transpose;
    d->pairs = (d->info.elem_size == 2 || d->info.elem_size == 4) && plan_pairs(d->transpose);
  }
  else d->path = CopyPath::Strided;
  *desc = d;
  return Status::Success;
}

Status copy_cuda_workspace_size(const CopyCudaDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status copy_cuda_execute(const CopyCudaDescriptor* desc, void*, size_t, void* out, const void* src, void* stream) {
  const CopyInfo& info = desc->info;
  if (desc->path == CopyPath::Empty || (out == src && info.same_layout)) return Status::Success;
  DeviceGuard guard(desc->device_id);
  auto st = static_cast<cudaStream_t>(stream);
  const cuda::Stream ks{st, desc->props.programmatic_launch};
  if (desc->path == CopyPath::Memcpy) {
    return cuda_status(cudaMemcpyAsync(out, src, size_t(info.numel * info.elem_size), cudaMemcpyDeviceToDevice, st),
                       "copy (cudaMemcpyAsync)");
  }
  if (desc->path == CopyPath::Flat) {
    dispatch_flat(out, src, info.numel * info.elem_size, ks);
    return last_launch_status("copy (flat)");
  }
  const Status s = dispatch<uint8_t, int16_t, int32_t, int64_t>(same_width_int(info.dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (desc->path == CopyPath::Transpose) {
      launch_transpose(static_cast<T*>(out), static_cast<const T*>(src), desc->transpose, desc->pairs, ks);
    } else {
      const int64_t blocks = std::min<int64_t>(ceil_div(info.numel, kThreads), int64_t(desc->props.sm_count) * 32);
      cuda::launch(copy_kernels::strided<T>, unsigned(blocks), kThreads, ks, static_cast<T*>(out),
                   static_cast<const T*>(src), info.nest, info.numel);
    }
    return Status::Success;
  });
  if (s != Status::Success) return s;
  return last_launch_status("copy");
}

Status copy_cuda_destroy(CopyCudaDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
