#include "ops/copy/cpu/copy_cpu.h"

#include <cstring>

#include "core/dispatch.h"
#include "ops/copy/copy.h"

namespace ort {

struct CopyCpuDescriptor {
  CopyInfo info;
};

Status copy_cpu_create(CopyCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* src) {
  CopyInfo info;
  const Status s = CopyInfo::create(out, src, DeviceType::Cpu, &info);
  if (s != Status::Success) return s;
  *desc = new CopyCpuDescriptor{info};
  return Status::Success;
}

Status copy_cpu_workspace_size(const CopyCpuDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status copy_cpu_execute(const CopyCpuDescriptor* desc, void*, size_t, void* out, const void* src, void*) {
  const CopyInfo& info = desc->info;
  if (info.numel == 0 || (out == src && info.same_layout)) return Status::Success;
  const Nest<2>& n = info.nest;
  if (n.ndim == 0 || (n.ndim == 1 && n.strides[0][0] == 1 && n.strides[1][0] == 1)) {
    std::memcpy(out, src, size_t(info.numel * info.elem_size));  // dense on both sides: one block move
    return Status::Success;
  }
  // Copy moves bytes, so one instantiation per element width serves every dtype.
  return dispatch<uint8_t, int16_t, int32_t, int64_t>(same_width_int(info.dtype), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* s = static_cast<const T*>(src);
    for_each_offset(info.nest, [&](const int64_t* off) { o[off[0]] = s[off[1]]; });
    return Status::Success;
  });
}

Status copy_cpu_destroy(CopyCpuDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
