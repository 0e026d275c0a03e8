#pragma once
// softmax: out = exp(x - max) / sum(exp(x - max)) along `dim`; fp32 math, result in x's dtype.
#include "ops/reduce_sum/reduce_sum.h"

namespace ort {

struct SoftmaxInfo {
  DType dtype = DType::Float32;
  RowsOfDim r;  // out keeps every dim: r.out_stride is out's stride along `dim`

  static Status create(const TensorDesc* out, const TensorDesc* x, int64_t dim, DeviceType device, SoftmaxInfo* info);
};

}  // namespace ort
