#include <algorithm>
#include <numeric>

#include "core/dtype.h"
#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

const char* dtype_name(DType d) {
  static const char* names[] = {"bool",    "uint8",    "int8",    "int16",   "int32",
                                "int64",   "float16",  "bfloat16", "float32", "float64"};
  const int i = static_cast<int>(d);
  return (i >= 0 && i < 10) ? names[i] : "unknown";
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Success: return "success";
    case Status::BadDtype: return "bad dtype";
    case Status::BadShape: return "bad shape";
    case Status::BadLayout: return "bad layout";
    case Status::BadArgument: return "bad argument";
    case Status::BadDevice: return "bad device";
    case Status::InsufficientWorkspace: return "insufficient workspace";
    case Status::CudaError: return "CUDA error";
    case Status::Internal: return "internal error";
  }
  return "unknown status";
}

static std::string& error_slot() {
  thread_local std::string message;
  return message;
}
const std::string& last_error_message() { return error_slot(); }
Status fail(Status s, std::string message) {
  error_slot() = std::move(message);
  return s;
}

std::string shape_str(const TensorDesc& t) {
  std::string s = "(";
  for (int i = 0; i < t.ndim; ++i) s += std::to_string(t.shape[i]) + (i + 1 < t.ndim || t.ndim == 1 ? ", " : "");
  if (t.ndim == 1) s.resize(s.size() - 1);
  return s + ")";
}

Status check_backend_device(const TensorDesc& t, const char* name, DeviceType device) {
  if (t.device == device) return Status::Success;
  const char* want = device == DeviceType::Cuda ? "a CUDA tensor" : "a CPU tensor";
  const char* got = t.device == DeviceType::Cuda ? "a CUDA tensor" : "a CPU tensor";
  return fail(Status::BadDevice, std::string(name) + ": this backend expects " + want + ", got " + got);
}

Status check_same_dtype(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name) {
  if (t.dtype == ref.dtype) return Status::Success;
  return fail(Status::BadDtype, std::string(name) + ": expected dtype " + dtype_name(ref.dtype) + " (the dtype of " +
                                    ref_name + "), got " + dtype_name(t.dtype));
}

Status check_compute_float(const TensorDesc& t, const char* name) {
  if (is_compute_float(t.dtype)) return Status::Success;
  return fail(Status::BadDtype, std::string(name) + ": expected dtype float32, float16 or bfloat16, got " +
                                    dtype_name(t.dtype));
}

Status check_same_device(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name) {
  if (t.device == ref.device && t.device_id == ref.device_id) return Status::Success;
  return fail(Status::BadDevice, std::string(name) + ": expected the device of " + ref_name);
}

Status check_same_shape(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name) {
  bool same = t.ndim == ref.ndim;
  for (int i = 0; same && i < t.ndim; ++i) same = t.shape[i] == ref.shape[i];
  if (same) return Status::Success;
  return fail(Status::BadShape, std::string(name) + ": expected shape " + shape_str(ref) + " (the shape of " +
                                    ref_name + "), got " + shape_str(t));
}

Status check_no_internal_overlap(const TensorDesc& t, const char* name) {
  if (t.numel() <= 1) return Status::Success;
  // Sort the non-trivial dims by stride; the tensor is overlap-free if each stride clears the whole
  // extent of the dims below it. This is exact for the layouts torch can produce.
  int order[kMaxDims];
  int n = 0;
  for (int i = 0; i < t.ndim; ++i)
    if (t.shape[i] > 1) order[n++] = i;
  std::sort(order, order + n, [&](int a, int b) { return t.strides[a] < t.strides[b]; });
  int64_t extent = 1;
  for (int k = 0; k < n; ++k) {
    const int i = order[k];
    if (t.strides[i] < extent)
      return fail(Status::BadLayout, std::string(name) + ": a written tensor must not overlap itself (dim " +
                                         std::to_string(i) + " has stride " + std::to_string(t.strides[i]) +
                                         "; expanded or 0-stride outputs are not allowed)");
    extent = t.strides[i] * t.shape[i];
  }
  return Status::Success;
}

Status normalize_dim(int64_t dim, int ndim, const char* name, int* out) {
  const int64_t n = ndim == 0 ? 1 : ndim;
  if (dim < -n || dim >= n)
    return fail(Status::BadArgument, std::string(name) + ": expected a dim in [" + std::to_string(-n) + ", " +
                                         std::to_string(n - 1) + "], got " + std::to_string(dim));
  *out = static_cast<int>(dim < 0 ? dim + n : dim);
  return Status::Success;
}

}  // namespace ort
