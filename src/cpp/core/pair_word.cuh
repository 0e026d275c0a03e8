#pragma once
// Words of two elements, for the transposes: copy's transpose_pairs and vector_add's tiled_pairs load and
// store a pair of adjacent elements as one access (4 bytes for 16-bit values, 8 for fp32) and swap pairs
// from two rows in registers, a 2x2 transpose. The same number of accesses moves twice the bytes: the
// 16-bit copy transpose went from 2.69 to 3.96 TB/s with it (session 3), the fp32 one from 3.66 to 4.16
// (run bw).
#include <cstdint>
#include <type_traits>

namespace ort::cuda {

// The unsigned integer of an element's storage size (2 or 4 bytes): kernels move bits, not values.
template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

// PairWord<E>::type holds two elements of bits E; firsts(a, b) / seconds(a, b) are the 2x2 transpose of
// two words (a's and b's first elements, then their second ones); first / second take one element out, and
// PairWord<uint32_t>::join builds a word from two (16-bit pairs are built by cuda::narrow_pair, which also
// rounds from fp32).
template <class E>
struct PairWord;
template <>
struct PairWord<uint16_t> {
  using type = uint32_t;
  __device__ static uint32_t firsts(uint32_t a, uint32_t b) { return __byte_perm(a, b, 0x5410); }
  __device__ static uint32_t seconds(uint32_t a, uint32_t b) { return __byte_perm(a, b, 0x7632); }
  __device__ static uint16_t first(uint32_t w) { return uint16_t(w & 0xffffu); }
  __device__ static uint16_t second(uint32_t w) { return uint16_t(w >> 16); }
};
template <>
struct PairWord<uint32_t> {
  using type = uint2;
  __device__ static uint2 firsts(uint2 a, uint2 b) { return make_uint2(a.x, b.x); }
  __device__ static uint2 seconds(uint2 a, uint2 b) { return make_uint2(a.y, b.y); }
  __device__ static uint32_t first(uint2 w) { return w.x; }
  __device__ static uint32_t second(uint2 w) { return w.y; }
  __device__ static uint2 join(uint32_t lo, uint32_t hi) { return make_uint2(lo, hi); }
};

// The shared-memory column of word w in tile row j of a transpose staged in words of two: the tile's 2x2-
// transposed stores (a warp writes rows 2 tx and 2 tx + 1 of one w) and its row reads (a warp reads 32 words
// of one row) both fall on distinct banks, with no padding, because w is XORed with j / 2 (modulo 32). 8-byte
// words are served a half-warp at a time, and the XOR keeps them distinct modulo 16 there too.
__device__ __forceinline__ int swizzled_word(int j, int w) { return w ^ ((j >> 1) & 31); }

}  // namespace ort::cuda
