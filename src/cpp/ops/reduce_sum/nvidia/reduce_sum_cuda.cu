// reduce_sum on the nvidia backend. create() picks the kernel and the split from the shape:
//   unit-stride rows, length <= 128, outer dims that coalesce into one
//                                     -> packed_rows where the rows are whole 16-byte packs (a pack a thread,
//                                        a row's packs rounded up to a power of two of threads a row) and
//                                        packed_rows_threads finds it faster, else short_rows: a warp per
//                                        row, a lane per 32nd element
//   unit-stride rows of 33-256 16-byte packs, outer dims that coalesce into one, x aligned, where the next
//   line would give a warp a row      -> packed_rows, a warp a row, a lane's 2-8 packs loaded at once
//   unit-stride rows, length <= 4096  -> a warp per row (8 rows per block), but 64 threads per 16-bit row
//                                        of 2049-4096, and up to 128 per fp32 row where rows are too few to
//                                        give each SM a block (row_tpr and grid_tpr in reduce_sum_kernels.cuh)
//   unit-stride rows, longer          -> 512 threads per row
//   any other stride (column sums)    -> a thread per 16-byte pack of outputs (or per output where packs do not
//                                        fit) by 8 row lanes (strided_lanes); reads coalesced across outputs
// and splits rows across blocks when there are too few rows to fill the GPU.
// Where a block takes a row (512 threads, or grid_tpr's 256 for fp32 rows of 4096), unsplit, the outer dims
// coalesce into one, x is aligned and the row is whole batches of 4 packs a thread: whole_batches, the same loads
// in fewer registers. Rows of 480-1024 packs (fp32 1920-4096 elements, 16-bit 3840-4096) whose outer dims coalesce
// and whose packs are aligned: whole_batches at 256 threads a row, its last batch predicated (kBlockRowPacks); rows
// of 288-479 packs too where there are 200-2016 of them (kFewRowPacks).
#include <algorithm>
#include <type_traits>

#include "core/cuda_common.cuh"
#include "core/cuda_launch.cuh"
#include "core/dispatch.h"
#include "ops/reduce_sum/nvidia/reduce_sum_cuda.h"
#include "ops/reduce_sum/nvidia/reduce_sum_kernels.cuh"
#include "ops/reduce_sum/nvidia/short_rows_plan.cuh"
#include "ops/reduce_sum/reduce_sum.h"

