#pragma once
// ONE generic binding for every op's descriptor. An op backend provides four C-style functions
//   create(Handle**, args...)  workspace_size(const Handle*, size_t*)
//   execute(const Handle*, void* workspace, size_t workspace_size, pointers..., void* stream)
//   destroy(Handle*)
// and binds them in one line: bind_descriptor<create, workspace_size, execute, destroy>(m, "CopyCpu").
// The Python object owns the handle: create in __init__, destroy on close() or when collected.
// execute takes raw pointers as ints: importing tensors as ndarrays costs ~3 us each (DESIGN.md §4).
#include <nanobind/nanobind.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/tensor_desc.h"

namespace ort {

namespace nb = nanobind;

struct OperatorRuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Turns a failed Status into the Python exception type the public contract promises.
void throw_if_failed(Status s);

// create() arguments as Python sees them: TensorDesc by reference, scalars as they are.
template <class A> struct PyArg {
  using type = A;
  static A unwrap(A a) { return a; }
};
template <> struct PyArg<const TensorDesc*> {
  using type = const TensorDesc&;
  static const TensorDesc* unwrap(const TensorDesc& t) { return &t; }
};
template <class P> using AsInt = uintptr_t;

template <class F> struct CreateSig;
template <class H, class... A> struct CreateSig<Status (*)(H**, A...)> {
  using Handle = H;
  template <class D> static void bind_init(nb::class_<D>& cls) {
    cls.def("__init__", [](D* self, typename PyArg<A>::type... a) { new (self) D(PyArg<A>::unwrap(a)...); });
  }
};

template <class F> struct ExecuteSig;
template <class H, class... P> struct ExecuteSig<Status (*)(const H*, void*, size_t, P...)> {
  template <auto Execute, class D> static void bind_execute(nb::class_<D>& cls) {
    cls.def("execute", [](const D& d, uintptr_t ws, size_t ws_size, AsInt<P>... p) {
      throw_if_failed(Execute(d.handle(), reinterpret_cast<void*>(ws), ws_size, reinterpret_cast<P>(p)...));
    });
  }
};

template <auto Create, auto Workspace, auto Execute, auto Destroy>
class Descriptor {
 public:
  using Handle = typename CreateSig<decltype(Create)>::Handle;

  template <class... A> explicit Descriptor(A... a) {
    throw_if_failed(Create(&handle_, a...));
    const Status s = Workspace(handle_, &workspace_size_);
    if (s != Status::Success) close();
    throw_if_failed(s);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() { close(); }

  void close() {
    if (handle_) Destroy(handle_);
    handle_ = nullptr;
  }
  bool closed() const { return handle_ == nullptr; }
  size_t workspace_size() const { return workspace_size_; }
  const Handle* handle() const {
    if (!handle_) throw OperatorRuntimeError("this descriptor was destroyed (close() was called)");
    return handle_;
  }

 private:
  Handle* handle_ = nullptr;
  size_t workspace_size_ = 0;
};

template <auto Create, auto Workspace, auto Execute, auto Destroy>
void bind_descriptor(nb::module_& m, const char* name) {
  using D = Descriptor<Create, Workspace, Execute, Destroy>;
  nb::class_<D> cls(m, name);
  CreateSig<decltype(Create)>::bind_init(cls);
  ExecuteSig<decltype(Execute)>::template bind_execute<Execute>(cls);
  cls.def_prop_ro("workspace_size", &D::workspace_size)
      .def_prop_ro("closed", &D::closed)
      .def("close", &D::close);
}

// Op registration: each op's <op>_binding.cc adds its binder here from a static initializer, so the
// module picks up every op folder the build globbed, with no central list.
using Binder = void (*)(nb::module_&);
std::vector<Binder>& registered_binders();
struct Registration {
  explicit Registration(Binder b) { registered_binders().push_back(b); }
};

}  // namespace ort
