#pragma once
// vector_add: out = a + b with torch broadcasting, any strides, fp32 math, result in the input dtype.
#include "core/layout.h"
#include "core/tensor_desc.h"

namespace ort {

struct VectorAddInfo {
  DType dtype = DType::Float32;
  int64_t numel = 0;
  Nest<3> nest;  // tensors: 0 = out, 1 = a, 2 = b (broadcast dims have stride 0)

  static Status create(const TensorDesc* out, const TensorDesc* a, const TensorDesc* b, DeviceType device,
                       VectorAddInfo* info);
};

}  // namespace ort
