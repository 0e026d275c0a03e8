#pragma once
// reduce_sum: out = x.sum(dim, keepdim), fp32 accumulation, result in x's dtype; any dim, any strides.
#include "core/layout.h"
#include "core/tensor_desc.h"

namespace ort {

// A reduction over one dim, as every reducing/normalising op sees it: `outer` walks the kept dims
// (tensor 0 = out, tensor 1 = x), and each kept index owns a "row" of `length` elements of x spaced
// `x_stride` apart (for softmax, out's row is spaced `out_stride`).
struct RowsOfDim {
  int dim = 0;
  int64_t length = 1;
  int64_t x_stride = 0;
  int64_t out_stride = 0;
  int64_t rows = 1;
  Nest<2> outer;
};

// Splits x into RowsOfDim. out either keeps `dim` (same rank as x: softmax, keepdim sums) or drops it.
RowsOfDim rows_of_dim(const TensorDesc& x, const TensorDesc& out, int dim, bool out_keeps_dim);

// The checks every op along one dim of x runs first (reduce_sum, softmax): device, float dtype on both
// sides, and `dim` (normalised into *d).
Status check_along_dim(const TensorDesc& out, const TensorDesc& x, int64_t dim, DeviceType device, int* d);

struct ReduceSumInfo {
  DType dtype = DType::Float32;
  RowsOfDim r;

  static Status create(const TensorDesc* out, const TensorDesc* x, int64_t dim, bool keepdim, DeviceType device,
                       ReduceSumInfo* info);
};

}  // namespace ort
