#include "ops/softmax/softmax.h"

namespace ort {

Status SoftmaxInfo::create(const TensorDesc* out, const TensorDesc* x, int64_t dim, DeviceType device,
                           SoftmaxInfo* info) {
  Status s;
  int d = 0;
  if ((s = check_backend_device(*x, "x", device)) != Status::Success) return s;
  if ((s = check_same_device(*out, "out", *x, "x")) != Status::Success) return s;
  if ((s = check_compute_float(*x, "x")) != Status::Success) return s;
  if ((s = check_same_dtype(*out, "out", *x, "x")) != Status::Success) return s;
  if ((s = normalize_dim(dim, x->ndim, "dim", &d)) != Status::Success) return s;
  if ((s = check_same_shape(*out, "out", *x, "x")) != Status::Success) return s;
  if ((s = check_no_internal_overlap(*out, "out")) != Status::Success) return s;
  info->dtype = x->dtype;
  info->r = rows_of_dim(*x, *out, d, true);
  return Status::Success;
}

}  // namespace ort
