// softmax's descriptors, one line per backend.
#include "bindings/descriptor_binding.h"
#include "ops/softmax/cpu/softmax_cpu.h"
#if ORT_WITH_CUDA
#include "ops/softmax/nvidia/softmax_cuda.h"
#endif

static const ort::Registration softmax_registration([](nanobind::module_& m) {
  ort::bind_descriptor<ort::softmax_cpu_create, ort::softmax_cpu_workspace_size, ort::softmax_cpu_execute,
                       ort::softmax_cpu_destroy>(m, "SoftmaxCpu");
#if ORT_WITH_CUDA
  ort::bind_descriptor<ort::softmax_cuda_create, ort::softmax_cuda_workspace_size, ort::softmax_cuda_execute,
                       ort::softmax_cuda_destroy>(m, "SoftmaxNvidia");
#endif
});
