#pragma once
// The reviewed C API of softmax on the cpu backend. `stream` is ignored: the cpu backend runs
// synchronously.
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct SoftmaxCpuDescriptor;

Status softmax_cpu_create(SoftmaxCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim);
Status softmax_cpu_workspace_size(const SoftmaxCpuDescriptor* desc, size_t* size);
Status softmax_cpu_execute(const SoftmaxCpuDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                           const void* x, void* stream);
Status softmax_cpu_destroy(SoftmaxCpuDescriptor* desc);

}  // namespace ort
