#include "ops/vector_add/cpu/vector_add_cpu.h"

#include "core/dispatch.h"
#include "ops/vector_add/vector_add.h"

namespace ort {

struct VectorAddCpuDescriptor {
  VectorAddInfo info;
};

Status vector_add_cpu_create(VectorAddCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* a,
                             const TensorDesc* b) {
  VectorAddInfo info;
  const Status s = VectorAddInfo::create(out, a, b, DeviceType::Cpu, &info);
  if (s != Status::Success) return s;
  *desc = new VectorAddCpuDescriptor{info};
  return Status::Success;
}

Status vector_add_cpu_workspace_size(const VectorAddCpuDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status vector_add_cpu_execute(const VectorAddCpuDescriptor* desc, void*, size_t, void* out, const void* a,
                              const void* b, void*) {
  return dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* pa = static_cast<const T*>(a);
    const T* pb = static_cast<const T*>(b);
    for_each_offset(desc->info.nest, [&](const int64_t* off) {
      o[off[0]] = from_float<T>(to_float(pa[off[1]]) + to_float(pb[off[2]]));
    });
    return Status::Success;
  });
}

Status vector_add_cpu_destroy(VectorAddCpuDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
