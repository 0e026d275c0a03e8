// copy's descriptors, one line per backend.
#include "bindings/descriptor_binding.h"
#include "ops/copy/cpu/copy_cpu.h"
#if ORT_WITH_CUDA
#include "ops/copy/nvidia/copy_cuda.h"
#endif

static const ort::Registration copy_registration([](nanobind::module_& m) {
  ort::bind_descriptor<ort::copy_cpu_create, ort::copy_cpu_workspace_size, ort::copy_cpu_execute,
                       ort::copy_cpu_destroy>(m, "CopyCpu");
#if ORT_WITH_CUDA
  ort::bind_descriptor<ort::copy_cuda_create, ort::copy_cuda_workspace_size, ort::copy_cuda_execute,
                       ort::copy_cuda_destroy>(m, "CopyNvidia");
#endif
});
