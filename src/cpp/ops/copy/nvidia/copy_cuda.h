#pragma once
// The reviewed C API of copy on the nvidia backend. `stream` is a cudaStream_t: execute enqueues on it,
// never allocates and never synchronizes.
#include <cstddef>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct CopyCudaDescriptor;

Status copy_cuda_create(CopyCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* src);
Status copy_cuda_workspace_size(const CopyCudaDescriptor* desc, size_t* size);
Status copy_cuda_execute(const CopyCudaDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                        const void* src, void* stream);
Status copy_cuda_destroy(CopyCudaDescriptor* desc);

}  // namespace ort
