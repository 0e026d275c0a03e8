#pragma once
// Element types the runtime understands. The integer values are part of the Python contract
// (operator_runtime._internal.tensor_meta maps torch dtypes onto them).
#include <cstdint>

namespace ort {

enum class DType : int32_t {
  Bool = 0, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64,
};

constexpr int64_t dtype_size(DType d) {
  switch (d) {
    case DType::Bool: case DType::UInt8: case DType::Int8: return 1;
    case DType::Int16: case DType::Float16: case DType::BFloat16: return 2;
    case DType::Int32: case DType::Float32: return 4;
    case DType::Int64: case DType::Float64: return 8;
  }
  return 0;
}

const char* dtype_name(DType d);

// The dtypes the arithmetic ops accept: fp32 math inside, result in the input dtype.
constexpr bool is_compute_float(DType d) {
  return d == DType::Float32 || d == DType::Float16 || d == DType::BFloat16;
}

}  // namespace ort
