#pragma once
// Layout helpers used by create(): they turn arbitrary strides into the simplest equivalent loop nest,
// so each kernel sees as few dims as possible.
#include <cstdint>

#include "core/tensor_desc.h"

namespace ort {

// A loop nest over `ndim` dims, walked by K tensors at once. Dims are ordered outermost first.
template <int K>
struct Nest {
  int ndim = 0;
  int64_t shape[kMaxDims] = {};
  int64_t strides[K][kMaxDims] = {};
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < ndim; ++i) n *= shape[i];
    return n;
  }
};

// Builds a nest over `shape` for K stride arrays: drops size-1 dims, sorts dims so that tensor 0 (the
// output) is walked in memory order, then merges neighbouring dims that are contiguous in every tensor.
template <int K>
Nest<K> make_nest(int ndim, const int64_t* shape, const int64_t* const* strides) {
  Nest<K> n;
  int order[kMaxDims];
  int m = 0;
  for (int i = 0; i < ndim; ++i)
    if (shape[i] != 1) order[m++] = i;
  // Stable insertion sort by tensor 0's stride, descending (outermost first); ties keep the logical order.
  for (int a = 1; a < m; ++a)
    for (int b = a; b > 0 && strides[0][order[b - 1]] < strides[0][order[b]]; --b) {
      const int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
    }
  for (int k = 0; k < m; ++k) {
    const int d = order[k];
    const bool merge = n.ndim > 0 && [&] {
      for (int t = 0; t < K; ++t)
        if (n.strides[t][n.ndim - 1] != strides[t][d] * shape[d]) return false;
      return true;
    }();
    if (merge) {
      n.shape[n.ndim - 1] *= shape[d];
      for (int t = 0; t < K; ++t) n.strides[t][n.ndim - 1] = strides[t][d];
    } else {
      n.shape[n.ndim] = shape[d];
      for (int t = 0; t < K; ++t) n.strides[t][n.ndim] = strides[t][d];
      ++n.ndim;
    }
  }
  return n;
}

// Host-side walk over a nest: calls f(offsets[K]) for every element, innermost dim fastest.
template <int K, class F>
void for_each_offset(const Nest<K>& n, F&& f) {
  if (n.numel() == 0) return;
  int64_t idx[kMaxDims] = {};
  int64_t off[K] = {};
  const int last = n.ndim - 1;
  while (true) {
    if (n.ndim == 0) { f(off); return; }
    int64_t inner[K];
    for (int t = 0; t < K; ++t) inner[t] = off[t];
    for (int64_t i = 0; i < n.shape[last]; ++i) {
      f(inner);
      for (int t = 0; t < K; ++t) inner[t] += n.strides[t][last];
    }
    int d = last - 1;
    for (; d >= 0; --d) {
      for (int t = 0; t < K; ++t) off[t] += n.strides[t][d];
      if (++idx[d] < n.shape[d]) break;
      for (int t = 0; t < K; ++t) off[t] -= n.strides[t][d] * n.shape[d];
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace ort
