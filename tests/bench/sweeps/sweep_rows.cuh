#pragma once
// The RowsOfDim that rows_of_dim plans for a contiguous (rows, length) tensor along its last dim, for the sweeps
// that launch the library's row kernels directly: softmax's out keeps the dim, reduce_sum's drops it.
#include <cstdint>

#include "ops/reduce_sum/reduce_sum.h"

namespace ort {

inline RowsOfDim contiguous_rows(int64_t rows, int64_t length, bool out_keeps_dim) {
  RowsOfDim r;
  r.dim = 1;
  r.length = length;
  r.x_stride = 1;
  r.out_stride = out_keeps_dim ? 1 : 0;
  r.rows = rows;
  r.outer.ndim = 1;
  r.outer.shape[0] = rows;
  r.outer.strides[0][0] = out_keeps_dim ? length : 1;
  r.outer.strides[1][0] = length;
  return r;
}

}  // namespace ort
