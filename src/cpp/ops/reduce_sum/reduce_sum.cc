#include "ops/reduce_sum/reduce_sum.h"

#include <string>

namespace ort {

RowsOfDim rows_of_dim(const TensorDesc& x, const TensorDesc& out, int dim, bool out_keeps_dim) {
  RowsOfDim r;
  r.dim = dim;
  if (x.ndim == 0) return r;  // a scalar is one row of length 1
  r.length = x.shape[dim];
  r.x_stride = x.strides[dim];
  r.out_stride = out_keeps_dim ? out.strides[dim] : 0;
  int64_t shape[kMaxDims], xs[kMaxDims], os[kMaxDims];
  int n = 0;
  for (int d = 0; d < x.ndim; ++d) {
    if (d == dim) continue;
    shape[n] = x.shape[d];
    xs[n] = x.strides[d];
    os[n] = out.strides[out_keeps_dim || d < dim ? d : d - 1];
    r.rows *= x.shape[d];
    ++n;
  }
  const int64_t* strides[2] = {os, xs};
  r.outer = make_nest<2>(n, shape, strides);
  return r;
}

Status check_along_dim(const TensorDesc& out, const TensorDesc& x, int64_t dim, DeviceType device, int* d) {
  Status s;
  if ((s = check_backend_device(x, "x", device)) != Status::Success) return s;
  if ((s = check_same_device(out, "out", x, "x")) != Status::Success) return s;
  if ((s = check_compute_float(x, "x")) != Status::Success) return s;
  if ((s = check_same_dtype(out, "out", x, "x")) != Status::Success) return s;
  return normalize_dim(dim, x.ndim, "dim", d);
}

Status ReduceSumInfo::create(const TensorDesc* out, const TensorDesc* x, int64_t dim, bool keepdim, DeviceType device,
                             ReduceSumInfo* info) {
  int d = 0;
  Status s = check_along_dim(*out, *x, dim, device, &d);
  if (s != Status::Success) return s;
  TensorDesc expected;
  for (int i = 0; i < x->ndim; ++i) {
    if (i == d && !keepdim) continue;
    expected.shape[expected.ndim++] = i == d ? 1 : x->shape[i];
  }
  bool same = out->ndim == expected.ndim;
  for (int i = 0; same && i < expected.ndim; ++i) same = out->shape[i] == expected.shape[i];
  if (!same)
    return fail(Status::BadShape, "out: expected shape " + shape_str(expected) + " (x.sum(dim=" + std::to_string(dim) +
                                      ", keepdim=" + (keepdim ? "True" : "False") + ")), got " + shape_str(*out));
  if ((s = check_no_internal_overlap(*out, "out")) != Status::Success) return s;
  info->dtype = x->dtype;
  info->r = rows_of_dim(*x, *out, d, keepdim && x->ndim > 0);
  return Status::Success;
}

}  // namespace ort
