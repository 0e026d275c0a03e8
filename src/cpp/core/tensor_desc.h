#pragma once
// A tensor *description*: what create() needs, with no data pointer. Descriptors are built from these,
// so they never depend on the tensors they were described from.
#include <cstdint>
#include <string>

#include "core/dtype.h"
#include "core/status.h"

namespace ort {

constexpr int kMaxDims = 8;

enum class DeviceType : int32_t { Cpu = 0, Cuda = 1 };

struct TensorDesc {
  int32_t ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t strides[kMaxDims] = {};  // in elements
  DType dtype = DType::Float32;
  DeviceType device = DeviceType::Cpu;
  int32_t device_id = 0;

  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= shape[i];
    return n;
  }
};

std::string shape_str(const TensorDesc& t);

// Checks shared by every op's Info::create; each names the argument in its message.
// The backend serves one device type; `name` is the tensor checked first (the other tensors must match it).
Status check_backend_device(const TensorDesc& t, const char* name, DeviceType device);
Status check_same_dtype(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name);
Status check_compute_float(const TensorDesc& t, const char* name);
Status check_same_device(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name);
Status check_same_shape(const TensorDesc& t, const char* name, const TensorDesc& ref, const char* ref_name);
// A written tensor must not map two indices onto one element (e.g. an expanded, 0-stride `out`).
Status check_no_internal_overlap(const TensorDesc& t, const char* name);
// Normalises a possibly negative `dim` against `ndim` (rank 0 accepts -1 and 0, like torch).
Status normalize_dim(int64_t dim, int ndim, const char* name, int* out);

}  // namespace ort
