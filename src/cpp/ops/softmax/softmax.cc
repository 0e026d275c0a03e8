#include "ops/softmax/softmax.h"

namespace ort {

Status SoftmaxInfo::create(const TensorDesc* out, const TensorDesc* x, int64_t dim, DeviceType device,
                           SoftmaxInfo* info) {
  int d = 0;
  Status s = check_along_dim(*out, *x, dim, device, &d);
  if (s != Status::Success) return s;
  if ((s = check_same_shape(*out, "out", *x, "x")) != Status::Success) return s;
  if ((s = check_no_internal_overlap(*out, "out")) != Status::Success) return s;
  info->dtype = x->dtype;
  info->r = rows_of_dim(*x, *out, d, true);
  return Status::Success;
}

}  // namespace ort
