// vector_add's descriptors, one line per backend.
#include "bindings/descriptor_binding.h"
#include "ops/vector_add/cpu/vector_add_cpu.h"
#if ORT_WITH_CUDA
#include "ops/vector_add/nvidia/vector_add_cuda.h"
#endif

static const ort::Registration vector_add_registration([](nanobind::module_& m) {
  ort::bind_descriptor<ort::vector_add_cpu_create, ort::vector_add_cpu_workspace_size, ort::vector_add_cpu_execute,
                       ort::vector_add_cpu_destroy>(m, "VectorAddCpu");
#if ORT_WITH_CUDA
  ort::bind_descriptor<ort::vector_add_cuda_create, ort::vector_add_cuda_workspace_size,
                       ort::vector_add_cuda_execute, ort::vector_add_cuda_destroy>(m, "VectorAddNvidia");
#endif
});
