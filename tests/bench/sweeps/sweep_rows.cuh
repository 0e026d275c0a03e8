#pragma once
// The RowsOfDim that rows_of_dim plans for a contiguous (rows, length) tensor along its last dim (and, for reduce_sum,
// along its first), for the sweeps that launch the library's row kernels directly: softmax's out keeps the dim,
// reduce_sum's drops it.
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

// The RowsOfDim of a sum over dim 0 of a contiguous (length, cols) tensor, the column sums: cols outputs of length
// elements each, a row of x apart.
inline RowsOfDim contiguous_columns(int64_t length, int64_t cols) {
  RowsOfDim r;
  r.dim = 0;
  r.rows = cols;
  r.length = length;
  r.x_stride = cols;
  r.out_stride = 0;
  r.outer.ndim = 1;
  r.outer.shape[0] = cols;
  r.outer.strides[0][0] = 1;
  r.outer.strides[1][0] = 1;
  return r;
}

}  // namespace ort
