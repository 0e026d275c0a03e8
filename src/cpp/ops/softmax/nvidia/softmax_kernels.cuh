#pragma once
// softmax kernels. All math is fp32; exp(v - m) is computed as exp2((v - m) * log2e): the subtraction
// comes first because it is exact for the values that matter (those near the max). Scaling by log2e
// first (exp2(v * log2e - m * log2e)) rounds v * log2e, an error of |v| * 2^-24 in the exponent: at
// |v| ~ 9000 that is 5e-4 relative in the result, which the large-magnitude test caught on the H200.
//   registers: the row fits in the registers of TPR threads: HBM is read once and written once.
//   online:    a row too long for registers: one pass keeps a running (max, sum) per thread, the
//              second pass re-reads the row (mostly from L2) and writes. 16-bit packs stay raw until
//              their exps (add_packs), 4 a step at up to 512 threads (online_packs).
//   online_held: 16-bit rows of one such step keep it in registers between the two reductions.
//   short_rows: rows of at most 128 elements, a warp a row, a lane per 32nd element.
//   strided:   any layout: one thread per row, the same two passes.
#include <cstdint>
#include <type_traits>

#include "core/cuda_launch.cuh"
#include "core/cuda_math.cuh"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "ops/softmax/softmax.h"

namespace ort::softmax_kernels {

using reduce_sum_kernels::row_offsets;

__device__ __forceinline__ float exp_of_difference(float v, float m) { return cuda::fast_exp2((v - m) * cuda::kLog2e); }

// Running (max, sum of exp(v - max)); merging rescales the smaller-max side. 8-byte aligned: the cluster kernels
// send a pair as one 8-byte st.async into a shared array of them, and st.async.b64 needs an aligned address
// (with 4-byte alignment the arrays landed aligned only because of how the compiler placed them).
struct alignas(8) Online {
  float m = -INFINITY;
  float s = 0.f;
  __device__ __forceinline__ void add(float v) {
    if (v > m) {
      s = s * exp_of_difference(m, v) + 1.f;
      m = v;
    } else if (!(v == -INFINITY)) {  // -inf adds 0 (and must not meet m == -inf: exp(nan)); NaN adds NaN
      s += exp_of_difference(v, m);
    }
  }
};

// A sum is 0 only where its max is -inf (a finite max adds exp(0) = 1): that sum stays 0, where
// exp(-inf - -inf) would make it NaN. A NaN sum stays NaN, including one whose max is -inf (a NaN among
// -inf values, which fmaxf skips): testing `m == -inf` instead dropped it and returned finite outputs.
__device__ __forceinline__ float rescale(float s, float m, float m_new) {
  return s == 0.f ? 0.f : s * exp_of_difference(m, m_new);
}

// Adds N values to a running (max, sum) with one comparison for all of them: the chunk's max first, one
// rescale if it is larger, then N exps. Online::add per value compared and branched N times; ncu showed
// the online kernel issuing in 76 % of cycles at 4096x16384 fp16, with 1.8x the instructions of Liger's.
// NaN: fmaxf skips it, so it reaches the sum through its exp (NaN) unless the max is still -inf, where
// every output is NaN anyway (exp(v - -inf) is NaN or inf times a zero sum).
// Raises a running max to a chunk's max `cm` (one rescale of the sum) and returns what the chunk's exps are
// taken against: while the max is -inf every value is -inf or NaN, and exps against 0 give 0, or NaN for the NaN.
__device__ __forceinline__ float raise_max(Online& acc, float cm) {
  if (cm > acc.m) {
    acc.s = rescale(acc.s, acc.m, cm);
    acc.m = cm;
  }
  return acc.m == -INFINITY ? 0.f : acc.m;
}

template <int N>
__device__ __forceinline__ void add_chunk(Online& acc, const float (&f)[N]) {
  float cm = f[0];
#pragma unroll
  for (int k = 1; k < N; ++k) cm = fmaxf(cm, f[k]);
  const float base = raise_max(acc, cm);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < N; ++k) s += exp_of_difference(f[k], base);
  acc.s += s;
}

