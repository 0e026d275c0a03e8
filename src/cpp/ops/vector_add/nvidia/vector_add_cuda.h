#pragma once
// The reviewed C API of vector_add on the nvidia backend. `stream` is a cudaStream_t: execute enqueues
// on it, never allocates and never synchronizes.
#include <cstddef>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct VectorAddCudaDescriptor;

Status vector_add_cuda_create(VectorAddCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* a,
                             const TensorDesc* b);
Status vector_add_cuda_workspace_size(const VectorAddCudaDescriptor* desc, size_t* size);
Status vector_add_cuda_execute(const VectorAddCudaDescriptor* desc, void* workspace, size_t workspace_size,
                              void* out, const void* a, const void* b, void* stream);
Status vector_add_cuda_destroy(VectorAddCudaDescriptor* desc);

}  // namespace ort
