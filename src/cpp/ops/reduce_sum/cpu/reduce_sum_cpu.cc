#include "ops/reduce_sum/cpu/reduce_sum_cpu.h"

#include "core/dispatch.h"
#include "ops/reduce_sum/reduce_sum.h"

namespace ort {

struct ReduceSumCpuDescriptor {
  ReduceSumInfo info;
};

Status reduce_sum_cpu_create(ReduceSumCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim,
                             bool keepdim) {
  ReduceSumInfo info;
  const Status s = ReduceSumInfo::create(out, x, dim, keepdim, DeviceType::Cpu, &info);
  if (s != Status::Success) return s;
  *desc = new ReduceSumCpuDescriptor{info};
  return Status::Success;
}

Status reduce_sum_cpu_workspace_size(const ReduceSumCpuDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status reduce_sum_cpu_execute(const ReduceSumCpuDescriptor* desc, void*, size_t, void* out, const void* x, void*) {
  const RowsOfDim& r = desc->info.r;
  return dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* px = static_cast<const T*>(x);
    for_each_offset(r.outer, [&](const int64_t* off) {
      // Kahan summation keeps the fp32 reference accurate for rows of any length.
      float sum = 0.f, carry = 0.f;
      for (int64_t k = 0; k < r.length; ++k) {
        const float y = to_float(px[off[1] + k * r.x_stride]) - carry;
        const float t = sum + y;
        carry = (t - sum) - y;
        sum = t;
      }
      o[off[0]] = from_float<T>(sum);
    });
    return Status::Success;
  });
}

Status reduce_sum_cpu_destroy(ReduceSumCpuDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
