// softmax on the nvidia backend. create() picks, from the row length, dtype and layout:
//   unit-stride rows of <= 128 whose outer dims  -> `short_rows`: a warp a row, a lane per 32nd element
//   coalesce into one, in at most half a wave       (tests/bench/sweeps/softmax_short_rows.cu says why)
//   unit-stride rows listed in the registers table -> `registers` with that (threads per row, packs per
//                                                    thread): the row is read from HBM once
//   16-bit rows of 32769-917504 and fp32 rows of   -> `cluster_smem_held`: the row split evenly across a cluster
//   16385-458752 on Hopper                            of 2, 4, 8 or 16 CTAs that hold it in shared memory
//                                                    (softmax_smem_held_table.cuh)
//   fp32 rows of 16385-262144 on a Hopper where    -> `cluster_registers`: the row split across a cluster
//   cluster_smem_held does not fit                    whose CTAs hold it in registers (cluster table)
//   rows of 65536-262144 (fp32: -131072) on a      -> `cluster_online`: the row split across a cluster of
//   Hopper where the cluster kernels above do not     rows' bytes / 32 KB CTAs that each stream their
//   fit (on the H200 they all do, so none comes        chunk twice and trade (max, sum) by st.async
//   here since session 30)                            (softmax_cluster.cuh)
//   16-bit rows of 8193-16384                      -> `online_held`: 384 (rows of up to 12288) or 512 threads
//                                                    hold the row as 4 raw packs each (sm_80: fp16 only)
//   longer unit-stride rows                        -> `online` (two reads, the second mostly from L2)
//   any other layout                               -> `strided`
// The tables were measured, not derived: tests/bench/sweeps/softmax_configs.cu times every candidate on
// the benchmark shapes (H200 results: docs/runs/softmax-configs-h200-2026-11-30.csv).
#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "core/cuda_common.cuh"
#include "core/dispatch.h"
#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"
#include "ops/softmax/nvidia/softmax_cuda.h"
#include "ops/softmax/nvidia/softmax_cluster.cuh"
#include "ops/softmax/nvidia/softmax_kernels.cuh"
#include "ops/softmax/nvidia/softmax_smem_held_table.cuh"
#include "ops/softmax/softmax.h"

