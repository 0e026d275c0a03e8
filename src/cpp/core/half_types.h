#pragma once
// 16-bit float storage types shared by the cpu and nvidia backends. Arithmetic always happens in fp32:
// to_float() widens, from_float<T>() narrows with round-to-nearest-even. On the device we use the
// hardware conversions; on the host the bit-level ones below (the CPU build has no cuda_fp16.h).
#include <cstdint>
#include <cstring>
#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define ORT_HD __host__ __device__ __forceinline__
#else
#define ORT_HD inline
#endif

namespace ort {

struct alignas(2) half_t { uint16_t bits; };
struct alignas(2) bfloat16_t { uint16_t bits; };

ORT_HD float bits_to_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
ORT_HD uint32_t float_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

ORT_HD float to_float(float x) { return x; }
ORT_HD float to_float(bfloat16_t x) { return bits_to_float(uint32_t(x.bits) << 16); }
ORT_HD float to_float(half_t x) {
#if defined(__CUDA_ARCH__)
  return __half2float(__ushort_as_half(x.bits));
#else
  const uint32_t sign = uint32_t(x.bits & 0x8000) << 16;
  uint32_t exp = (x.bits >> 10) & 0x1f, man = x.bits & 0x3ff;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | (man << 13));  // inf / nan
  if (exp == 0) {
    if (man == 0) return bits_to_float(sign);
    // Subnormal half: value = man * 2^-24, exactly representable in fp32.
    const float v = float(man) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bits_to_float(sign | ((exp + 112) << 23) | (man << 13));
#endif
}

template <class T> ORT_HD T from_float(float f);
template <> ORT_HD float from_float<float>(float f) { return f; }
template <> ORT_HD bfloat16_t from_float<bfloat16_t>(float f) {
#if defined(__CUDA_ARCH__)
  return bfloat16_t{__bfloat16_as_ushort(__float2bfloat16_rn(f))};
#else
  uint32_t u = float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return bfloat16_t{uint16_t((u >> 16) | 0x40)};  // quiet nan
  u += 0x7fffu + ((u >> 16) & 1);
  return bfloat16_t{uint16_t(u >> 16)};
#endif
}
template <> ORT_HD half_t from_float<half_t>(float f) {
#if defined(__CUDA_ARCH__)
  return half_t{__half_as_ushort(__float2half_rn(f))};
#else
  const uint32_t u = float_to_bits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000);
  const uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return half_t{uint16_t(sign | 0x7e00)};           // nan
  if (a >= 0x477ff000u) return half_t{uint16_t(sign | 0x7c00)};          // rounds to inf
  if (a < 0x38800000u) {                                                  // subnormal or zero
    // Adding 0.5f aligns the half subnormal grid onto fp32's mantissa; the FPU does the rounding.
    const float r = bits_to_float(a) + 0.5f;
    return half_t{uint16_t(sign | uint16_t(float_to_bits(r) - 0x3f000000u))};
  }
  uint32_t v = a + 0xc8000fffu + ((a >> 13) & 1);  // rebias exponent (-112 << 23) and round to nearest even
  return half_t{uint16_t(sign | uint16_t(v >> 13))};
#endif
}

}  // namespace ort