namespace ort {

enum class SumPath { Empty, Short, Warp, Block, Strided };

struct ReduceSumCudaDescriptor {
  ReduceSumInfo info;
  SumPath path = SumPath::Empty;
  bool packs_aligned = false;  // lengths and row strides allow 16-byte packs if the pointer does
  int splits = 1;
  int tpr = 32;                // threads per row (unit-stride rows)
  int64_t blocks = 0;          // launch blocks (strided path: when each thread takes one output)
  int64_t blocks_packed = 0;   // ... and when it takes a 16-byte pack of adjacent outputs
  int device_id = 0;
  bool pdl = false;            // programmatic dependent launch (core/cuda_launch.cuh)
  int64_t thread_slots = 0;    // the PDL trigger by grid (core/cuda_launch.cuh)
  bool batch_tail[2] = {false, false};  // contiguous's kBatchTail, for 16-byte packs and for elements
  ShortRowsPlan short_rows;
  int packed_tpr = 0;          // threads a row of packed_rows (0: short_rows; packed_rows_threads)
  ShortRowsPlan packed_rows;
  int lane_packs = 0;          // packed_rows at a warp a row of this many packs a lane (0: contiguous; lane_packs_rows)
  ShortRowsPlan lane_rows;
  bool whole_batches = false;  // Block rows that whole_batches takes (and x aligned, which execute() checks)
  bool batch_rest = false;     // ... with its predicated last batch (rows of kBlockRowPacks or more, below)
};

namespace {

using reduce_sum_kernels::kBlockTpr;
using reduce_sum_kernels::grid_tpr;
using reduce_sum_kernels::floor_pow2;
using reduce_sum_kernels::kRowBlockTpr;

// Unit-stride rows of at most 4096 elements and at least this many 16-byte packs (fp32 1920, 16-bit 3840), outer
// dims coalesced and packs aligned, run a block of 256 a row (whole_batches with its rest): each thread issues its
// 2-4 packs at once, in 32 registers, so 8 rows an SM are resident. The Warp path's 32-128 threads a row made 2-5
// round trips a thread: at 1008x2304 fp32, 64 a row at 2 packs a batch, five (ncu, run jj: 23 % achieved occupancy
// against Inductor's 82 %, a program of 512 a row with every load issued at once). The sweep of rows 144-4080 by
// lengths 1280-4000 (H200, runs jl and jm, docs/runs/reduce-sum-few-rows-sweep-h200-2026-12-04-jm.csv): fp32
// 2304-4000 faster at every row count (1.02-1.69x; 1008x2304 4.58 -> 3.52 us), 16-bit 4000 too (1.29-2.0x); shorter
// rows lost at some row counts (fp32 144x1280 / 144x1536 0.89x, 16-bit 2304-3072 at 144 and 4080 rows 0.69-0.94x,
// 16-bit 1280-1536, where lane_packs already issues every pack at once, 0.44-0.95x), so they keep their kernels.
constexpr int64_t kBlockRowPacks = 480;
// Rows of 288-479 packs (fp32 1152-1916 elements, 16-bit 2304-3832) take that block too where there are 200-2016 of
// them: a block of 256 a row ran faster than the Warp path at 108 of the 114 points inside those bounds, up to 1.93x
// (16-bit 3712 at 264 rows), and lost 2-8 % at six (16-bit 3584 at 528 rows, 8 %; H200, runs jw and jx,
// docs/runs/reduce-sum-few-rows-rule-h200-2026-12-04-jx.csv). Outside them it lost: 144 rows 0.69-0.89x, 16-bit at
// 4080 rows 0.89-0.98x, fp32 rows of 1024 (256 packs) at most row counts. Bench: 1008x2304 fp16 3.45 -> 2.74 us.
constexpr int64_t kFewRowPacks = 288, kFewRowsMin = 200, kFewRowsMax = 2016;

// The library's column kernel: strided_lanes at its lanes and unroll, over 16-byte packs (VEC = 16 / sizeof(T)) or
// elements (VEC = 1). The occupancy query and the launch must name the same instance.
template <class T, int VEC>
constexpr auto column_kernel() {
  return reduce_sum_kernels::strided_lanes<T, VEC, reduce_sum_kernels::kColumnLanes, reduce_sum_kernels::kColumnUnroll>;
}

// How many blocks of the column kernel (strided_lanes over packs or elements) fit on one SM at once: a column sum runs
// fastest as one full wave of blocks (plan, below). Asked only for column sums, at create.
int strided_blocks_per_sm(DType dtype, bool packed) {
  int blocks = 4;
  dispatch_float(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto kernel = packed ? column_kernel<T, 16 / sizeof(T)>() : column_kernel<T, 1>();
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 0) != cudaSuccess) {
      cudaGetLastError();
      blocks = 4;
    }
    return Status::Success;
  });
  return std::max(blocks, 1);
}

// Calls f(std::integral_constant<int, packs>) for the packs a lane lane_packs_rows returns (2-kMaxLanePacks): the
// one runtime-to-template step that the occupancy query and the launch of packed_rows at a warp a row share.
template <int PACKS = 2, class F>
void with_lane_packs(int packs, F&& f) {
  if constexpr (PACKS <= kMaxLanePacks) {
    if (packs != PACKS) return with_lane_packs<PACKS + 1>(packs, f);
    f(std::integral_constant<int, PACKS>{});
  }
}

// How many blocks of packed_rows at a warp a row of `packs` packs a lane fit on one SM (its registers bound it:
// 30-48 a thread by dtype and packs), or 0 where unknown (lane_packs_at_exit then keeps the occupancy rule out).
// Asked once, at create.
template <class T>
int lane_packs_resident(int packs) {
  int blocks = 0;
  with_lane_packs(packs, [&](auto k) {
    const auto kernel = reduce_sum_kernels::packed_rows<T, 32, int, decltype(k)::value>;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 0) != cudaSuccess) {
      cudaGetLastError();
      blocks = 0;
    }
  });
  return blocks;
}

int lane_packs_blocks_per_sm(DType dtype, int packs) {
  int blocks = 0;
  dispatch_float(dtype, [&](auto tag) {
    blocks = lane_packs_resident<typename decltype(tag)::type>(packs);
    return Status::Success;
  });
  return blocks;
}