// The part of a row one thread holds in registers: NP packs of VEC values, pack p at element p * TPR * VEC
// from the thread's first pack. `valid` counts the row's elements from that first pack on (<= 0 when the
// thread holds none); packs past it are masked. One 32-bit count and pointers to the first pack are all
// the bookkeeping: with 64-bit row offsets and indices per pack (the session-2 version) the kernels
// needed 40-51 registers and spilled when asked to fit 32.
// FULL: the row fills every pack (length == TPR * NP * VEC), so no pack is masked; threads past the last
// row load the last row again and store nothing. TileLang's kernel of the same shape (32 threads x 9 packs
// for 2304 halves) ran in 4.4 us where ours took 7.5, with no mask branches (session 9); without the mask
// ours took 4.98 against 7.35 (sweep, session 10). Read-only loads (ld.global.nc), all exps before their
// sum (TileLang's order) and evict-first stores were timed too and gained nothing (within 1 %); they stay
// readable in the sweep of commit 2e8232f and on branch next/softmax-stream-stores.
template <class T, int VEC, int TPR, int NP, bool FULL = false>
struct RowSlice {
  static constexpr int kStride = TPR * VEC;
  float v[NP][VEC];
  int valid;

  __device__ __forceinline__ bool holds(int p) const {
    if constexpr (FULL) return true;
    else return p * kStride < valid;
  }

  // Loads the slice (all NP loads are issued before any value is converted) and returns its max.
  __device__ __forceinline__ float load(const T* first) {
    cuda::Pack<T, VEC> raw[NP];
#pragma unroll
    for (int p = 0; p < NP; ++p)
      if (holds(p)) raw[p] = cuda::load_pack<T, VEC>(first + p * kStride);
    float m = -INFINITY;
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p)) {
        cuda::unpack(raw[p], v[p]);
#pragma unroll
        for (int k = 0; k < VEC; ++k) m = fmaxf(m, v[p][k]);
      }
    }
    return m;
  }

  // v <- exp(v - m); returns the slice's sum.
  __device__ __forceinline__ float exp_sum(float m) {
    float s = 0.f;
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p)) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) {
          v[p][k] = exp_of_difference(v[p][k], m);
          s += v[p][k];
        }
      }
    }
    return s;
  }

  __device__ __forceinline__ void store(T* first, float inv) {
    if (FULL && valid <= 0) return;
#pragma unroll
    for (int p = 0; p < NP; ++p) {
      if (holds(p)) {
#pragma unroll
        for (int k = 0; k < VEC; ++k) v[p][k] *= inv;
        cuda::store_f32<T, VEC>(first + p * kStride, v[p]);
      }
    }
  }
};

// Blocks per SM that the launch bounds ask for. Left alone, ptxas gave the 16-value kernels 38-42
// registers, so at most 75 % of the warp slots could be used; ncu on the H200 showed the 32768x4096 bf16
// kernel issuing in 70 % of cycles at 72 % occupancy, where Liger's (32 registers) ran at 94 %. Threads
// that hold up to 16 values now fit in 32 registers, every warp slot. Threads holding 32 values are left
// alone (47-48 registers for halves): capped at 40 or 64, the fp32 (512, 8) kernel spilled 84-284 bytes,
// so the table no longer uses 32 fp32 values a thread.
template <int BLOCK, int VALUES>
__host__ __device__ constexpr int min_blocks() {
  return VALUES <= 16 && BLOCK <= 2048 ? (BLOCK < 64 ? 32 : 2048 / BLOCK) : 1;  // an SM holds <= 32 blocks
}

// Threads per block of the registers kernel: whole rows of TPR threads, about 256 of them. TPR is a power
// of two up to 32 or a multiple of 32 (group_reduce): 96 threads hold 2304 halves as 3 packs each, where
// the power-of-two groups either side leave a quarter of the packs masked or ask 72 values a thread.
template <int TPR>
__host__ __device__ constexpr int registers_block() {
  static_assert(TPR <= 32 ? (TPR & (TPR - 1)) == 0 : TPR % 32 == 0 && TPR <= 1024, "TPR: 2^k <= 32 or 32k <= 1024");
  return TPR < 256 ? 256 / TPR * TPR : TPR;
}