namespace ort {

enum class SoftmaxPath { Empty, Short, Registers, ClusterRegisters, ClusterSmemHeld, Cluster, Online, Strided };

struct SoftmaxCudaDescriptor {
  SoftmaxInfo info;
  SoftmaxPath path = SoftmaxPath::Empty;
  bool packs_aligned = false;  // lengths and row strides allow 16-byte packs if the pointers do
  int wide = -1, narrow = -1;  // registers-table entries for 16-byte packs and for single elements
  bool wide_full = false;      // the row fills every pack of entry `wide`: no mask in the kernel
  int online_threads = 1024;   // threads per row of the online kernel with 16-byte packs
  int held_threads = 0;        // online_held's threads a row (16-bit rows of one step); 0: not held
  int cluster = 0;             // CTAs per row of cluster_online (Cluster path)
  int smem_shape = -1;         // cluster_smem_held's kernel, an index in kSmemHeldShapes<vec> (ClusterSmemHeld path)
  int split = -1;              // cluster_registers table entry (ClusterRegisters path)
  bool split_full = false;     // the row fills every pack of entry `split`
  int device_id = 0;
  bool pdl = false;            // programmatic dependent launch (core/cuda_launch.cuh)
  int64_t thread_slots = 0;    // short_rows: its half-a-wave bound and its PDL trigger by waves
  ShortRowsPlan short_rows;
};

namespace {

// Rows up to max_length elements run the registers kernel with TPR threads per row and NP packs of VEC
// elements per thread. On the H200 the winners hold about 64 bytes of input per thread: 16 fp32 values
// or 32 half values, with as few threads per row as that allows (fewer threads, cheaper reductions).
struct RowConfig {
  int64_t max_length;
  int tpr, np;
  int cluster = 1;  // CTAs a row (the cluster_registers table)
  int block = 0;    // threads a block of the registers kernel; 0: registers_block<tpr>(), about 256
};

template <int VEC>
constexpr auto registers_table() {
  if constexpr (VEC == 4) {  // 16-byte packs of float32
    // Session 10: rows of 3073-4096 as 512 x 2 (was 256 x 4): 32768x4096 258.6 against 263.0 us,
    // 4096x4096 a tie at 34.9 (sweep run as, cold rows); bench run at: 32768x4096 262.7 -> 256.7 us. Rows
    // of 2049-3072 keep 256 x 4: at 2304, 512 x 2 leaves 224 of 512 threads idle and took 7.75 us against
    // 6.85 (sweep run aq; 7.73 against 6.78 in the benches of runs au and ar). Between 2304 and 4096 the
    // two were not timed; 3072 is where 256 threads stop needing a fourth pack.
    // Session 28: rows of one or two packs take as many threads (rows of 4 and 8 had four threads, two or three
    // of them idle): TileLang's packed short-row softmax, a pack a thread, ran 262144x8 fp32 in 5.46 us against
    // this table's 6.99 (run ek, same call).
    return std::array<RowConfig, 14>{{{4, 1, 1}, {8, 2, 1}, {16, 4, 1}, {32, 8, 1}, {64, 16, 1}, {128, 16, 2},
                                      {256, 16, 4}, {512, 32, 4}, {1024, 64, 4}, {2048, 128, 4}, {3072, 256, 4},
                                      {4096, 512, 2}, {8192, 512, 4}, {16384, 1024, 4}}};
  } else if constexpr (VEC == 8) {  // 16-byte packs of float16/bfloat16; beyond 8192, online measured faster
    // Session 3 (launch bounds for 32 registers) moved 512, 4096 and 8192 to 16 values a thread: bf16
    // 8192x512 6.39 vs 6.59 µs, 32768x4096 131.5 vs 145.0, 4096x8192 34.5 vs online's 37.2.
    // Session 9: 1536 halves (192 packs) as 64 x 3, no masked pack: 8.60 us against 64 x 4's 8.97 (bf16,
    // 4080 rows; sweep run 4 and the bench before it).
    // Session 14: rows of 1024 halves in blocks of 512 threads (was 256). With programmatic dependent launch
    // the sweep timed 5.61 us against 5.96 (4096x1024 bf16, run bh; before PDL the 512 block lost, 6.37
    // against 6.30, run be); the bench then ran 5.42 (fp16) and 5.45 (bf16) against 5.87-5.90 (run bm;
    // Liger 5.53-5.64 in run bl).
    // Session 28: rows of one or two packs as many threads (were four): TileLang's packed short-row softmax ran
    // 262144x8 halves in 3.25 us against this table's 7.2-7.4 (run ek, same call).
    // Session 40: rows of exactly 4096 as 192 x 3, a row a block of 192 (was 256 x 2), the shape the sweep timed
    // fastest at 32768x4096 bf16 (130.9 / 131.1 us against 131.9, run gq). Runs gr and gs (A B A B in one call): the
    // bench's 32768x4096 fp16 / bf16 130.97 / 130.10 -> 130.23 / 129.16 us (4.10 / 4.13 -> 4.12 / 4.16 TB/s),
    // 4096x4096 0.2-0.5 % faster, 8192x4096 0.3-1.9 %. Shorter rows lost with it over 8192 rows: 1.0-1.6 % at 3200,
    // 0.1-1.0 % at 3584-4000 (192 threads' third packs partly empty), so 3585-4095 keep 256 x 2.
    return std::array<RowConfig, 13>{{{8, 1, 1}, {16, 2, 1}, {32, 4, 1}, {64, 8, 1}, {128, 16, 1}, {256, 16, 2},
                                      {512, 32, 2}, {1024, 32, 4, 1, 512}, {1536, 64, 3}, {2048, 64, 4},
                                      {4095, 256, 2}, {4096, 192, 3}, {8192, 512, 2}}};
  } else {  // single elements: rows whose pointers or strides do not allow packs
    return std::array<RowConfig, 9>{{{32, 32, 1}, {64, 32, 2}, {128, 32, 4}, {256, 32, 8}, {512, 256, 2},
                                     {1024, 256, 4}, {2048, 256, 8}, {4096, 1024, 4}, {8192, 1024, 8}}};
  }
}

// A table edit that cannot hold its rows, is out of order, or asks more than 32 values of a thread (or more
// than 16 CTAs of a cluster) fails to compile instead of writing past a row or spilling.
template <int VEC, size_t N>
constexpr bool table_is_sound(const std::array<RowConfig, N>& table) {
  for (size_t i = 0; i < N; ++i) {
    const RowConfig& c = table[i];
    if (int64_t(c.cluster) * c.tpr * c.np * VEC < c.max_length || c.np * VEC > 32 || c.cluster > 16) return false;
    if (i > 0 && table[i - 1].max_length >= c.max_length) return false;
    if (c.block != 0 && (c.block % c.tpr != 0 || c.block > 1024)) return false;  // whole rows in a block
  }
  return true;
}
static_assert(table_is_sound<4>(registers_table<4>()) && table_is_sound<8>(registers_table<8>()) &&
                  table_is_sound<1>(registers_table<1>()),
              "softmax registers table: each entry must hold max_length values, ascending, <= 32 per thread");

// The first entry whose rows are at least `length` long, or -1.
template <size_t N>
int pick_entry(const std::array<RowConfig, N>& table, int64_t length) {
  for (size_t i = 0; i < N; ++i)
    if (length <= table[i].max_length) return int(i);
  return -1;
}

// Online threads per row, measured the same way. For 16-bit rows longer than 8192 the online kernel beat
// every registers configuration (its second read comes mostly from L2); on Hopper, cluster_online beats it
// from 65536 and the cluster kernels for fp32 rows from 16385 where they are dispatched (below).
// Fewer threads for shorter rows keep more rows resident per SM. (Rows of 8192 or less reach it only with
// misaligned pointers.)
int pick_online_threads(int64_t length, int vec) {
  if (vec == 8 && length <= 8192) return 256;
  if (vec == 8 && length <= 16384) return 512;
  if (vec == 8 && length > 65536) return 512;
  return 1024;
}

// `full`: the row fills every pack of the entry (length == TPR * NP * VEC: the powers of two up to 2048,
// and 1536 halves), so the kernel drops the per-pack mask (FULL). Session 10's sweep, cold rows:
// 4096x1024 bf16 6.51 -> 6.28 us, 4096x128 bf16 2.67 -> 2.62, 4080x1536 bf16 8.52 -> 8.41; with 32 x 9
// packs at 2304 halves the mask had cost a third (7.35 against 4.98). Single-element rows keep the mask:
// another 27 kernels to build for rows that are misaligned anyway. Groups of 256 threads or more keep it
// too: for fp32 the unmasked body spills 4 bytes under the 32-register bound (ptxas, sm_80 and sm_90), and
// for 16-bit rows of 4096 (256 x 2) it lost, 18.71 against 18.60 us at 4096x4096 bf16 (sweep, run as).
constexpr bool has_unmasked_body(int vec, int tpr) {
  return vec > 1 && tpr <= 128;
}

template <class T, int VEC, int TPR, int NP, int BLOCK>
void launch_registers(bool full, const RowsOfDim& r, T* out, const T* x, cuda::Stream st) {
  constexpr int kBlock = BLOCK > 0 ? BLOCK : softmax_kernels::registers_block<TPR>();
  const auto blocks = unsigned(ceil_div(r.rows, kBlock / TPR));
  if constexpr (has_unmasked_body(VEC, TPR)) {
    if (full) {
      cuda::launch(softmax_kernels::registers<T, VEC, TPR, NP, kBlock, true>, blocks, kBlock, st, out, x, r);
      return;
    }
  }
  cuda::launch(softmax_kernels::registers<T, VEC, TPR, NP, kBlock>, blocks, kBlock, st, out, x, r);
}

// Instantiates exactly the table's entries and launches entry `e`.
template <class T, int VEC, size_t... I>
void dispatch_registers(int e, bool full, const RowsOfDim& r, T* out, const T* x, cuda::Stream st,
                        std::index_sequence<I...>) {
  constexpr auto table = registers_table<VEC>();
  ((e == int(I) ? launch_registers<T, VEC, table[I].tpr, table[I].np, table[I].block>(full, r, out, x, st) : void()),
   ...);
}

template <class T, int VEC>
void dispatch_registers(int e, bool full, const RowsOfDim& r, T* out, const T* x, cuda::Stream st) {
  dispatch_registers<T, VEC>(e, full, r, out, x, st, std::make_index_sequence<registers_table<VEC>().size()>{});
}

template <int VEC>
bool fills_every_pack(int e, int64_t length) {
  if (e < 0) return false;
  const RowConfig c = registers_table<VEC>()[size_t(e)];
  return has_unmasked_body(VEC, c.tpr) && int64_t(c.tpr) * c.np * VEC == length;
}

// cluster_online's shape: CTAs of 512 threads, each streaming 32 KB of the row. The sweep (run k,
// docs/runs/softmax-configs-h200-2026-11-30-k-cluster-online.csv) put the winners there for every long
// row it timed: bf16 65536 in 4 CTAs (3.20 vs online 2.94 TB/s), fp32 65536 in 8 (2.88 vs 2.76), bf16
// 262144 in 16 (2.94 vs 2.59). Rows of 32768 ran faster on the online kernel, and fp32 262144 (32 CTAs of
// 32 KB; 16 of 64 KB measured 2.55 vs 2.70) too, so those stay there. Re-swept in session 18 with the exchange
// by st.async (runs cg, ck; docs/runs/softmax-configs-h200-2026-12-01-*.csv): bf16 65536 in 4 x 512 77.9 us
// (2 x 512: 93.3, 8 x 512: 94.7), 262144 in 16 x 512 82.9 (8 x 512: 93.4, 8 x 1024: 87.6).
constexpr int kClusterThreads = 512;
constexpr int64_t kClusterChunkBytes = 32 << 10;

int pick_cluster(int64_t length, size_t elem_size) {
  if (length < 65536) return 0;
  const int64_t ctas = ceil_div(length * int64_t(elem_size), kClusterChunkBytes);
  int cluster = 4;
  while (cluster < ctas) cluster *= 2;
  return cluster <= 16 ? cluster : 0;
}

using softmax_kernels::cluster_fits;
using softmax_kernels::launch_in_clusters;
using softmax_kernels::SoftmaxKernel;
using softmax_kernels::kSmemHeldThreads;
using softmax_kernels::smem_held_bytes;
using softmax_kernels::smem_held_cluster;
using softmax_kernels::smem_held_kernel;
using softmax_kernels::smem_held_shape;

template <class T>
SoftmaxKernel<T> cluster_online_kernel(int cluster) {
  constexpr int kVec = 16 / sizeof(T);
  if (cluster == 4) return softmax_kernels::cluster_online<T, kVec, kClusterThreads, 4>;
  if (cluster == 8) return softmax_kernels::cluster_online<T, kVec, kClusterThreads, 8>;
  return softmax_kernels::cluster_online<T, kVec, kClusterThreads, 16>;
}

// cluster_registers: fp32 rows past the registers table, split across a cluster whose CTAs hold their part in
// registers (softmax_cluster.cuh). Entry: rows up to max_length in `cluster` CTAs of `tpr` threads x `np`
// packs: 32 values a thread with no register bound won at every length in the sweeps of runs av and aw
// (docs/runs/softmax-configs-h200-2026-11-30-{av,aw}-*.csv): 32768 in 2 x 512 (134.1 us, 4.00 TB/s; 4 x 256
// 137.1-137.9), 65536 in 4 x 512 (139.5-141.2; 8 x 256 141.1-142.4; cluster_online 185.4), 262144 in
// 16 x 512 (156.4-157.7, 3.43 TB/s; online 199.2). 131072 (8 x 512) was not swept. Rows of 16384 stay on
// the registers kernel (1024 x 4: 130.9 against 133.2). 16-bit rows did not gain (65536: 84.2-85.0 against
// cluster_online's 83.3-83.5 us) and stay on cluster_online. Session 12: with the (max, sum) exchange by
// st.async (cluster_combine's ASYNC, the default) the same entries run 65536 in 133.1 us and 262144 in 149.0
// (run bb's sweep, docs/runs/softmax-configs-h200-2026-11-30-bb-st-async.csv); 16-bit rows still lost (85.7).
// Since session 35 this table is reached only where cluster_smem_held does not fit: create() asks the held table
// first, which holds every fp32 row of 16385-458752 in shared memory (runs fw, fx: 28-57 % faster than these
// entries masked, which keep few clusters resident, and 0.4-4.4 % where a row fills their packs).
template <int VEC>
constexpr auto cluster_table() {
  static_assert(VEC == 4, "fp32 rows only");
  return std::array<RowConfig, 4>{{{32768, 512, 8, 2}, {65536, 512, 8, 4}, {131072, 512, 8, 8},
                                    {262144, 512, 8, 16}}};
}
static_assert(table_is_sound<4>(cluster_table<4>()),
              "softmax cluster table: each entry must hold max_length values, ascending, <= 32 a thread, <= 16 CTAs");

// The kernel of entry e (instantiating exactly the table's entries), unmasked where the row fills it.
template <class T, int VEC, size_t... I>
SoftmaxKernel<T> cluster_registers_kernel(int e, bool full, std::index_sequence<I...>) {
  constexpr auto table = cluster_table<VEC>();
  SoftmaxKernel<T> k = nullptr;
  ((e == int(I) ? (k = full ? softmax_kernels::cluster_registers<T, VEC, table[I].tpr, table[I].np,
                                                                 table[I].cluster, true>
                            : softmax_kernels::cluster_registers<T, VEC, table[I].tpr, table[I].np,
                                                                 table[I].cluster, false>)
                : nullptr),
   ...);
  return k;
}

template <class T>
SoftmaxKernel<T> cluster_registers_kernel(int e, bool full) {
  static_assert(sizeof(T) == 4, "fp32 rows only");
  return cluster_registers_kernel<T, 4>(e, full, std::make_index_sequence<cluster_table<4>().size()>{});
}

// online_held: 16-bit rows that one step of 512 threads x 4 packs holds (8193-16384 reach it; shorter aligned
// rows take the registers table). Rows of up to 12288 take 384 x 4 (four blocks an SM, where 512 x 4 runs three):
// at 8200 a thread of 512 holds two valid packs and an SM keeps 1536 x 2 in flight; one of 384 holds about
// three and an SM keeps 1536 x 3. Session 41 (run gv, one build with a switch, twice each): 4096x8200 41.3 -> 35.0
// us fp16 and 43.5 -> 36.5 bf16, 4096x10240 8-10 % faster, 8192x12288 6 %, 4096x12288 fp16 a tie; 512 x 3 fell
// between the two at every length. 256 x 5 and 256 x 6 spill in bf16 at the 40 registers that six blocks allow.
constexpr int kHeldThreads = 512, kHeldShortThreads = 384;
constexpr int64_t kHeldLength = int64_t(kHeldThreads) * softmax_kernels::online_packs<half_t, 8, kHeldThreads>() * 8;
constexpr int64_t kHeldShortLength =
    int64_t(kHeldShortThreads) * softmax_kernels::online_packs<half_t, 8, kHeldShortThreads>() * 8;
static_assert(kHeldShortLength == 12288 && kHeldLength == 16384, "the lengths run gv timed");

template <class T, int VEC>
void launch_online(int threads, const RowsOfDim& r, T* out, const T* x, cuda::Stream st) {
  const unsigned grid = unsigned(r.rows);
  if (threads == 256) cuda::launch(softmax_kernels::online<T, VEC, 256>, grid, 256, st, out, x, r);
  else if (threads == 512) cuda::launch(softmax_kernels::online<T, VEC, 512>, grid, 512, st, out, x, r);
  else cuda::launch(softmax_kernels::online<T, VEC, 1024>, grid, 1024, st, out, x, r);
}

}  // namespace

Status softmax_cuda_create(SoftmaxCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim) {
  auto d = new SoftmaxCudaDescriptor;
  DeviceProps props;
  Status s = SoftmaxInfo::create(out, x, dim, DeviceType::Cuda, &d->info);
  if (s == Status::Success) s = query_device(x->device_id, &props);
  if (s != Status::Success) {
    delete d;
    return s;
  }
  d->device_id = x->device_id;
  d->pdl = props.programmatic_launch;
  d->thread_slots = thread_slots(props);
  const RowsOfDim& r = d->info.r;
  const int vec = 16 / int(dtype_size(d->info.dtype));
  d->packs_aligned = r.length % vec == 0;
  for (int i = 0; i < r.outer.ndim; ++i)
    d->packs_aligned &= r.outer.strides[0][i] % vec == 0 && r.outer.strides[1][i] % vec == 0;
  const bool unit_rows = (r.x_stride == 1 && r.out_stride == 1) || r.length <= 1;
  d->wide = vec == 4 ? pick_entry(registers_table<4>(), r.length) : pick_entry(registers_table<8>(), r.length);
  d->wide_full = vec == 4 ? fills_every_pack<4>(d->wide, r.length) : fills_every_pack<8>(d->wide, r.length);
  d->narrow = pick_entry(registers_table<1>(), r.length);
  d->online_threads = pick_online_threads(r.length, vec);
  const bool held = vec == 8 && d->packs_aligned && d->online_threads == kHeldThreads && r.length <= kHeldLength &&
                    (d->info.dtype == DType::Float16 ? softmax_kernels::held_is_built<half_t>(props.arch)
                                                     : softmax_kernels::held_is_built<bfloat16_t>(props.arch));
  if (held) d->held_threads = r.length <= kHeldShortLength ? kHeldShortThreads : kHeldThreads;
  if (r.rows == 0 || r.length == 0) d->path = SoftmaxPath::Empty;
  // The registers and online kernels find a row's offsets with 32-bit divisions (row_offsets<uint32_t>).
  else if (!unit_rows || r.rows > INT32_MAX) d->path = SoftmaxPath::Strided;
  // short_rows up to half a wave: 2-6 % under registers at 4096 rows (0.48 of the H200's thread slots), tied or
  // 2-27 % over it at 8192, 4-94 % at 16384, up to 4.2x beyond (softmax_short_rows sweep, runs ea and eb).
  else if (fits_short_rows(r) && short_rows_within_half_wave(r.rows, d->thread_slots)) d->path = SoftmaxPath::Short;
  else if ((d->packs_aligned && d->wide >= 0) || (!d->packs_aligned && d->narrow >= 0)) d->path = SoftmaxPath::Registers;
  else d->path = SoftmaxPath::Online;
  if (d->path == SoftmaxPath::Short) d->short_rows = plan_short_rows(r);
  const bool clusters = d->path == SoftmaxPath::Online && d->packs_aligned && props.cluster_launch &&
                        r.rows <= INT32_MAX / 16;
  const int shape = !clusters ? -1 : vec == 8 ? smem_held_shape<8>(r.length) : smem_held_shape<4>(r.length);
  if (shape >= 0) {
    bool fits = false;
    dispatch_float(d->info.dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      fits = cluster_fits<T>(smem_held_kernel<T>(shape), smem_held_cluster<T>(shape), kSmemHeldThreads,
                             smem_held_bytes<T>(shape));
      return Status::Success;
    });
    if (fits) {
      d->path = SoftmaxPath::ClusterSmemHeld;
      d->smem_shape = shape;
    }
  }
  // fp32 rows that cluster_smem_held does not take: cluster_registers where it fits, else cluster_online / online
  if (clusters && vec == 4 && d->path == SoftmaxPath::Online) {
    d->split = pick_entry(cluster_table<4>(), r.length);
    if (d->split >= 0) {
      const RowConfig c = cluster_table<4>()[size_t(d->split)];
      d->split_full = int64_t(c.cluster) * c.tpr * c.np * vec == r.length;
      if (cluster_fits<float>(cluster_registers_kernel<float>(d->split, d->split_full), c.cluster, c.tpr))
        d->path = SoftmaxPath::ClusterRegisters;
    }
  }
  if (d->path == SoftmaxPath::Online && clusters) {
    d->cluster = pick_cluster(r.length, dtype_size(d->info.dtype));
    bool fits = false;
    if (d->cluster > 0)
      dispatch_float(d->info.dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        fits = cluster_fits<T>(cluster_online_kernel<T>(d->cluster), d->cluster, kClusterThreads);
        return Status::Success;
      });
    if (fits) d->path = SoftmaxPath::Cluster;
  }
  *desc = d;
  return Status::Success;
}

