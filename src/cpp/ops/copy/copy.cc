#include "ops/copy/copy.h"

#include <string>

namespace ort {

Status CopyInfo::create(const TensorDesc* out, const TensorDesc* src, DeviceType device, CopyInfo* info) {
  Status s;
  if ((s = check_backend_device(*src, "src", device)) != Status::Success) return s;
  if ((s = check_same_device(*out, "out", *src, "src")) != Status::Success) return s;
  if ((s = check_same_dtype(*out, "out", *src, "src")) != Status::Success) return s;
  if ((s = check_same_shape(*out, "out", *src, "src")) != Status::Success) return s;
  if ((s = check_no_internal_overlap(*out, "out")) != Status::Success) return s;
  info->dtype = src->dtype;
  info->elem_size = dtype_size(src->dtype);
  info->numel = src->numel();
  const int64_t* strides[2] = {out->strides, src->strides};
  info->nest = make_nest<2>(src->ndim, src->shape, strides);
  info->same_layout = true;
  for (int d = 0; d < info->nest.ndim; ++d)
    info->same_layout &= info->nest.strides[0][d] == info->nest.strides[1][d];
  return Status::Success;
}

}  // namespace ort
