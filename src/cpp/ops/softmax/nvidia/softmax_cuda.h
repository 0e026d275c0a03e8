#pragma once
// The reviewed C API of softmax on the nvidia backend. `stream` is a cudaStream_t: execute enqueues
// on it, never allocates and never synchronizes.
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct SoftmaxCudaDescriptor;

Status softmax_cuda_create(SoftmaxCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim);
Status softmax_cuda_workspace_size(const SoftmaxCudaDescriptor* desc, size_t* size);
Status softmax_cuda_execute(const SoftmaxCudaDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                           const void* x, void* stream);
Status softmax_cuda_destroy(SoftmaxCudaDescriptor* desc);

}  // namespace ort