Status softmax_cuda_workspace_size(const SoftmaxCudaDescriptor*, size_t* size) {
  *size = 0;
  return Status::Success;
}

Status softmax_cuda_execute(const SoftmaxCudaDescriptor* desc, void*, size_t, void* out, const void* x, void* stream) {
  if (desc->path == SoftmaxPath::Empty) return Status::Success;
  DeviceGuard guard(desc->device_id);
  const cuda::Stream st{static_cast<cudaStream_t>(stream), desc->pdl};
  const bool wide = desc->packs_aligned &&
                    (reinterpret_cast<uintptr_t>(out) | reinterpret_cast<uintptr_t>(x)) % 16 == 0;
  const RowsOfDim& r = desc->info.r;
  const Status s = dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    constexpr int kVec = 16 / sizeof(T);
    T* o = static_cast<T*>(out);
    const T* px = static_cast<const T*>(x);
    if (desc->path == SoftmaxPath::Short) {
      launch_short_rows<T>(desc->short_rows, softmax_kernels::short_rows<T, kShortRowsPerLane, int>,
                           softmax_kernels::short_rows<T, kShortRowsPerLane, int64_t>, o, px, r.rows, int(r.length),
                           cuda::Stream{st.handle, st.pdl, desc->thread_slots});
    } else if (desc->path == SoftmaxPath::Registers && wide) {
      dispatch_registers<T, kVec>(desc->wide, desc->wide_full, r, o, px, st);
    } else if (desc->path == SoftmaxPath::Registers && desc->narrow >= 0) {
      dispatch_registers<T, 1>(desc->narrow, false, r, o, px, st);
    } else if (desc->path == SoftmaxPath::ClusterRegisters && wide) {
      if constexpr (sizeof(T) == 4) {
        const RowConfig c = cluster_table<4>()[size_t(desc->split)];
        const cudaError_t e = launch_in_clusters<T>(cluster_registers_kernel<T>(desc->split, desc->split_full),
                                                    c.cluster, c.tpr, r, o, px, st);
        if (e != cudaSuccess) return cuda_status(e, "softmax");
      }
    } else if (desc->path == SoftmaxPath::ClusterSmemHeld && wide) {
      const int shape = desc->smem_shape;
      const cudaError_t e = launch_in_clusters<T>(smem_held_kernel<T>(shape), smem_held_cluster<T>(shape),
                                                  kSmemHeldThreads, r, o, px, st, smem_held_bytes<T>(shape));
      if (e != cudaSuccess) return cuda_status(e, "softmax");
    } else if (desc->path == SoftmaxPath::Cluster && wide) {
      const cudaError_t e = launch_in_clusters<T>(cluster_online_kernel<T>(desc->cluster), desc->cluster,
                                                  kClusterThreads, r, o, px, st);
      if (e != cudaSuccess) return cuda_status(e, "softmax");
    } else if (desc->path != SoftmaxPath::Strided) {  // online, or registers/cluster rows met with misaligned pointers
      if constexpr (sizeof(T) == 2) {
        if (wide && desc->held_threads == kHeldShortThreads) {
          cuda::launch(softmax_kernels::online_held<T, kVec, kHeldShortThreads>, unsigned(r.rows), kHeldShortThreads,
                       st, o, px, r);
          return Status::Success;
        }
        if (wide && desc->held_threads == kHeldThreads) {
          cuda::launch(softmax_kernels::online_held<T, kVec, kHeldThreads>, unsigned(r.rows), kHeldThreads, st, o,
                       px, r);
          return Status::Success;
        }
      }
      if (wide) launch_online<T, kVec>(desc->online_threads, r, o, px, st);
      else launch_online<T, 1>(1024, r, o, px, st);
    } else {
      cuda::launch(softmax_kernels::strided<T>, unsigned(ceil_div(r.rows, 256)), 256, st, o, px, r);
    }
    return Status::Success;
  });
  if (s != Status::Success) return s;
  return last_launch_status("softmax");
}

Status softmax_cuda_destroy(SoftmaxCudaDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
