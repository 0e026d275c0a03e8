#pragma once
// The reviewed C API of copy on the cpu backend. `stream` is ignored: the cpu backend runs synchronously.
#include <cstddef>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct CopyCpuDescriptor;

Status copy_cpu_create(CopyCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* src);
Status copy_cpu_workspace_size(const CopyCpuDescriptor* desc, size_t* size);
Status copy_cpu_execute(const CopyCpuDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                        const void* src, void* stream);
Status copy_cpu_destroy(CopyCpuDescriptor* desc);

}  // namespace ort
