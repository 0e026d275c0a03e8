#pragma once
// The one dtype-dispatch helper: a template over the list of element types an op supports.
//   return dispatch<float, half_t, bfloat16_t>(dtype, [&](auto tag) { using T = typename decltype(tag)::type; ... });
// A dtype outside the list returns Status::BadDtype (create() has already rejected it, so this is a guard).
#include <cstdint>

#include "core/dtype.h"
#include "core/half_types.h"
#include "core/status.h"

namespace ort {

template <class T> struct TypeTag { using type = T; };

template <class T> struct dtype_of;
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::Int16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<half_t> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<bfloat16_t> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };

template <class... Ts, class F>
Status dispatch(DType dtype, F&& f) {
  Status result = Status::BadDtype;
  // Fold over the list: the first matching type runs; `||` stops the fold there.
  (void)((dtype_of<Ts>::value == dtype ? (result = f(TypeTag<Ts>{}), true) : false) || ...);
  return result;
}

// The three dtypes every arithmetic op supports.
template <class F> Status dispatch_float(DType dtype, F&& f) {
  return dispatch<float, half_t, bfloat16_t>(dtype, static_cast<F&&>(f));
}

// Copy only moves bytes, so it dispatches on the element width through a same-width integer dtype.
inline DType same_width_int(DType d) {
  switch (dtype_size(d)) {
    case 1: return DType::UInt8;
    case 2: return DType::Int16;
    case 4: return DType::Int32;
    default: return DType::Int64;
  }
}

}  // namespace ort
