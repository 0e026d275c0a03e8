#pragma once
// The reviewed C API of reduce_sum on the cpu backend. `stream` is ignored: the cpu backend runs
// synchronously.
#include <cstddef>
#include <cstdint>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

struct ReduceSumCpuDescriptor;

Status reduce_sum_cpu_create(ReduceSumCpuDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim,
                             bool keepdim);
Status reduce_sum_cpu_workspace_size(const ReduceSumCpuDescriptor* desc, size_t* size);
Status reduce_sum_cpu_execute(const ReduceSumCpuDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                              const void* x, void* stream);
Status reduce_sum_cpu_destroy(ReduceSumCpuDescriptor* desc);

}  // namespace ort