// BLOCK: threads per block, a multiple of TPR (the sweep also times one row a block).
template <class T, int VEC, int TPR, int NP, int BLOCK = registers_block<TPR>(), bool FULL = false>
__global__ void __launch_bounds__(BLOCK, (min_blocks<BLOCK, NP * VEC>())) registers(T* out, const T* x, RowsOfDim r,
                                                                                    cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  static_assert(BLOCK % TPR == 0, "a block holds whole rows");
  constexpr int kBlock = BLOCK;
  __shared__ float smem[TPR > 32 ? 32 * (kBlock / TPR) : 1];  // groups of <= 32 reduce by shuffles only
  const int64_t row = int64_t(blockIdx.x) * (kBlock / TPR) + threadIdx.x / TPR;
  const int first = int(threadIdx.x % TPR) * VEC;
  int64_t out_off = 0, x_off = 0;
  RowSlice<T, VEC, TPR, NP, FULL> slice;
  slice.valid = 0;
  if constexpr (FULL) {
    row_offsets<uint32_t>(r.outer, row < r.rows ? row : r.rows - 1, &out_off, &x_off);
    slice.valid = row < r.rows ? int(r.length) - first : 0;
  } else if (row < r.rows) {
    row_offsets<uint32_t>(r.outer, row, &out_off, &x_off);
    slice.valid = int(r.length) - first;  // registers rows are table rows: at most 16384 long
  }
  const float m = cuda::group_reduce<TPR>(slice.load(x + x_off + first), cuda::MaxOp{}, smem);
  const float s = cuda::group_reduce<TPR>(slice.exp_sum(m), cuda::SumOp{}, smem);
  slice.store(out + out_off + first, 1.f / s);
}

// The streaming passes below: packs a thread loads per step, all loaded before any is used (see
// cuda::load_pack). 16 values a step (4 packs of fp32, 2 of halves) is what 32 registers hold as fp32; the
// online kernel's 16-bit rows at up to 512 threads take 4 packs a step (online_packs).
template <class T, int VEC>
__host__ __device__ constexpr int default_stream_packs() {
  return VEC >= 16 ? 1 : 16 / VEC;
}

// 16-bit packs stay raw until their exps: the max of a step is taken on the raw pairs (cuda::packed_max)
// and each pack is widened only for its own exps, so a step holds 4 registers a pack instead of 8.
template <class T, int VEC>
__host__ __device__ constexpr bool raw_packs() {
  return sizeof(T) == 2 && VEC % 2 == 0;
}

// 4 packs a step (32 values, 64 bytes in flight a thread) for the online kernel's 16-bit rows at 512
// threads: 4096x16384 69.6 -> 67.2 us (fp16) and 70.0 -> 68.1 (bf16), twice each in run cb (H200). Not for
// cluster_online, which takes its packs a step as a template parameter: there it lost (1024x65536 82.0 ->
// 90.6 us, 256x262144 88.9 -> 98.2; session 17, before its exchange by st.async), its CTAs running three to
// an SM instead of four (40 registers, below). At 1024 threads 40 registers leave one block an SM.
template <class T, int VEC, int TPR>
__host__ __device__ constexpr int online_packs() {
  return raw_packs<T, VEC>() && TPR <= 512 ? 4 : default_stream_packs<T, VEC>();
}

// Blocks an SM that the streaming kernels' launch bounds ask for: 32 registers a thread (every warp slot)
// for 16 values a step; 32 values a step spilled 156-188 bytes at 32 registers and fit in 40.
template <int TPR, int VALUES>
__host__ __device__ constexpr int stream_min_blocks() {
  static_assert(VALUES <= 16 || TPR <= 512, "40 registers a thread leave one block of more than 512 an SM");
  return VALUES > 16 ? 1536 / TPR : min_blocks<TPR, 16>();
}

