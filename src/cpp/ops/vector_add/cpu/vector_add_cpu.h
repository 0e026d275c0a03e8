#pragma once
// The reviewed C API of vector_add on the cpu backend. `stream` is ignored: the cpu backend runs
// synchronously.
#include <cstddef>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct VectorAddCpuDescriptor;

Status vector_add_cpu_create(VectorAddCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* a,
                             const TensorDesc* b);
Status vector_add_cpu_workspace_size(const VectorAddCpuDescriptor* desc, size_t* size);
Status vector_add_cpu_execute(const VectorAddCpuDescriptor* desc, void* workspace, size_t workspace_size,
                              void* out, const void* a, const void* b, void* stream);
Status vector_add_cpu_destroy(VectorAddCpuDescriptor* desc);

}  // namespace ort