void plan(ReduceSumCudaDescriptor* d, const DeviceProps& props) {
  const RowsOfDim& r = d->info.r;
  int64_t target_blocks = int64_t(props.sm_count) * 4;  // ~2048 resident threads per SM
  int64_t per_split_min = 4096;                                 // elements a split should at least read
  const int vec = 16 / int(dtype_size(d->info.dtype));          // elements a 16-byte pack
  if (r.rows == 0) {
    d->path = SumPath::Empty;
    return;
  }
  if ((r.x_stride == 1 || r.length <= 1) && fits_short_rows(r)) {
    d->path = SumPath::Short;
    d->short_rows = plan_short_rows(r);
    if (r.length % vec == 0 && d->short_rows.x_step % vec == 0)  // and x aligned, which execute() checks
      d->packed_tpr = packed_rows_threads(r.length / vec, r.rows, d->thread_slots);
    if (d->packed_tpr > 0) {
      d->packed_rows = plan_short_rows(r, 256 / d->packed_tpr);
      d->packed_rows.after_wait = packed_rows_after_wait(d->packed_rows.blocks, d->thread_slots);
    }
    return;
  }
  if ((r.x_stride == 1 || r.length <= 1) && r.length <= 4096) {
    d->path = SumPath::Warp;
    d->tpr = grid_tpr(r.rows, r.length, dtype_size(d->info.dtype), props.sm_count);
    d->blocks = ceil_div(r.rows, 256 / d->tpr);
    // Where contiguous would run a warp a row anyway, rows of whole packs whose outer dims coalesce take
    // packed_rows at 2-8 packs a lane (and x aligned, which execute() checks; else contiguous, planned below)
    if (d->tpr == 32 && r.outer.ndim <= 1 && r.length % vec == 0) {
      ShortRowsPlan p = plan_short_rows(r);
      if (p.x_step % vec == 0 && (d->lane_packs = lane_packs_rows(r.length / vec)) > 0) {
        const int resident = lane_packs_blocks_per_sm(d->info.dtype, d->lane_packs);
        p.at_exit = lane_packs_at_exit(p.blocks, props.sm_count, resident);
        p.after_wait = lane_packs_after_wait(p.blocks, props.sm_count, d->lane_packs,  // its prologue ignores at_exit
                                             dtype_size(d->info.dtype), resident);
        d->lane_rows = p;
      }
    }
  } else if (r.x_stride == 1) {
    d->path = SumPath::Block;
    d->tpr = kBlockTpr;
    d->blocks = r.rows;
    // A block of 512 threads per row streams a long row well by itself: splitting 256x262144 (256 blocks)
    // 4 ways ran 64.3 us (fp32) and 35.7 (bf16) in the session 7 sweep, one block a row 61.9 and 32.9.
    // Splits pay only while rows leave SMs idle.
    target_blocks = props.sm_count;
  } else {
    d->path = SumPath::Strided;
    per_split_min = 128;  // rows a split should at least read; shorter splits mostly add partials
  }
  const Nest<2>& n = r.outer;
  if (d->path == SumPath::Strided) {
    // Packs of adjacent outputs: x unit-stride along the innermost walked dim, whose extent and every
    // other x stride are multiples of the pack.
    d->packs_aligned = n.ndim > 0 && n.strides[1][n.ndim - 1] == 1 && n.shape[n.ndim - 1] % vec == 0 &&
                       r.x_stride % vec == 0;
    for (int i = 0; i + 1 < n.ndim; ++i) d->packs_aligned &= n.strides[1][i] % vec == 0;
    d->blocks = ceil_div(r.rows, 256 / reduce_sum_kernels::kColumnLanes);
    d->blocks_packed = ceil_div(r.rows, 256 / reduce_sum_kernels::kColumnLanes * vec);
  } else {
    d->packs_aligned = r.length % vec == 0;
    for (int i = 0; i < n.ndim; ++i) d->packs_aligned &= n.strides[1][i] % vec == 0;
  }
  // Before the split below: a block a row of at most 4096 elements reads less than per_split_min, so it stays whole
  const bool few_rows = r.length >= kFewRowPacks * vec && r.rows >= kFewRowsMin && r.rows <= kFewRowsMax;
  if (d->path == SumPath::Warp && n.ndim == 1 && d->packs_aligned && (r.length >= kBlockRowPacks * vec || few_rows)) {
    d->tpr = kRowBlockTpr;
    d->blocks = r.rows;
    d->batch_rest = r.length % (4 * kRowBlockTpr * vec) != 0;
  }
  const int64_t blocks = d->path == SumPath::Strided && d->packs_aligned ? d->blocks_packed : d->blocks;
  if (d->path == SumPath::Strided) {
    // Columns: as many splits as fill exactly one wave of resident blocks. The split sweep on the H200 (run q,
    // docs/runs/reduce-sum-splits-columns-h200-2026-11-30-q.csv) ran the old `strided` kernel's 32768x4096 fp32 at
    // 125.5 us with 132 splits (528 blocks, one wave) but 162.5 with 144 (576: a second, nearly empty wave). For
    // strided_lanes (runs il and in, docs/runs/reduce-sum-columns-h200-2026-12-03-{il,in}.csv) one wave was the
    // fastest of unsplit, half, one and two waves on 23 of 30 shapes and dtypes and within 1 % on one more (16-bit
    // 32768x4096: 76.4 / 62.9 / 65.7 us at 20 / 41 / 82 splits).
    // The edge (session 53's grid, run ip, docs/runs/reduce-sum-columns-edge-h200-2026-12-03-ip.csv): a split pays
    // a finishing kernel, and the fuller the unsplit grid already is, the less a split gains, so a column sum splits
    // only where its rows are at least kSplitRows times the share of a wave the unsplit grid fills. At a fifth of a
    // wave 384 rows ran 8-19 % faster split; at two fifths 512 rows 4-5 % faster and 384 7 % slower; at half a wave
    // 512 rows 10-14 % slower. Through the library (run ir) 256x65536 and 512x81920 bf16 unsplit ran 8 % and 13 %
    // faster than split in two, 256x32768 fp32 3 %.
    const int64_t wave = int64_t(props.sm_count) * strided_blocks_per_sm(d->info.dtype, d->packs_aligned);
    int64_t splits = std::min(wave / blocks, r.length / per_split_min);
    constexpr int64_t kSplitRows = 1280;
    if (r.length * wave < kSplitRows * blocks) splits = 1;
    // fp32: the largest power of two of splits within the wave. The bench (session 54, run is, A B A B): 32768x4096
    // at 16 splits 122.0 against 20's 123.9 us; ncu: fewer blocks (512 against 640, 49 % achieved occupancy against
    // 60 %) read at 90.8 % of DRAM against 90.2 %, 3 % fewer instructions, a shorter finish (3.9 against 4.4 us).
    // The sweeps (runs ip, ir) had it 1-5 % faster on three neighbours; 16-bit rows lost with it (1-8 %).
    if (d->info.dtype == DType::Float32) splits = floor_pow2(splits);
    d->splits = int(std::clamp<int64_t>(splits, 1, 65535));
    return;
  }
  // A power of two, rounded down, so split chunks stay whole multiples of the block's stride: the 5-way
  // split of 256x262144 fp32 ran 69 us in the bench (run i), the 4-way one 64 us in the split sweep (run k).
  if (blocks < target_blocks) {
    const int64_t want = std::clamp<int64_t>(std::min(target_blocks * 2 / blocks, r.length / per_split_min), 1, 32768);
    d->splits = int(floor_pow2(want));
  }
}

