#pragma once
// Device building blocks shared by the nvidia kernels: packed loads/stores that widen to fp32, and
// warp/block reductions. All arithmetic is fp32; T is float, half_t or bfloat16_t.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>
#include <type_traits>

#include "core/half_types.h"

namespace ort::cuda {

// N elements of T moved as one access (16 bytes when N * sizeof(T) == 16).
template <class T, int N> struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

// The machine word of a pack. Loads and stores go through it so that the compiler emits one wide
// access; assigning a Pack of 16-bit structs member-wise can otherwise become N narrow stores.
template <int BYTES> struct WordOf;
template <> struct WordOf<16> { using type = uint4; };
template <> struct WordOf<8> { using type = uint2; };
template <> struct WordOf<4> { using type = unsigned int; };
template <> struct WordOf<2> { using type = unsigned short; };
template <> struct WordOf<1> { using type = unsigned char; };

// Loads and conversions are separate steps on purpose. A conversion placed right after its load (as
// in a per-pack `if (in range) { load; convert; }`) makes the thread wait for that load before it can
// issue the next one: the half-precision kernels then had two loads in flight instead of eight and ran
// at 0.55x torch. Kernels load every pack of an iteration first (load_pack), then convert (unpack).
template <class T, int N>
__device__ __forceinline__ Pack<T, N> load_pack(const T* p) {
  using W = typename WordOf<sizeof(T) * N>::type;
  const W w = *reinterpret_cast<const W*>(p);
  Pack<T, N> pk;
  memcpy(&pk, &w, sizeof(W));
  return pk;
}

template <class T, int N>
__device__ __forceinline__ void unpack(const Pack<T, N>& pk, float (&f)[N]) {
#pragma unroll
  for (int k = 0; k < N; ++k) f[k] = to_float(pk.v[k]);
}

template <class T, int N>
__device__ __forceinline__ void load_f32(const T* p, float (&f)[N]) {
  unpack(load_pack<T, N>(p), f);
}

// load_f32 with bf16 packs widened a 32-bit word at a time: `w << 16` is the low value and `w & 0xffff0000` the
// high one, one instruction each. Value by value (unpack) the widening goes through 16-bit registers, and ptxas
// spends a second instruction on each high value: reduce_sum's bf16 kernels were 24-56 instructions longer than
// their fp16 twins (which widen by one HADD2.F32 a value) and ran its long rows 2.5-3.6 % slower (H200, run gb:
// 4096x16384 31.86 -> 30.71 us, fp16 30.73). Not every kernel's default: softmax's online_held bf16 kernel spills
// with it, and vector_add's bf16 rows did not gain (run gb).
template <class T, int N>
__device__ __forceinline__ void unpack_words(const Pack<T, N>& pk, float (&f)[N]) {
  if constexpr (std::is_same_v<T, bfloat16_t> && N % 2 == 0) {
    uint32_t w[N / 2];
    memcpy(w, &pk, sizeof(w));
#pragma unroll
    for (int k = 0; k < N / 2; ++k) {
      f[2 * k] = __uint_as_float(w[k] << 16);
      f[2 * k + 1] = __uint_as_float(w[k] & 0xffff0000u);
    }
  } else {
    unpack(pk, f);
  }
}

template <class T, int N>
__device__ __forceinline__ void load_f32_words(const T* p, float (&f)[N]) {
  unpack_words(load_pack<T, N>(p), f);
}

// Two fp32 values narrowed by one instruction (cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32): half the
// conversions of narrowing one value at a time, which matters in kernels that convert 32 values a thread.
template <class T>
__device__ __forceinline__ uint32_t narrow_pair(float lo, float hi) {
  static_assert(sizeof(T) == 2, "pairs of 16-bit values");
  uint32_t u;
  if constexpr (std::is_same_v<T, half_t>) {
    const __half2 h = __floats2half2_rn(lo, hi);
    memcpy(&u, &h, 4);
  } else {
    const __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    memcpy(&u, &h, 4);
  }
  return u;
}

// Two words of two 16-bit values each, combined lane by lane by one paired instruction (`op` on __half2 or
// __nv_bfloat162): one instruction per two values, where widening first costs a conversion per value.
template <class T, class Op>
__device__ __forceinline__ uint32_t on_pairs(uint32_t a, uint32_t b, Op op) {
  static_assert(sizeof(T) == 2, "pairs of 16-bit values");
  using P = std::conditional_t<std::is_same_v<T, half_t>, __half2, __nv_bfloat162>;
  P x, y;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  const P m = op(x, y);
  uint32_t u;
  memcpy(&u, &m, 4);
  return u;
}

// The larger value of each lane (max.f16x2 / max.bf16x2): exact, and a NaN loses to a number as in fmaxf. Softmax
// takes a max over raw packs with it.
template <class T>
__device__ __forceinline__ uint32_t max_pairs(uint32_t a, uint32_t b) {
  return on_pairs<T>(a, b, [](auto x, auto y) { return __hmax2(x, y); });
}

// The sums of each lane (add.f16x2 / add.bf16x2, one rounding): the same bits as widening to fp32, adding and
// narrowing (torch's opmath), since two 16-bit values whose exponents differ by more than fp32 can hold exactly differ
// by more than half an ulp of the larger, so the fp32 rounding never makes a tie for the second.
template <class T>
__device__ __forceinline__ uint32_t add_pairs(uint32_t a, uint32_t b) {
  return on_pairs<T>(a, b, [](auto x, auto y) { return __hadd2(x, y); });
}

// One of the two 16-bit values of a word (HALF 0: the lower one), widened to fp32; bf16 by one 32-bit operation
// (unpack_words' reason).
template <class T, int HALF>
__device__ __forceinline__ float widen_half(uint32_t w) {
  static_assert(sizeof(T) == 2 && (HALF == 0 || HALF == 1), "a half of a word of two 16-bit values");
  if constexpr (std::is_same_v<T, bfloat16_t>) return __uint_as_float(HALF == 0 ? w << 16 : w & 0xffff0000u);
  return to_float(T{uint16_t(HALF == 0 ? w & 0xffffu : w >> 16)});
}

// The max of N packs of 16-bit values, taken on the raw pairs (a tree of max_pairs), widened once at the end.
// Any N: each level folds the upper ceil(n / 2) words onto the lower, so an odd count carries its middle word up
// a level (for a power of two, the same tree as halving).
template <class T, int VEC, int N>
__device__ __forceinline__ float packed_max(const Pack<T, VEC> (&raw)[N]) {
  static_assert(sizeof(T) == 2 && VEC % 2 == 0, "packs of 16-bit pairs");
  static_assert(sizeof(Pack<T, VEC>) == 16 && N >= 1, "16-byte packs, at least one");
  uint32_t w[N];
#pragma unroll
  for (int u = 0; u < N; ++u) {  // each pack's four words to one, then a tree over the packs
    uint4 q;
    memcpy(&q, &raw[u], 16);
    w[u] = max_pairs<T>(max_pairs<T>(q.x, q.y), max_pairs<T>(q.z, q.w));
  }
#pragma unroll
  for (int n = N; n > 1; n = (n + 1) / 2)
#pragma unroll
    for (int k = 0; k < n / 2; ++k) w[k] = max_pairs<T>(w[k], w[k + (n + 1) / 2]);
  return fmaxf(widen_half<T, 0>(w[0]), widen_half<T, 1>(w[0]));
}

// N 16-bit values held as N / 2 words of two (narrow_pair's, add_pairs') stored as one access.
template <class T, int N>
__device__ __forceinline__ void store_pairs(T* p, const uint32_t (&pairs)[N / 2]) {
  static_assert(sizeof(T) == 2 && N % 2 == 0, "whole pairs of 16-bit values");
  using W = typename WordOf<sizeof(T) * N>::type;
  W w;
  memcpy(&w, pairs, sizeof(W));
  *reinterpret_cast<W*>(p) = w;
}

template <class T, int N>
__device__ __forceinline__ void store_f32(T* p, const float (&f)[N]) {
  if constexpr (sizeof(T) == 2 && N % 2 == 0) {
    uint32_t pairs[N / 2];
#pragma unroll
    for (int k = 0; k < N / 2; ++k) pairs[k] = narrow_pair<T>(f[2 * k], f[2 * k + 1]);
    store_pairs<T, N>(p, pairs);
  } else {
    using W = typename WordOf<sizeof(T) * N>::type;
    W w;
    Pack<T, N> pk;
#pragma unroll
    for (int k = 0; k < N; ++k) pk.v[k] = from_float<T>(f[k]);
    memcpy(&w, &pk, sizeof(W));
    *reinterpret_cast<W*>(p) = w;
  }
}

// Butterfly reductions over aligned groups of WIDTH lanes (WIDTH a power of two <= 32): xor offsets
// below WIDTH never cross a group, so several rows can share one warp.
template <int WIDTH = 32>
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = WIDTH / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <int WIDTH = 32>
__device__ __forceinline__ float warp_max(float v) {
#pragma unroll
  for (int o = WIDTH / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

struct SumOp {
  __device__ float identity() const { return 0.f; }
  __device__ float operator()(float a, float b) const { return a + b; }
  template <int WIDTH = 32>
  __device__ float warp(float v) const { return warp_sum<WIDTH>(v); }
};
struct MaxOp {
  __device__ float identity() const { return -INFINITY; }
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
  template <int WIDTH = 32>
  __device__ float warp(float v) const { return warp_max<WIDTH>(v); }
};

// Reduces v over the THREADS consecutive threads that share one row (THREADS a power of two up to 32,
// or a multiple of 32 up to 1024; group g of a block uses smem[g * 32 ...]). Every thread of the group
// gets the result.
template <int THREADS, class Op>
__device__ __forceinline__ float group_reduce(float v, Op op, float* smem) {
  v = op.template warp<(THREADS < 32 ? THREADS : 32)>(v);
  if constexpr (THREADS > 32) {
    constexpr int kWarps = THREADS / 32;
    const int lane = threadIdx.x % 32, warp = (threadIdx.x % THREADS) / 32;
    float* s = smem + (threadIdx.x / THREADS) * 32;
    __syncthreads();  // smem may still hold a previous reduction's values
    if (lane == 0) s[warp] = v;
    __syncthreads();
    v = lane < kWarps ? s[lane] : op.identity();
    v = op.template warp<32>(v);
  }
  return v;
}

// 2^x with the hardware approximation (relative error ~2^-22): softmax evaluates exp(x - m) as
// exp2((x - m) * log2(e)), a subtraction, a multiply and one MUFU op instead of expf's longer sequence.
__device__ __forceinline__ float fast_exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

constexpr float kLog2e = 1.4426950408889634f;

}  // namespace ort::cuda
