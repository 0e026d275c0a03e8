#include "ops/softmax/cpu/softmax_cpu.h"

#include <cmath>

#include "core/dispatch.h"
#include "ops/softmax/softmax.h"

namespace ort {

struct SoftmaxCpuDescriptor {
  SoftmaxInfo info;
};

Status softmax_cpu_create(SoftmaxCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim) {
  SoftmaxInfo info;
  const Status s = SoftmaxInfo::create(out, x, dim, DeviceType::Cpu, &info);
  if (s != Status::Success) return s;
  *desc = new SoftmaxCpuDescriptor{info};
  return Status::Success;
}

Status softmax_cpu_workspace_size(const SoftmaxCpuDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status softmax_cpu_execute(const SoftmaxCpuDescriptor* desc, void*, size_t, void* out, const void* x, void*) {
  const RowsOfDim& r = desc->info.r;
  return dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* px = static_cast<const T*>(x);
    for_each_offset(r.outer, [&](const int64_t* off) {
      // Three passes (max, sum, write); x is read before out is written, so out may alias x exactly.
      float m = -INFINITY;
      for (int64_t k = 0; k < r.length; ++k) m = std::fmax(m, to_float(px[off[1] + k * r.x_stride]));
      double sum = 0.0;
      for (int64_t k = 0; k < r.length; ++k) sum += std::exp(double(to_float(px[off[1] + k * r.x_stride])) - m);
      const double inv = 1.0 / sum;
      for (int64_t k = 0; k < r.length; ++k)
        o[off[0] + k * r.out_stride] =
            from_float<T>(float(std::exp(double(to_float(px[off[1] + k * r.x_stride])) - m) * inv));
    });
    return Status::Success;
  });
}

Status softmax_cpu_destroy(SoftmaxCpuDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