// fp32 with 64 or 128 threads a row and 4 packs in flight spills 8 bytes (ptxas, CUDA 13); 2 do not.
constexpr int unroll_for(size_t elem_bytes, int tpr) { return elem_bytes == 4 && tpr > 32 && tpr < 256 ? 2 : 4; }

// Whether a thread of `tpr` has two or more packs of `vec` left after its last whole batch of the row (or
// of its split), the rows that kBatchTail helps: 4080x1536 halves (6 packs a thread, batches of 4) 5.57 ->
// 5.16-5.18 us (fp16) and 5.61 -> 5.23-5.24 (bf16), twice in run cc (H200); no other bench row takes it, and
// each moved by 1.2 % or less in the same A/B.
bool batch_tail(const ReduceSumCudaDescriptor* d, int vec) {
  const int64_t per = ((d->info.r.length + d->splits - 1) / d->splits + vec - 1) / vec;  // packs a split
  const int64_t per_thread = (per + d->tpr - 1) / d->tpr;
  return per_thread % unroll_for(dtype_size(d->info.dtype), d->tpr) >= 2;
}

template <class T, int TPR>
void launch_contiguous(const ReduceSumCudaDescriptor* d, T* out, const T* x, float* ws, cuda::Stream st) {
  constexpr int kBlock = TPR < 256 ? 256 : TPR, kUnroll = unroll_for(sizeof(T), TPR);
  const dim3 grid(unsigned(d->blocks), unsigned(d->splits));
  auto go = [&](auto vec, auto tail) {
    cuda::launch(reduce_sum_kernels::contiguous<T, decltype(vec)::value, TPR, kUnroll, kBlock, decltype(tail)::value>,
                 grid, kBlock, st, out, x, ws, d->info.r);
  };
  using Packs = std::integral_constant<int, 16 / sizeof(T)>;
  using Elements = std::integral_constant<int, 1>;
  if (d->packs_aligned && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
    if (d->batch_tail[0]) go(Packs{}, std::true_type{});
    else go(Packs{}, std::false_type{});
  } else {
    if (d->batch_tail[1]) go(Elements{}, std::true_type{});
    else go(Elements{}, std::false_type{});
  }
}

