#pragma once
// The reviewed C API of reduce_sum on the nvidia backend. `stream` is a cudaStream_t: execute enqueues
// on it, never allocates and never synchronizes. The workspace holds per-split partial sums.
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct ReduceSumCudaDescriptor;

Status reduce_sum_cuda_create(ReduceSumCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim,
                             bool keepdim);
Status reduce_sum_cuda_workspace_size(const ReduceSumCudaDescriptor* desc, size_t* size);
Status reduce_sum_cuda_execute(const ReduceSumCudaDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                              const void* x, void* stream);
Status reduce_sum_cuda_destroy(ReduceSumCudaDescriptor* desc);

}  // namespace ort
