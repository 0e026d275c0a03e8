// CallGraph: one prepared call recorded as a CUDA graph, replayed by op().
//
// Why: on the H200's host one kernel launch costs the host 4.1-4.9 us, alone or in a batch (launch_floor, run fw),
// while replaying a graph that holds the same kernel costs 2.0-2.2 us. A prepared op bound to its tensors launches
// the same kernels with the same arguments every time, which is exactly what a graph records. PreparedOp records
// its call on its second bound call (an op run twice is run many times; a one-off call never pays the ~50 us of
// recording) and replays it while the bound tensors keep their data pointers.
//
// The recording runs the descriptor's own execute on a private stream in capture mode, so the graph holds exactly
// the kernels (and their launch attributes) that execute launches; nothing is re-derived here. Replay is skipped,
// and the caller runs execute, when the pointers changed or the target stream is itself being captured (torch's
// CUDA graphs, the bench's timing): a graph recorded into another graph would nest, a case kept out on purpose.
#if ORT_WITH_CUDA
#include <cuda_runtime.h>
#include <nanobind/nanobind.h>

#include <cstdint>
#include <string>

#include "bindings/descriptor_binding.h"

namespace ort {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw OperatorRuntimeError(std::string(what) + ": " + cudaGetErrorString(e));
}

class CallGraph {
 public:
  // Records `record(stream)` (a call of a descriptor's execute on `stream`) into a graph for the current device.
  CallGraph(nb::callable record, uintptr_t out, uintptr_t a, uintptr_t b) : out_(out), a_(a), b_(b) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    cudaGraph_t graph = nullptr;
    try {
      check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
      try {
        record(reinterpret_cast<uintptr_t>(s));
      } catch (...) {
        cudaStreamEndCapture(s, &graph);  // ends the capture the failed call left open
        if (graph) cudaGraphDestroy(graph);
        throw;
      }
      check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
      check(cudaGraphInstantiate(&exec_, graph, 0), "cudaGraphInstantiate");
    } catch (...) {
      if (graph) cudaGraphDestroy(graph);
      cudaStreamDestroy(s);
      throw;
    }
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
  }
  CallGraph(const CallGraph&) = delete;
  CallGraph& operator=(const CallGraph&) = delete;
  // A graph still running is freed when it completes (cudaGraphExecDestroy does not wait for it).
  ~CallGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }

  // Replays the call on `stream` if the pointers are the recorded ones and `stream` is not capturing; returns
  // whether it did (if not, the caller runs execute itself).
  bool replay(uintptr_t stream, uintptr_t out, uintptr_t a, uintptr_t b) const {
    if (out != out_ || a != a_ || b != b_) return false;
    cudaStream_t st = reinterpret_cast<cudaStream_t>(stream);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(st, &status) != cudaSuccess) {
      cudaGetLastError();  // leave no sticky error for the execute that runs instead
      return false;
    }
    if (status != cudaStreamCaptureStatusNone) return false;
    check(cudaGraphLaunch(exec_, st), "cudaGraphLaunch");
    return true;
  }

 private:
  cudaGraphExec_t exec_ = nullptr;
  uintptr_t out_, a_, b_;
};

}  // namespace
}  // namespace ort

static const ort::Registration call_graph_registration([](nanobind::module_& m) {
  namespace nb = nanobind;
  nb::class_<ort::CallGraph>(m, "CallGraph",
                             "A prepared call recorded as a CUDA graph (bindings/call_graph.cc says why).")
      .def(nb::init<nb::callable, uintptr_t, uintptr_t, uintptr_t>(), nb::arg("record"), nb::arg("out"),
           nb::arg("a"), nb::arg("b") = 0)
      .def("replay", &ort::CallGraph::replay, nb::arg("stream"), nb::arg("out"), nb::arg("a"), nb::arg("b") = 0);
});
#endif