// packed_rows at TPR threads a row and PACKS packs a thread, its instantiations that trigger after the wait where
// the plan says so (lane_packs_after_wait, packed_rows_after_wait).
template <class T, int TPR, int PACKS>
void launch_packed(const ShortRowsPlan& p, T* out, const T* x, int64_t rows, int length, cuda::Stream st) {
  if (p.after_wait)
    launch_short_rows<T>(p, reduce_sum_kernels::packed_rows<T, TPR, int, PACKS, true>,
                         reduce_sum_kernels::packed_rows<T, TPR, int64_t, PACKS, true>, out, x, rows, length, st);
  else
    launch_short_rows<T>(p, reduce_sum_kernels::packed_rows<T, TPR, int, PACKS>,
                         reduce_sum_kernels::packed_rows<T, TPR, int64_t, PACKS>, out, x, rows, length, st);
}

// packed_rows at the descriptor's threads a row: the powers of two that packed_rows_threads returns (1-16).
template <class T, int TPR = 1>
void launch_packed_rows(int tpr, const ShortRowsPlan& p, T* out, const T* x, int64_t rows, int length,
                        cuda::Stream st) {
  if constexpr (TPR <= 16) {
    if (tpr != TPR) return launch_packed_rows<T, TPR * 2>(tpr, p, out, x, rows, length, st);
    launch_packed<T, TPR, 1>(p, out, x, rows, length, st);
  }
}

// packed_rows at a warp a row of the descriptor's packs a lane: the values lane_packs_rows returns (2-8).
template <class T>
void launch_lane_packs(int packs, const ShortRowsPlan& p, T* out, const T* x, int64_t rows, int length,
                       cuda::Stream st) {
  with_lane_packs(packs, [&](auto k) { launch_packed<T, 32, decltype(k)::value>(p, out, x, rows, length, st); });
}

}  // namespace

Status reduce_sum_cuda_create(ReduceSumCudaDescriptor** desc, const TensorDesc* out, const TensorDesc* x, int64_t dim,
                              bool keepdim) {
  auto d = new ReduceSumCudaDescriptor;
  DeviceProps props;
  Status s = ReduceSumInfo::create(out, x, dim, keepdim, DeviceType::Cuda, &d->info);
  if (s == Status::Success) s = query_device(x->device_id, &props);
  if (s != Status::Success) {
    delete d;
    return s;
  }
  d->device_id = x->device_id;
  d->pdl = props.programmatic_launch;
  d->thread_slots = thread_slots(props);
  plan(d, props);
  const RowsOfDim& r = d->info.r;
  const int64_t vec = 16 / int64_t(dtype_size(d->info.dtype));
  if (d->path == SumPath::Warp || d->path == SumPath::Block) {
    d->batch_tail[0] = batch_tail(d, 16 / int(dtype_size(d->info.dtype)));
    d->batch_tail[1] = batch_tail(d, 1);
  }
  d->whole_batches = (d->tpr == kBlockTpr || d->tpr == kRowBlockTpr) && d->path != SumPath::Strided &&
                     d->splits == 1 && r.outer.ndim == 1 && d->packs_aligned &&
                     (r.length % (4 * d->tpr * vec) == 0 || d->batch_rest);
  *desc = d;
  return Status::Success;
}

Status reduce_sum_cuda_workspace_size(const ReduceSumCudaDescriptor* desc, size_t* size) {
  *size = desc->splits > 1 ? size_t(desc->splits) * size_t(desc->info.r.rows) * sizeof(float) : 0;
  return Status::Success;
}

