#include "ops/vector_add/vector_add.h"

#include <string>

namespace ort {

namespace {

// Right-aligns `t` against a result of rank `ndim`; broadcast dims get stride 0.
void broadcast_strides(const TensorDesc& t, int ndim, int64_t* strides) {
  for (int d = 0; d < ndim; ++d) {
    const int td = d - (ndim - t.ndim);
    strides[d] = (td < 0 || t.shape[td] == 1) ? 0 : t.strides[td];
  }
}

}  // namespace

Status VectorAddInfo::create(const TensorDesc* out, const TensorDesc* a, const TensorDesc* b, DeviceType device,
                             VectorAddInfo* info) {
  Status s;
  if ((s = check_backend_device(*a, "a", device)) != Status::Success) return s;
  if ((s = check_same_device(*b, "b", *a, "a")) != Status::Success) return s;
  if ((s = check_same_device(*out, "out", *a, "a")) != Status::Success) return s;
  if ((s = check_compute_float(*a, "a")) != Status::Success) return s;
  if ((s = check_same_dtype(*b, "b", *a, "a")) != Status::Success) return s;
  if ((s = check_same_dtype(*out, "out", *a, "a")) != Status::Success) return s;
  // torch broadcasting: align from the right; each pair of sizes must match or contain a 1.
  TensorDesc result;
  result.ndim = a->ndim > b->ndim ? a->ndim : b->ndim;
  for (int d = 0; d < result.ndim; ++d) {
    const int da = d - (result.ndim - a->ndim), db = d - (result.ndim - b->ndim);
    const int64_t sa = da < 0 ? 1 : a->shape[da], sb = db < 0 ? 1 : b->shape[db];
    if (sa != sb && sa != 1 && sb != 1)
      return fail(Status::BadShape, "b: shape " + shape_str(*b) + " is not broadcastable with a's shape " +
                                        shape_str(*a) + " (dim " + std::to_string(d) + ": " + std::to_string(sa) +
                                        " vs " + std::to_string(sb) + ")");
    result.shape[d] = sa == 1 ? sb : sa;
  }
  bool same = out->ndim == result.ndim;
  for (int d = 0; same && d < result.ndim; ++d) same = out->shape[d] == result.shape[d];
  if (!same)
    return fail(Status::BadShape, "out: expected shape " + shape_str(result) +
                                      " (the broadcast of a and b; out is never resized), got " + shape_str(*out));
  if ((s = check_no_internal_overlap(*out, "out")) != Status::Success) return s;

  int64_t sa[kMaxDims], sb[kMaxDims];
  broadcast_strides(*a, result.ndim, sa);
  broadcast_strides(*b, result.ndim, sb);
  const int64_t* strides[3] = {out->strides, sa, sb};
  info->dtype = a->dtype;
  info->numel = result.numel();
  info->nest = make_nest<3>(result.ndim, result.shape, strides);
  return Status::Success;
}

}  // namespace ort
