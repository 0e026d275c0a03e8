// Softmax 4096x16384 halves through the TMA's bulk copies (session 46). online_held reads its row into registers,
// reduces twice, then writes it from every thread: 3.99-4.06 TB/s, the rate of a copy with the same dependency
// (held_copy, session 29), where a flat copy moves the bytes at 4.15-4.17 and the target is 4.1. Untried until now:
// handing the row to the copy engine, so that a block neither issues 2048 stores nor waits on them. Arms, each
// online_held's body (HeldPacks: raw packs in registers, the max, the exps' sum) with 32 KB of shared memory a block:
//   bulk_store: loads from global as online_held, the results written to shared memory, one cp.async.bulk stores
//               the row (thread 0 waits only until the engine has read shared memory, not for the write to land);
//   bulk_load:  one cp.async.bulk with an mbarrier loads the row into shared memory, packs read from there, stores
//               from every thread as online_held;
//   bulk_both:  both, at 512 x 4 (three blocks an SM, as online_held) and 256 x 8 (four: 128 KB of rows an SM).
// Beside them online_held (the library's kernel here) and held_copy (its structure without the exps). Every arm's
// output is compared bit for bit with online_held's before it is timed; twice each, interleaved.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_bulk.cu -o softmax_bulk
//   ./softmax_bulk > softmax_bulk.csv   (scripts/gpu_check.sh --sweep with SWEEPS=softmax_bulk)
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "softmax_held_arms.cuh"

namespace {

namespace ptx = ::cuda::ptx;

template <class T, int TPR, int PACKS, int MIN_BLOCKS, bool BULK_LOAD, bool BULK_STORE>
__global__ void __launch_bounds__(TPR, MIN_BLOCKS) held_bulk(T* out, const T* x, RowsOfDim r, cuda::Trigger trigger) {
  extern __shared__ __align__(128) unsigned char dynamic_smem[];
  __shared__ float smem[32];
  __shared__ uint64_t landed;
  T* row = reinterpret_cast<T*>(dynamic_smem);
  const uint32_t bytes = uint32_t(r.length) * uint32_t(sizeof(T));  // a multiple of 16 (rows of whole packs)
  if (BULK_LOAD && threadIdx.x == 0) {
    ptx::mbarrier_init(&landed, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // the copy engine sees the initialised barrier
  }
  cuda::pdl_prologue(trigger);
  const int first = int(threadIdx.x) * 8;
  int64_t out_off, x_off;
  softmax_kernels::row_offsets<uint32_t>(r.outer, blockIdx.x, &out_off, &x_off);
  if constexpr (BULK_LOAD) {
    __syncthreads();  // nobody waits on the barrier before thread 0 has initialised it
    if (threadIdx.x == 0) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &landed, bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, row, x + x_off, bytes, &landed);
    }
    while (!ptx::mbarrier_try_wait_parity(&landed, 0)) {
    }
  }
  softmax_kernels::HeldPacks<T, 8, TPR, PACKS> held;
  held.valid = int(r.length) - first;
  const float m = cuda::group_reduce<TPR>(held.load(BULK_LOAD ? row + first : x + x_off + first), cuda::MaxOp{}, smem);
  const float inv = 1.f / cuda::group_reduce<TPR>(held.exp_sum(m), cuda::SumOp{}, smem);
  if constexpr (BULK_STORE) {
    held.store(row + first, m, inv);
    ptx::fence_proxy_async(ptx::space_shared);  // the generic proxy's writes, visible to the copy engine
    __syncthreads();
    if (threadIdx.x == 0) {
      ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + out_off, row, bytes);
      ptx::cp_async_bulk_commit_group();
      ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});  // shared memory may be freed once the engine read it
    }
  } else {
    held.store(out + out_off + first, m, inv);
  }
}

template <class T>
struct BulkArm {
  const char* name;
  Kernel<T> kernel;
  int threads, smem_kb;
};

template <class T>
void sweep(int rows) {
  const BulkArm<T> arms[] = {
      {"online_held", softmax_kernels::online_held<T, 8, kThreads>, kThreads, 0},
      {"held_copy", held_copy<T>, kThreads, 0},
      {"bulk_store_512x4", held_bulk<T, 512, 4, 3, false, true>, 512, 32},
      {"bulk_load_512x4", held_bulk<T, 512, 4, 3, true, false>, 512, 32},
      {"bulk_both_512x4", held_bulk<T, 512, 4, 3, true, true>, 512, 32},
      {"bulk_both_256x8", held_bulk<T, 256, 8, 4, true, true>, 256, 32},
  };
  const double bytes = 2.0 * rows * kLength * sizeof(T);
  for (const BulkArm<T>& a : arms) {
    const size_t differ = a.kernel == held_copy<T> ? 0 : differing_bytes<T>(rows, a.kernel, a.threads, a.smem_kb);
    std::printf("%s,%d,%s,check,%zu,nan\n", dtype_name<T>(), rows, a.name, differ);
  }
  for (int rep = 0; rep < 2; ++rep) {
    for (const BulkArm<T>& a : arms) {
      const double us = time_rows<T>(rows, a.kernel, a.threads, a.smem_kb);
      std::printf("%s,%d,%s,%d,%.2f,%.3f\n", dtype_name<T>(), rows, a.name, rep, us, bytes / us * 1e-6);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main() {
  std::printf("dtype,rows,arm,rep,us,tbps\n");  // rep `check`: `us` holds the bytes that differ from online_held
  for (int rows : {4096, 1024}) {
    sweep<half_t>(rows);
    sweep<bfloat16_t>(rows);
  }
  return 0;
}