// Adds PACKS loaded packs to a running (max, sum), in add_chunk's order (the max, one rescale, the exps). 16-bit
// packs stay raw: the max is taken on the raw pairs and each pack's exps are summed as a tree (3 dependent adds,
// not 8). Other packs are widened whole and go through add_chunk. The one place that picks between the two, for
// the streaming passes and the cluster kernels' staged loop alike.
template <class T, int VEC, int PACKS>
__device__ __forceinline__ void add_packs(Online& acc, const cuda::Pack<T, VEC> (&raw)[PACKS]) {
  if constexpr (raw_packs<T, VEC>()) {
    const float base = raise_max(acc, cuda::packed_max(raw));
    float s = 0.f;
#pragma unroll
    for (int u = 0; u < PACKS; ++u) {
      float f[VEC];
      cuda::unpack_words(raw[u], f);
#pragma unroll
      for (int k = 0; k < VEC; ++k) f[k] = exp_of_difference(f[k], base);
#pragma unroll
      for (int half = VEC / 2; half >= 1; half /= 2)
#pragma unroll
        for (int k = 0; k < half; ++k) f[k] += f[k + half];
      s += f[0];
    }
    acc.s += s;
  } else {
    float f[PACKS * VEC];
#pragma unroll
    for (int u = 0; u < PACKS; ++u) cuda::unpack(raw[u], *reinterpret_cast<float(*)[VEC]>(f + u * VEC));
    add_chunk(acc, f);
  }
}