Status reduce_sum_cuda_execute(const ReduceSumCudaDescriptor* desc, void* workspace, size_t workspace_size, void* out,
                               const void* x, void* stream) {
  if (desc->path == SumPath::Empty) return Status::Success;
  size_t needed = 0;
  reduce_sum_cuda_workspace_size(desc, &needed);
  if (workspace_size < needed || (needed && !workspace))
    return fail(Status::InsufficientWorkspace, "reduce_sum needs " + std::to_string(needed) + " workspace bytes");
  DeviceGuard guard(desc->device_id);
  const cuda::Stream st{static_cast<cudaStream_t>(stream), desc->pdl, desc->thread_slots};
  float* ws = static_cast<float*>(workspace);
  const Status s = dispatch_float(desc->info.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out);
    const T* px = static_cast<const T*>(x);
    const RowsOfDim& r = desc->info.r;
    if (desc->path == SumPath::Short && desc->packed_tpr > 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
      launch_packed_rows<T>(desc->packed_tpr, desc->packed_rows, o, px, r.rows, int(r.length), st);
    } else if (desc->path == SumPath::Short) {
      launch_short_rows<T>(desc->short_rows, reduce_sum_kernels::short_rows<T, kShortRowsPerLane, int>,
                           reduce_sum_kernels::short_rows<T, kShortRowsPerLane, int64_t>, o, px, r.rows,
                           int(r.length), st);
    } else if (desc->lane_packs > 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
      launch_lane_packs<T>(desc->lane_packs, desc->lane_rows, o, px, r.rows, int(r.length), st);
    } else if (desc->whole_batches && reinterpret_cast<uintptr_t>(x) % 16 == 0) {
      if (desc->tpr == kBlockTpr)
        cuda::launch(reduce_sum_kernels::whole_batches<T, kBlockTpr>, unsigned(r.rows), kBlockTpr, st, o, px, r);
      else if (desc->batch_rest)
        cuda::launch(reduce_sum_kernels::whole_batches<T, kRowBlockTpr, 4, true>, unsigned(r.rows), kRowBlockTpr, st,
                     o, px, r);
      else
        cuda::launch(reduce_sum_kernels::whole_batches<T, kRowBlockTpr>, unsigned(r.rows), kRowBlockTpr, st, o, px, r);
    } else if (desc->path != SumPath::Strided) {
      switch (desc->tpr) {  // the values row_tpr and grid_tpr return
        case kBlockTpr: launch_contiguous<T, kBlockTpr>(desc, o, px, ws, st); break;
        case kRowBlockTpr: launch_contiguous<T, kRowBlockTpr>(desc, o, px, ws, st); break;
        case 128: launch_contiguous<T, 128>(desc, o, px, ws, st); break;
        case 64: launch_contiguous<T, 64>(desc, o, px, ws, st); break;
        default: launch_contiguous<T, 32>(desc, o, px, ws, st);
      }
    }
    else if (desc->packs_aligned && reinterpret_cast<uintptr_t>(x) % 16 == 0)
      cuda::launch(column_kernel<T, 16 / sizeof(T)>(), dim3(unsigned(desc->blocks_packed), unsigned(desc->splits)), 256,
                   st, o, px, ws, desc->info.r);
    else
      cuda::launch(column_kernel<T, 1>(), dim3(unsigned(desc->blocks), unsigned(desc->splits)), 256, st, o, px, ws,
                   desc->info.r);
    const int64_t rows = desc->info.r.rows;
    if (desc->splits > 1 && rows < reduce_sum_kernels::kWarpFinishRows)
      cuda::launch(reduce_sum_kernels::finish_few_rows<T>, unsigned(ceil_div(rows * 32, 256)), 256, st, o, ws,
                   desc->info.r, desc->splits);
    else if (desc->splits > 1)
      cuda::launch(reduce_sum_kernels::finish_rows<T>, unsigned(ceil_div(rows, 32)),
                   dim3(32, reduce_sum_kernels::kFinishLanes), st, o, ws, desc->info.r, desc->splits);
    return Status::Success;
  });
  if (s != Status::Success) return s;
  return last_launch_status("reduce_sum");
}

Status reduce_sum_cuda_destroy(ReduceSumCudaDescriptor* desc) {
  delete desc;
  return Status::Success;
}

}  // namespace ort
