#pragma once
// Status codes returned by every C API function. The Python binding maps them onto exception types:
// BadDtype -> TypeError; BadShape/BadLayout/BadArgument/BadDevice -> ValueError; the rest ->
// OperatorRuntimeError. create() stores a message naming the argument in a thread-local slot.
#include <cstdint>
#include <string>

namespace ort {

enum class Status : int32_t {
  Success = 0,
  BadDtype,
  BadShape,
  BadLayout,
  BadArgument,
  BadDevice,
  InsufficientWorkspace,
  CudaError,
  Internal,
};

const char* status_name(Status s);

// The message of the last failure on this thread.
const std::string& last_error_message();

// Records `message` for this thread and returns `s`, so validation reads `return fail(...)`.
Status fail(Status s, std::string message);

}  // namespace ort
