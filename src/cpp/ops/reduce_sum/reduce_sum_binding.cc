// reduce_sum's descriptors, one line per backend.
#include "bindings/descriptor_binding.h"
#include "ops/reduce_sum/cpu/reduce_sum_cpu.h"
#if ORT_WITH_CUDA
#include "ops/reduce_sum/nvidia/reduce_sum_cuda.h"
#endif

static const ort::Registration reduce_sum_registration([](nanobind::module_& m) {
  ort::bind_descriptor<ort::reduce_sum_cpu_create, ort::reduce_sum_cpu_workspace_size, ort::reduce_sum_cpu_execute,
                       ort::reduce_sum_cpu_destroy>(m, "ReduceSumCpu");
#if ORT_WITH_CUDA
  ort::bind_descriptor<ort::reduce_sum_cuda_create, ort::reduce_sum_cuda_workspace_size,
                       ort::reduce_sum_cuda_execute, ort::reduce_sum_cuda_destroy>(m, "ReduceSumNvidia");
#endif
});
