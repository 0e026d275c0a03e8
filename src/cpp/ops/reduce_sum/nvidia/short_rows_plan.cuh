#pragma once
// The plan and launch of the short-row kernels (reduce_sum_kernels::short_rows and packed_rows,
// softmax_kernels::short_rows): unit-stride rows of at most 128 elements whose outer dims coalesce into one, a
// warp a row and 8 rows a block (short_rows) or 256 / TPR rows a block (packed_rows). They take the rows as
// scalars (a row step for x and one for out) and index in int where every offset fits.
#include <algorithm>
#include <cstdint>

#include "core/cuda_launch.cuh"
#include "ops/reduce_sum/reduce_sum.h"

namespace ort {

constexpr int kShortRowsPerLane = 4;  // elements a lane: rows of up to 128

// Rows of at most 32 lanes' elements whose outer dims coalesce into one (the caller checks that they are
// unit-stride).
inline bool fits_short_rows(const RowsOfDim& r) { return r.length <= 32 * kShortRowsPerLane && r.outer.ndim <= 1; }

// Whether short_rows' grid (8 rows a block of 256) fills at most half of the GPU's thread slots: 4224 rows on the
// H200. Softmax keeps short_rows to such grids; reduce_sum keeps its rows of 16 threads of packed_rows out of them.
inline bool short_rows_within_half_wave(int64_t rows, int64_t thread_slots) {
  return (rows + 7) / 8 * 256 <= thread_slots / 2;
}

// Threads a row of reduce_sum's packed_rows for rows of `packs` 16-byte packs (at most 32 lanes' elements), or 0
// where short_rows is as fast or faster. Measured in the bench's context (prepared calls replayed in a graph over
// rotating inputs, 1 MiB sets held in L2; docs/runs/reduce-sum-packed-probe-h200-2026-12-01-eh.csv, H200): rows of
// up to 8 threads won at every count (16384x8 bf16 2.92 -> 0.72 us, 4096x32 0.95 -> 0.75, 1024 rows 2-9 %); rows
// of 16 threads (128 halves, 64 fp32) lost 9 % at 4096 rows (about the probe's own spread there: one kernel in
// both of its columns read 5-7 % apart, run ei) and won 24-47 % from 8192; rows of 32 threads (fp32 rows of 97-128)
// tied at every count, 1024-262144 rows (within 2 %). Never more than 16, so launch_packed_rows builds no 32.
inline int packed_rows_threads(int64_t packs, int64_t rows, int64_t thread_slots) {
  int tpr = 1;
  while (tpr < packs) tpr *= 2;
  if (tpr <= 8 || (tpr == 16 && !short_rows_within_half_wave(rows, thread_slots))) return tpr;
  return 0;
}

// A lane's packs where packed_rows runs a warp a row of `packs` 16-byte packs (2-8: rows of 33-256 packs, 16-bit
// rows of 264-2048 halves, fp32 of 132-1024), or 0. Rows past 256 packs keep `contiguous`'s loop. H200,
// tests/bench/sweeps/reduce_sum_lane_packs.cu against contiguous: 2-4 packs 1.30-1.55x at 4096 rows and never
// slower beyond 0.2 % (run hj); 5-8 packs 1.10-1.35x at 1024-4096 rows, 1.02-1.15x at 16384, 0.995-1.07x at 65536
// (run hk; fp32 rows of 1024 at 65536 rows the one 0.5 % loss).
constexpr int kMaxLanePacks = 8;
constexpr int lane_packs_rows(int64_t packs) {
  return packs > 32 && packs <= 32 * kMaxLanePacks ? int((packs + 31) / 32) : 0;
}

// Whether packed_rows at a warp a row triggers the next launch at exit rather than early: where its grid is one
// wave at most but the next grid's blocks, launched early, would not fit beside it on every SM (an SM holds
// `resident` of its blocks, its registers permitting, and this grid puts up to ceil(blocks / sm_count) on each).
// H200, the lane-packs sweep in the bench's context (l2; docs/runs/reduce-sum-lane-packs-l2-long-h200-2026-12-02-
// hn.csv), 4096 rows (4 blocks an SM): fp16 6 packs (36 registers, 6 resident) 5.18 us early against 4.45 at exit,
// fp16 8 (43, 5 resident) 5.72 against 5.50; where 8 fit, early won: fp16 5 packs 3.68 against 4.03, bf16 6 4.14
// against 4.48, fp32 6 and 8 1.07-1.09x. At one block an SM or fewer and past a wave the rule is unchanged: where
// TileLang's warp a row ran 1.2-1.6x faster at exit (run ho, 1024 rows of 512-1024 halves), ours lost at exit at
// 256-2048 rows out of L2 (1.13-1.46x slower), and in L2 won only at 1024 rows (0.85-0.97x) and lost at 256-512
// and 1056 (run hp, docs/runs/reduce-sum-lane-packs-window-h200-2026-12-02-hp.csv).
inline bool lane_packs_at_exit(int64_t blocks, int sm_count, int resident) {
  const int64_t per_sm = (blocks + sm_count - 1) / sm_count;
  return resident > 0 && blocks <= int64_t(sm_count) * resident && 2 * per_sm > resident;
}

// Where reduce_sum's packed_rows takes its AFTER_WAIT instantiation (the PDL trigger after the wait, not before it:
// cuda::pdl_prologue<true>), in place of an early trigger. Early before the wait cascades through a chain of
// launches, every grid's blocks waiting in the slots the grids ahead left free, so a grid's time jumps with how its
// blocks happen to tile the SMs; after the wait one grid at most waits behind the running one. H200, run kr
// (docs/runs/reduce-sum-after-wait-h200-2026-12-04-kr.csv; one build, each shape both ways in one process):
// - a warp a row (lane_packs_rows), more than a sixth of the SMs' count of blocks and at most 1.375 an SM (23-181
//   on the H200; 1.875 for rows of 3 packs a lane and 16-bit rows of 4-5, 2.375 for rows of 2, below). Run kr,
//   23-132 blocks: fp16 rows of 1040 / 1536 / 2048 at every fifth count, 1.01-1.90x faster in 57 of 66 cells, slower
//   in 9 (by 5-12 % in 6: early's lucky tilings at 33, 88 and 113 blocks); fp32 rows of 768 0.99-1.10x. At 8-18
//   blocks early was as fast or faster in 5 of 9 cells (the bench's rows-144x1280, 18 blocks, 4 % slower after the
//   wait).
//   Past one an SM, run ku (docs/runs/reduce-sum-lane-after-wait-past-one-an-sm-h200-2026-12-04-ku.csv, every
//   seventh count of 133-399 blocks): up to 1.375 blocks an SM (181 on the H200) after the wait was faster in 34 of
//   42 cells of fp16 1040-2048 and fp32 768-1024 (1.05-1.79x), within 2 % in 4 and 4-13 % slower in 4 (147, 161 and
//   175 blocks: early's lucky tilings); from ~189 blocks it loses at 1536-2048 halves and fp32 768, by up to 32 %.
//   Run kv (docs/runs/reduce-sum-lane-after-wait-bound-h200-2026-12-04-kv.csv) timed this bound against one an SM
//   over bf16 / fp16 / fp32 rows of 2-8 packs a lane at 133-181 blocks: 100 of 112 cells 1.03-1.60x faster, 10 slower
//   by 3-13 % (eight at 175 blocks).
//   16-bit rows of 5 packs a lane (1032-1280 elements) go on to 1.875 an SM (247 on the H200). Run lf (session 67;
//   docs/runs/reduce-sum-lane-after-wait-wide-h200-2026-12-04-lf.csv), 182-399 blocks, fp16 / bf16 rows of 1040 /
//   1152 / 1280 at every seventh count, each cell four times in two process contexts (after the bench, alone), every
//   reading agreeing in sign: after the wait 1.04-1.61x faster at 182-245 blocks but for one count, 210, where
//   early's tiling wins by 3-17 % (ties: bf16 1280 at 203 and 245); bf16 4-14 % slower at 252-259; slower in both
//   from 308-322 (up to 28 % at 350). Run lg timed the landed bound against 1.375 in one build (docs/runs/reduce-sum-
//   lane-after-wait-wide-landed-h200-2026-12-04-lg.csv): the same signs. fp32 rows of 5 packs (520 / 640) keep
//   1.375: they gained at 182-196 and 217-238 but lost 5-14 % at 203-210 and 4 % at 245 (lg), three counts of ten.
//   Rows of 6-8 packs lost from about 189 blocks in run ku (1536 / 2048 halves, fp32 768; 1288 halves won to ~230),
//   and fp32 1024 alternated by tiling in lf and ku: they keep 1.375 too.
//   Rows of 2-4 packs a lane (16-bit 264-1024 elements, fp32 132-512), run lk (session 68; docs/runs/reduce-sum-lane-
//   after-wait-2-4-packs-h200-2026-12-04-lk.csv), 182-399 blocks, each cell four times in two contexts (every seventh
//   count; fp32 every fourteenth) and every count of 200-212 and 243-260 at 16-bit 512 / 1024: at 3-4 packs after the
//   wait 1.03-1.51x faster at most counts of 182-247, 2-15 % slower at 206-211 (4 packs; 3 packs at 210 by 2-6 %,
//   the hole 16-bit 5 packs have there too), ties at 203 and 245 in bf16 768; so they take 1.875 as 16-bit 5 packs
//   do, and lose 5-15 % from 248-259. Run ll timed the landed bound against 1.375 in one build (docs/runs/reduce-sum-
//   lane-after-wait-2-4-packs-landed-h200-2026-12-04-ll.csv): the same signs, but fp32 rows of 4 packs (512) lost
//   12-13 % at 203-210 and 4 % at 245, three counts of ten as fp32 5 packs in lg, so fp32 keeps 1.375 from 4 packs.
//   Rows of 2 packs gained at nearly every count to 315 (1.03-1.37x; 3-4 % slower only at 256 in bf16) and lost 1-7 %
//   at 322-350, so they go on to 2.375 an SM (313 on the H200).
// - 1-16 threads a row (packed_rows_threads), more than a sixth of a wave and at most one and a half: 1.01-1.30x
//   faster in 43 of 48 (length, rows, dtype) cells from 0.18 to 1.45 waves, 0.1-5 % slower in 5; at 0.12 waves and
//   under slower in all 49 (1-8 %: a kernel this short gains more from the early launch than it loses to the
//   tiling), at 1.9 waves 0-1.3 % slower in 6 of 9. short_rows (a warp a row of at most 128 elements) keeps Early:
//   it lost 5-10 % at 0.24-0.49 waves (the bench's rows-4096x128 fp32 1.21 -> 1.43 us), and after the wait that
//   row reads 1.11-1.40 us by what ran before it in the process where early reads 1.17-1.20 (run kw).
// Inside the window, grids that the SMs' slots (sm_count x `resident` blocks of the kernel, 0 where unknown) hold a
// whole number of times, to within 1/40 of a grid, keep the early trigger up to 1.625 blocks an SM: there a chain of
// early-triggered grids tiles the slots, so no grid waits for a straggler's slot. Run lp (session 69; docs/runs/
// reduce-sum-lane-tiles-shared-inputs-h200-2026-12-04-lp.csv; every arm over the same tensors, since run lo's arms
// over separate ones read one launch up to 16 % apart) timed all 55 such cells in the windows of fp16 / bf16 1024 and
// fp32 384 (8 resident: 24-176 blocks where 1056 mod blocks = 0, and 211), fp16 1536 (6: 24-132, 113, 158) and fp16
// 2048 (5: 30-165, 164), twice: early 1.03-1.25x faster in 45, within 3 % in 10 (geomean 1.07x). A looser band does
// not hold: with 3-12 % of a grid left over early was slower in 39 of 61 cells under 132 blocks (bf16 1024 at 50:
// 1.47x as long), and from 149 it won in 16-bit and lost in fp32 (fp32 384 at 149: 1.23x as long). Run lq
// (docs/runs/reduce-sum-lane-whole-grids-h200-2026-12-04-lq.csv) timed the band against the rule before it in one
// build on nine more kernels (16-bit rows of 2, 3, 5, 6, 7 and 8 packs, fp32 2, 4, 5): landed / old 0.77-1.01 in
// 103 of 111 cells (geomean 0.94), but rows of 2 packs at 263-264 blocks (two an SM: 1056 = 4 x 264) 2-8 % slower,
// hence the bound at 1.625 an SM (211 blocks on the H200, the highest count that won).
inline bool lane_packs_after_wait(int64_t blocks, int sm_count, int lane_packs, int elem_size, int resident) {
  int64_t eighths = 11;  // blocks an SM at most, in eighths
  if (lane_packs == 2) eighths = 19;
  else if (lane_packs <= (elem_size == 2 ? 5 : 3)) eighths = 15;
  if (!(6 * blocks > sm_count && 8 * blocks <= eighths * sm_count)) return false;
  const int64_t left_over = int64_t(sm_count) * resident % blocks;
  return resident <= 0 || 8 * blocks > 13 * sm_count || 40 * left_over >= blocks;
}

inline bool packed_rows_after_wait(int64_t blocks, int64_t thread_slots) {
  const int64_t threads = blocks * 256;
  return 6 * threads > thread_slots && 2 * threads <= 3 * thread_slots;
}

struct ShortRowsPlan {
  int64_t blocks = 0;
  int64_t x_step = 0, out_step = 0;  // elements from one row to the next (0 for one row)
  bool index32 = false;
  bool at_exit = false;  // trigger the next launch at exit whatever the grid (lane_packs_at_exit)
  bool after_wait = false;  // reduce_sum: launch packed_rows' AFTER_WAIT instantiations (the two rules above)
};

inline ShortRowsPlan plan_short_rows(const RowsOfDim& r, int rows_per_block = 8) {
  ShortRowsPlan p;
  p.blocks = (r.rows + rows_per_block - 1) / rows_per_block;
  if (r.outer.ndim == 1) {
    p.x_step = r.outer.strides[1][0];
    p.out_step = r.outer.strides[0][0];
  }
  // The last block's rows past the end form pointers too; a row reaches `length` elements past its start.
  // A row index must fit too (rows of length 0 and step 0 included).
  const int64_t rows_spanned = p.blocks * rows_per_block;
  p.index32 = rows_spanned * std::max({p.x_step, p.out_step, r.length, int64_t(1)}) <= INT32_MAX;
  return p;
}

// A short-row kernel's two instantiations, Index int and int64_t, with the library's trigger rule for short rows
// (many waves trigger at exit: core/cuda_launch.cuh). Where the plan says after_wait the caller passes the kernel's
// AFTER_WAIT instantiations, which ignore the trigger passed.
template <class T>
void launch_short_rows(const ShortRowsPlan& p, void (*k32)(T*, const T*, int, int, int, int, cuda::Trigger),
                       void (*k64)(T*, const T*, int64_t, int, int64_t, int64_t, cuda::Trigger), T* out, const T* x,
                       int64_t rows, int length, cuda::Stream st) {
  const cuda::TriggerRule rule = p.at_exit ? cuda::TriggerRule::AtExit : cuda::TriggerRule::ManyWaves;
  const cuda::Stream s{st.handle, st.pdl, st.thread_slots, rule};
  if (p.index32)
    cuda::launch(k32, unsigned(p.blocks), 256, s, out, x, int(rows), length, int(p.x_step), int(p.out_step));
  else
    cuda::launch(k64, unsigned(p.blocks), 256, s, out, x, rows, length, p.x_step, p.out_step);
}

}  // namespace ort