// The two streaming passes over a stretch of `len` elements that TPR threads share (thread t takes the
// packs at t * VEC + k * TPR * VEC), written once for the online kernel (a whole row, 64-bit indices) and
// cluster_online (one CTA's chunk of a row, 32-bit indices: 64-bit ones cost the registers that made it
// spill at 32). PACKS packs a thread a step.
template <class T, int VEC, int TPR, int PACKS, class Index>
__device__ __forceinline__ Online stream_statistics(const T* px, Index len) {
  constexpr int kStep = TPR * VEC;
  Online acc;
  Index i = Index(threadIdx.x) * VEC;
  for (; i + (PACKS - 1) * kStep < len; i += PACKS * kStep) {
    cuda::Pack<T, VEC> raw[PACKS];
#pragma unroll
    for (int u = 0; u < PACKS; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
    add_packs(acc, raw);
  }
  for (; i < len; i += kStep) {
    float f[VEC];
    cuda::load_f32<T, VEC>(px + i, f);
    add_chunk(acc, f);
  }
  return acc;
}

// out = exp(v - m) * inv for one pack of v: the last step of stream_write and of HeldPacks. WORDS widens bf16 a word
// at a time (cuda::unpack_words): cluster_smem_held's bf16 body issued 7 % more instructions than its fp16 twin under
// ncu (run ht); online_held's bf16 body spills 8 bytes with it at 40 registers, so it is the held kernel's only.
template <class T, int VEC, bool WORDS = false>
__device__ __forceinline__ void write_pack(T* p, const cuda::Pack<T, VEC>& pk, float m, float inv) {
  float f[VEC];
  if constexpr (WORDS) cuda::unpack_words(pk, f);
  else cuda::unpack(pk, f);
#pragma unroll
  for (int k = 0; k < VEC; ++k) f[k] = exp_of_difference(f[k], m) * inv;
  cuda::store_f32<T, VEC>(p, f);
}

// Second pass: out = exp(x - m) * inv over the same stretch.
template <class T, int VEC, int TPR, int PACKS, class Index>
__device__ __forceinline__ void stream_write(T* po, const T* px, Index len, float m, float inv) {
  constexpr int kStep = TPR * VEC;
  auto write = [&](const cuda::Pack<T, VEC>& pk, Index at) { write_pack(po + at, pk, m, inv); };
  Index i = Index(threadIdx.x) * VEC;
  for (; i + (PACKS - 1) * kStep < len; i += PACKS * kStep) {
    cuda::Pack<T, VEC> raw[PACKS];
#pragma unroll
    for (int u = 0; u < PACKS; ++u) raw[u] = cuda::load_pack<T, VEC>(px + i + u * kStep);
#pragma unroll
    for (int u = 0; u < PACKS; ++u) write(raw[u], i + u * kStep);
  }
  for (; i < len; i += kStep) write(cuda::load_pack<T, VEC>(px + i), i);
}

template <class T, int VEC, int TPR, int PACKS = online_packs<T, VEC, TPR>()>
__global__ void __launch_bounds__(TPR, (stream_min_blocks<TPR, PACKS * VEC>()))
    online(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  __shared__ float smem[32];
  int64_t out_off, x_off;
  row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  const Online acc = stream_statistics<T, VEC, TPR, PACKS>(x + x_off, r.length);
  const float m = cuda::group_reduce<TPR>(acc.m, cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<TPR>(rescale(acc.s, acc.m, m), cuda::SumOp{}, smem);
  stream_write<T, VEC, TPR, PACKS>(out + out_off, x + x_off, r.length, m, inv);
}

// The 16-bit counterpart of RowSlice for rows of one streaming step: PACKS raw packs a thread, the max taken on
// the raw pairs and each pair widened only for its exps (a pack's eight floats live at once made the bf16 body
// spill 4-20 bytes at 40 registers). Packs past `valid` hold -inf, which moves no max and adds exp(-inf) = 0.
template <class T, int VEC, int TPR, int PACKS>
struct HeldPacks {
  static_assert(raw_packs<T, VEC>(), "16-bit packs");
  static constexpr int kStride = TPR * VEC;
  cuda::Pack<T, VEC> raw[PACKS];
  int valid;

  // Loads every pack (all loads issued before any is used) and returns the thread's max.
  __device__ __forceinline__ float load(const T* first) {
    const uint32_t neg_inf = std::is_same_v<T, half_t> ? 0xfc00fc00u : 0xff80ff80u;
    const uint4 filler{neg_inf, neg_inf, neg_inf, neg_inf};
#pragma unroll
    for (int u = 0; u < PACKS; ++u) {
      if (u * kStride < valid) raw[u] = cuda::load_pack<T, VEC>(first + u * kStride);
      else memcpy(&raw[u], &filler, sizeof filler);
    }
    return cuda::packed_max(raw);
  }

  // The sum of exp(v - m), a pair at a time.
  __device__ __forceinline__ float exp_sum(float m) const {
    float s = 0.f;
#pragma unroll
    for (int u = 0; u < PACKS; ++u) {
      uint32_t w[VEC / 2];
      memcpy(w, &raw[u], sizeof w);
#pragma unroll
      for (int k = 0; k < VEC / 2; ++k)
        s += exp_of_difference(cuda::widen_half<T, 0>(w[k]), m) + exp_of_difference(cuda::widen_half<T, 1>(w[k]), m);
    }
    return s;
  }

  // out = exp(v - m) * inv for the packs this thread holds.
  __device__ __forceinline__ void store(T* first, float m, float inv) const {
#pragma unroll
    for (int u = 0; u < PACKS; ++u) {
      if (u * kStride < valid) write_pack(first + u * kStride, raw[u], m, inv);
    }
  }
};

// online_held: 16-bit rows of at most one step of the online kernel (TPR x PACKS packs: 16384 halves at 512 x 4)
// keep their raw packs in registers between the passes, so the row is read from HBM once and never again from
// L2, and the max is the row's before any exp (no running max). The registers kernel holds rows too, but as
// fp32 (32 values a thread, one block of 512 an SM: 74.8 us at 4096x16384 bf16 in run cf's sweep against
// online's 68.4); raw packs are 16 registers, and the launch bounds keep online's three blocks an SM.
// Session 19 (H200, twice in each run): 4096x16384 fp16 69.2 -> 66.8 us, bf16 69.9 -> 66.8-67.1 (run cl, exactly
// 16384, switch); masked as here, 66.2-66.3 and 66.5-66.7 (run cm): 4.05 / 4.03 TB/s.
// Since session 41 rows of up to 12288 run it as 384 x 4 (softmax_cuda.cu's kHeldShortThreads says why).
// sm_80's bf16 body spills 8 bytes at 40 registers and is not built; create() sends those rows to `online`.
template <class T>
__host__ __device__ constexpr bool held_is_built(int arch) {
  return std::is_same_v<T, half_t> || arch >= 900;
}

template <class T, int VEC, int TPR, int PACKS = online_packs<T, VEC, TPR>()>
__global__ void __launch_bounds__(TPR, (stream_min_blocks<TPR, PACKS * VEC>()))
    online_held(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
#if defined(__CUDA_ARCH__)
  if constexpr (held_is_built<T>(__CUDA_ARCH__)) {
    __shared__ float smem[32];
    const int first = int(threadIdx.x) * VEC;
    int64_t out_off, x_off;
    row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
    HeldPacks<T, VEC, TPR, PACKS> held;
    held.valid = int(r.length) - first;
    // A row of -inf, or one with NaN or +inf, gets NaN everywhere, as from the online kernel.
    const float m = cuda::group_reduce<TPR>(held.load(x + x_off + first), cuda::MaxOp{}, smem);
    const float inv = 1.f / cuda::group_reduce<TPR>(held.exp_sum(m), cuda::SumOp{}, smem);
    held.store(out + out_off + first, m, inv);
  } else {
    __trap();  // never launched (create() checks the arch)
  }
#endif
}

// Unit-stride rows of at most 32 * PER_LANE elements whose outer dims coalesce into one (a row stride), a warp a
// row, 8 rows a block: lane l holds elements l, l + 32, ... (masked ones as -inf, whose exps are 0), the max and
// the sum by shuffles, one division a row. reduce_sum's short_rows with the exps and a store, and the shape of our
// TileLang kernel (tilelang/softmax.py, softmax_short_rows_program), which ran 4096x128 in 2.24 / 1.41 / 1.41 us
// (fp32 / fp16 / bf16) against the registers kernel's 2.36 / 1.66 / 1.63 (16 threads a row, 16-byte packs; run
// dt). It wins only while the grid is small: tests/bench/sweeps/softmax_short_rows.cu (H200, run ea) timed it 2-6 %
// under registers at 4096 rows of 32-128 and, from 32768 rows, 1.2-4.2x over it (fp32 rows of 128 tied), where one
// 2- or 4-byte load a lane cannot carry the bandwidth that 16-byte packs do; create() keeps it to half a wave.
// Index is int where every offset fits in 32 bits (reduce_sum's short_rows says why). A row of -inf, or one with
// NaN or +inf, gets NaN everywhere, as from the other kernels.
template <class T, int PER_LANE, class Index>
__global__ void __launch_bounds__(256) short_rows(T* out, const T* x, Index rows, int length, Index x_row_stride,
                                                  Index out_row_stride, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const reduce_sum_kernels::ShortRowWarp<T, PER_LANE, Index> w;
  float v[PER_LANE];
  w.load(x, rows, length, x_row_stride, -INFINITY, v);  // -inf: a masked element's exp is 0
  float m = v[0];
#pragma unroll
  for (int k = 1; k < PER_LANE; ++k) m = fmaxf(m, v[k]);
  m = cuda::MaxOp{}.warp<32>(m);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < PER_LANE; ++k) {
    v[k] = exp_of_difference(v[k], m);
    s += v[k];
  }
  const float inv = 1.f / cuda::SumOp{}.warp<32>(s);
  T* o = out + w.row * out_row_stride;
#pragma unroll
  for (int k = 0; k < PER_LANE; ++k)
    if (w.holds(rows, length, k)) o[w.lane + 32 * k] = from_float<T>(v[k] * inv);
}

template <class T>
__global__ void __launch_bounds__(256) strided(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  cuda::pdl_prologue(trigger);
  const int64_t row = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= r.rows) return;
  int64_t out_off, x_off;
  row_offsets(r.outer, row, &out_off, &x_off);
  Online acc;
  for (int64_t k = 0; k < r.length; ++k) acc.add(to_float(x[x_off + k * r.x_stride]));
  const float inv = 1.f / acc.s;
  for (int64_t k = 0; k < r.length; ++k)
    out[out_off + k * r.out_stride] =
        from_float<T>(exp_of_difference(to_float(x[x_off + k * r.x_stride]), acc.m) * inv);
}

}  // namespace ort::softmax_kernels
