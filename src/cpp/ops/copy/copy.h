#pragma once
// copy: out[i] = src[i] for every index, any strides on both sides (the "rearrange" op of production
// libraries). Validation happens once, here, for every backend.
#include "core/layout.h"
#include "core/tensor_desc.h"

namespace ort {

struct CopyInfo {
  DType dtype = DType::Float32;
  int64_t elem_size = 0;
  int64_t numel = 0;
  Nest<2> nest;             // tensor 0 = out, tensor 1 = src; coalesced, out walked in memory order
  bool same_layout = false;  // out and src walk memory identically: out is src means nothing to do

  static Status create(const TensorDesc* out, const TensorDesc* src, DeviceType device, CopyInfo* info);
};

}  // namespace ort
