// The extension module operator_runtime._C: the TensorDesc type, the error type, build info, and every
// op descriptor registered by the op folders.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bindings/descriptor_binding.h"
#include "core/tensor_desc.h"

namespace nb = nanobind;
using namespace ort;

namespace ort {

std::vector<Binder>& registered_binders() {
  static std::vector<Binder> binders;
  return binders;
}

void throw_if_failed(Status s) {
  switch (s) {
    case Status::Success: return;
    case Status::BadDtype: throw nb::type_error(last_error_message().c_str());
    case Status::BadShape:
    case Status::BadLayout:
    case Status::BadArgument:
    case Status::BadDevice: throw nb::value_error(last_error_message().c_str());
    default: throw OperatorRuntimeError(std::string(status_name(s)) + ": " + last_error_message());
  }
}

}  // namespace ort

static TensorDesc make_desc(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int dtype,
                            int device, int device_id) {
  if (shape.size() > static_cast<size_t>(kMaxDims))
    throw nb::value_error(("tensors of rank > " + std::to_string(kMaxDims) + " are not supported").c_str());
  if (shape.size() != strides.size()) throw nb::value_error("shape and strides must have the same length");
  if (dtype < 0 || dtype > static_cast<int>(DType::Float64)) throw nb::type_error("unknown dtype code");
  TensorDesc t;
  t.ndim = static_cast<int32_t>(shape.size());
  for (int i = 0; i < t.ndim; ++i) {
    t.shape[i] = shape[i];
    t.strides[i] = strides[i];
  }
  t.dtype = static_cast<DType>(dtype);
  t.device = static_cast<DeviceType>(device);
  t.device_id = device_id;
  return t;
}

NB_MODULE(_C, m) {
  m.doc() = "operator_runtime._C: typed operator descriptors (create -> workspace -> execute -> destroy)";
  nb::exception<OperatorRuntimeError>(m, "OperatorRuntimeError", PyExc_RuntimeError);

  nb::class_<TensorDesc>(m, "TensorDesc")
      .def(nb::init<>())
      .def("__init__",
           [](TensorDesc* self, const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, int dtype,
              int device, int device_id) { new (self) TensorDesc(make_desc(shape, strides, dtype, device, device_id)); },
           nb::arg("shape"), nb::arg("strides"), nb::arg("dtype"), nb::arg("device") = 0, nb::arg("device_id") = 0)
      .def_prop_ro("ndim", [](const TensorDesc& t) { return t.ndim; })
      .def_prop_ro("shape", [](const TensorDesc& t) { return std::vector<int64_t>(t.shape, t.shape + t.ndim); })
      .def_prop_ro("strides", [](const TensorDesc& t) { return std::vector<int64_t>(t.strides, t.strides + t.ndim); })
      .def_prop_ro("dtype", [](const TensorDesc& t) { return std::string(dtype_name(t.dtype)); })
      .def_prop_ro("device_id", [](const TensorDesc& t) { return t.device_id; })
      .def("__repr__", [](const TensorDesc& t) {
        return "TensorDesc(shape=" + shape_str(t) + ", dtype=" + dtype_name(t.dtype) + ")";
      });

  m.def("cuda_built", [] { return bool(ORT_WITH_CUDA); }, "Whether the nvidia backend was compiled in.");
  m.def("cuda_architectures", [] { return std::string(ORT_WITH_CUDA ? ORT_CUDA_ARCHS : ""); });

  for (Binder bind : registered_binders()) bind(m);
}
