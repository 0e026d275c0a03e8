// Times every softmax kernel configuration that can hold a row, on the shapes of the benchmark suite,
// so that the tables in ops/softmax/nvidia/softmax_cuda.cu (registers, cluster, online threads) are
// chosen by measurement.
// It launches the library's own kernels (softmax_kernels.cuh, softmax_cluster.cuh), not copies of them.
// Correctness is the test suite's job (tests/ops on the GPU); this file only times. (Session 11's
// cluster_bulk, parts copied into shared memory by cp.async.bulk, lost to the library's kernels on every
// row it timed (run aw) and left the library and this sweep: `git show 44bb476:src/cpp/ops/softmax/nvidia/`.)
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -Isrc/cpp tests/bench/sweeps/softmax_configs.cu -o softmax_configs
//   ./softmax_configs [MIN_LENGTH [LENGTH...]] > softmax_configs.csv   (scripts/gpu_check.sh --sweep does both)
//
// Each time is the median of 7 CUDA-graph replays of >= 20 launches, every launch on its own input and
// output so that the set (>= 256 MiB) does not fit in L2: the same method as the Python harness.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

#include "ops/softmax/nvidia/softmax_cluster.cuh"
#include "sweep_rows.cuh"
#include "sweep_timing.cuh"

namespace {

using namespace ort;

// As the library launches on Hopper: with programmatic dependent launch (core/cuda_launch.cuh).
ort::cuda::Stream pdl(cudaStream_t st) { return ort::cuda::Stream{st, true}; }

struct Buffers {
  std::vector<void*> in, out;
};

template <class T>
void report(int64_t rows, int64_t length, const char* kernel, int tpr, int np, double us) {
  const double bytes = 2.0 * double(rows) * double(length) * sizeof(T);
  std::printf("%s,%lld,%lld,%s,%d,%d,%.2f,%.0f\n", dtype_name<T>(), (long long)rows, (long long)length, kernel,
              tpr, np, us, bytes / us * 1e-3);
  std::fflush(stdout);
}

// One (TPR, NP, BLOCK) of the registers kernel, masked or FULL (no mask: rows that fill every pack).
template <class T, int TPR, int NP, int BLOCK = softmax_kernels::registers_block<TPR>(), bool FULL = false>
void sweep_registers(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  constexpr int kBlock = BLOCK;
  // Only the smallest NP that holds the row for this TPR: a larger one leaves threads idle. FULL only for
  // rows that fill every pack.
  const int64_t holds = int64_t(TPR) * NP * kVec;
  if (r.length > holds || r.length <= int64_t(TPR) * (NP - 1) * kVec || (FULL && r.length != holds)) return;
  const unsigned blocks = unsigned((r.rows + kBlock / TPR - 1) / (kBlock / TPR));
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    CHECK(ort::cuda::launch(softmax_kernels::registers<T, kVec, TPR, NP, BLOCK, FULL>, blocks, kBlock, pdl(st),
                            static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), r));
  });
  // "registers_row": one row a block, as Liger's Triton kernel and our TileLang kernels launch them;
  // they beat ours by 10-13 % on rows of 1024-2304 elements (session 9's first bench). "body_full": no mask,
  // what the library launches for such rows in groups of up to 128 threads (softmax_cuda.cu).
  char name[48] = "registers";
  if (FULL && kBlock != softmax_kernels::registers_block<TPR>()) std::snprintf(name, sizeof name, "body_full_b%d", kBlock);
  else if (FULL) std::snprintf(name, sizeof name, "body_full");
  else if (kBlock == TPR && TPR < 256) std::snprintf(name, sizeof name, "registers_row");
  report<T>(r.rows, r.length, name, TPR, NP, us);
}

// The unmasked body of one (TPR, NP) at the library's block, beside the masked "registers" row of the same
// (TPR, NP) that sweep_tpr or sweep_blocks times in the same run.
// Also at blocks of 128 and 512 threads ("body_full_b128", "_b512"): ncu (session 11, run av) timed our
// 4096x128 fp32 and 4096x1024 bf16 kernels faster than torch's and Liger's in isolation, while the graph
// replays (this sweep's method and the bench's) have them slower; torch launches 512 blocks of 128 threads for
// 4096x128, we launch 256 of 256. Whether the block size is what differs back to back is the question.
// The library launches every kernel with programmatic dependent launch (core/cuda_launch.cuh), and so does
// this sweep ("pdl" below); "body_full_serial" times the unmasked body without it, so that what PDL gives
// stays visible (session 13, run bg: 4096x128 fp32 3.16 -> 2.26 us, 4096x1024 bf16 6.31 -> 5.64).
template <class T, int TPR, int NP>
void sweep_body_serial(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T), kBlock = softmax_kernels::registers_block<TPR>();
  if (r.length != int64_t(TPR) * NP * kVec) return;
  const unsigned blocks = unsigned((r.rows + kBlock / TPR - 1) / (kBlock / TPR));
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    const ort::cuda::Stream serial{st, false};
    CHECK(ort::cuda::launch(softmax_kernels::registers<T, kVec, TPR, NP, kBlock, true>, blocks, kBlock, serial,
                            static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), r));
  });
  report<T>(r.rows, r.length, "body_full_serial", TPR, NP, us);
}

template <class T, int TPR, int NP>
void sweep_bodies(const Buffers& buf, const RowsOfDim& r) {
  sweep_registers<T, TPR, NP, softmax_kernels::registers_block<TPR>(), true>(buf, r);
  sweep_body_serial<T, TPR, NP>(buf, r);
  if constexpr (128 % TPR == 0 && softmax_kernels::registers_block<TPR>() != 128)
    sweep_registers<T, TPR, NP, 128, true>(buf, r);
  if constexpr (512 % TPR == 0 && softmax_kernels::registers_block<TPR>() != 512)
    sweep_registers<T, TPR, NP, 512, true>(buf, r);
}

// Both block shapes of a (TPR, NP): about 256 threads (the library's), and one row a block.
template <class T, int TPR, int NP>
void sweep_blocks(const Buffers& buf, const RowsOfDim& r) {
  sweep_registers<T, TPR, NP>(buf, r);
  if constexpr (TPR >= 32 && TPR < 256) sweep_registers<T, TPR, NP, TPR>(buf, r);
}

// Times one cluster kernel, or reports nothing if the device cannot hold one of its clusters.
template <class T>
void sweep_in_clusters(const Buffers& buf, const RowsOfDim& r, softmax_kernels::SoftmaxKernel<T> kernel, int cluster,
                       int tpr, int np, const char* name) {
  if (!softmax_kernels::cluster_fits<T>(kernel, cluster, tpr)) return;
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    CHECK(softmax_kernels::launch_in_clusters<T>(kernel, cluster, tpr, r, static_cast<T*>(buf.out[i]),
                                                 static_cast<const T*>(buf.in[i]), pdl(st)));
  });
  report<T>(r.rows, r.length, name, tpr, np, us);
}

// PACKS: packs a thread loads a step (0: the library's default), reported in the np column.
template <class T, int CLUSTER, int TPR, int PACKS = 0>
void sweep_cluster_online(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  constexpr int kPacks = PACKS > 0 ? PACKS : softmax_kernels::default_stream_packs<T, kVec>();
  char name[32];
  std::snprintf(name, sizeof name, "cluster_online%d", CLUSTER);
  sweep_in_clusters<T>(buf, r, softmax_kernels::cluster_online<T, kVec, TPR, CLUSTER, kPacks>, CLUSTER, TPR, kPacks,
                       name);
}

// cluster_registers (session 11): CLUSTER CTAs of TPR threads x NP packs hold the row (FULL when they hold
// exactly the row; otherwise only when the row needs the last pack of some thread).
template <class T, int CLUSTER, int TPR, int NP>
void sweep_cluster_registers(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  const int64_t holds = int64_t(CLUSTER) * TPR * NP * kVec;
  if (r.length > holds || r.length <= holds - int64_t(CLUSTER) * TPR * kVec) return;
  const bool full = r.length == holds;
  const auto masked = softmax_kernels::cluster_registers<T, kVec, TPR, NP, CLUSTER, false>;
  const auto unmasked = softmax_kernels::cluster_registers<T, kVec, TPR, NP, CLUSTER, true>;
  char name[48];
  std::snprintf(name, sizeof name, "cluster_registers%d%s", CLUSTER, full ? "_full" : "");
  sweep_in_clusters<T>(buf, r, full ? unmasked : masked, CLUSTER, TPR, NP, name);
  if (full) {  // the exchange through a cluster barrier (session 11's), beside the st.async one
    std::snprintf(name, sizeof name, "cluster_registers%d_full_barrier", CLUSTER);
    sweep_in_clusters<T>(buf, r, softmax_kernels::cluster_registers<T, kVec, TPR, NP, CLUSTER, true, false>, CLUSTER,
                         TPR, NP, name);
  }
}

// Every cluster size for one (TPR, NP).
template <class T, int TPR, int NP>
void sweep_cluster_sizes(const Buffers& buf, const RowsOfDim& r) {
  sweep_cluster_registers<T, 2, TPR, NP>(buf, r);
  sweep_cluster_registers<T, 4, TPR, NP>(buf, r);
  sweep_cluster_registers<T, 8, TPR, NP>(buf, r);
  sweep_cluster_registers<T, 16, TPR, NP>(buf, r);
}

template <class T, int TPR>
void sweep_online(const Buffers& buf, const RowsOfDim& r) {
  constexpr int kVec = 16 / sizeof(T);
  const double us = time_graph(int(buf.in.size()), [&](int i, cudaStream_t st) {
    CHECK(ort::cuda::launch(softmax_kernels::online<T, kVec, TPR>, unsigned(r.rows), TPR, pdl(st),
                            static_cast<T*>(buf.out[i]), static_cast<const T*>(buf.in[i]), r));
  });
  report<T>(r.rows, r.length, "online", TPR, 0, us);
}

// Every pack count up to the library's limit of 32 values a thread (softmax_cuda.cu's table check), so
// that lengths such as 1536 or 2304 halves (192 and 288 packs) get a configuration with no masked pack.
template <class T, int TPR, int... NP>
void sweep_packs(const Buffers& buf, const RowsOfDim& r, std::integer_sequence<int, NP...>) {
  (sweep_blocks<T, TPR, NP + 1>(buf, r), ...);
}

template <class T, int TPR>
void sweep_tpr(const Buffers& buf, const RowsOfDim& r) {
  sweep_packs<T, TPR>(buf, r, std::make_integer_sequence<int, 16 / sizeof(T) == 4 ? 8 : 4>{});
}

template <class T>
void sweep_shape(int64_t rows, int64_t length) {
  const size_t bytes = size_t(rows) * size_t(length) * sizeof(T);
  Buffers buf;
  const int launches = launches_for(2 * bytes);  // read and written
  for (int i = 0; i < launches; ++i) {
    void *in, *out;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    CHECK(cudaMemset(in, 0x3c, bytes));  // finite values (0x3c3c... is ~0.011 in fp32, ~1.06 in fp16)
    buf.in.push_back(in);
    buf.out.push_back(out);
  }
  const RowsOfDim r = contiguous_rows(rows, length, true);
  sweep_tpr<T, 1>(buf, r);  // rows of one or two packs (the table's entries since session 28)
  sweep_tpr<T, 2>(buf, r);
  sweep_tpr<T, 4>(buf, r);
  sweep_tpr<T, 8>(buf, r);
  sweep_tpr<T, 16>(buf, r);
  sweep_tpr<T, 32>(buf, r);
  sweep_tpr<T, 64>(buf, r);
  sweep_tpr<T, 96>(buf, r);
  sweep_tpr<T, 128>(buf, r);
  sweep_tpr<T, 192>(buf, r);
  sweep_tpr<T, 256>(buf, r);
  sweep_tpr<T, 384>(buf, r);
  sweep_tpr<T, 512>(buf, r);
  sweep_tpr<T, 768>(buf, r);
  sweep_tpr<T, 1024>(buf, r);
  // The unmasked body on the shapes where our kernel trailed a peer (session 9): the table's entries for
  // 128, 1024, 1536 and 2304, and TileLang's 32 x 9 for 2304 halves.
  if constexpr (sizeof(T) == 2) {
    sweep_bodies<T, 16, 1>(buf, r);
    sweep_bodies<T, 32, 4>(buf, r);
    sweep_bodies<T, 64, 3>(buf, r);
    sweep_bodies<T, 256, 2>(buf, r);
    sweep_bodies<T, 32, 9>(buf, r);
  } else {
    sweep_bodies<T, 16, 2>(buf, r);
    sweep_bodies<T, 64, 4>(buf, r);  // the library's entry for 1024
    sweep_bodies<T, 128, 2>(buf, r);
    sweep_bodies<T, 128, 4>(buf, r);
    sweep_bodies<T, 256, 4>(buf, r);
    sweep_bodies<T, 192, 3>(buf, r);
  }
  // Past the library's 32 values a thread: TileLang ran 2304 halves as 32 threads x 9 packs (72 values)
  // in 4.4 us where our best table entry took 4.9.
  if constexpr (sizeof(T) == 2) {
    sweep_blocks<T, 32, 6>(buf, r);
    sweep_blocks<T, 32, 9>(buf, r);
    sweep_blocks<T, 64, 6>(buf, r);
  } else {
    sweep_blocks<T, 32, 12>(buf, r);
    sweep_blocks<T, 64, 9>(buf, r);
  }
  if (length >= 16384) {  // the library's cluster_online (create() in softmax_cuda.cu picks the size)
    if constexpr (sizeof(T) == 2) {  // 32 values a step (40 registers, three CTAs an SM): lost in session 17,
      sweep_cluster_online<T, 2, 512, 4>(buf, r);  // and again with the exchange by st.async (runs cg, ck)
      sweep_cluster_online<T, 4, 512, 4>(buf, r);
      sweep_cluster_online<T, 8, 512, 4>(buf, r);
      sweep_cluster_online<T, 16, 512, 4>(buf, r);
    }
    sweep_cluster_online<T, 2, 512>(buf, r);  // 64 KB a CTA at 65536 halves: the exchange paid half as often
    sweep_cluster_online<T, 2, 1024>(buf, r);
    sweep_cluster_online<T, 4, 512>(buf, r);
    sweep_cluster_online<T, 4, 1024>(buf, r);
    sweep_cluster_online<T, 8, 512>(buf, r);
    sweep_cluster_online<T, 8, 1024>(buf, r);
    sweep_cluster_online<T, 16, 512>(buf, r);
    sweep_cluster_online<T, 16, 1024>(buf, r);
  }
  if (length >= 16384) {  // cluster_registers: 16 and 32 values a thread (runs av, aw: 32 won everywhere)
    constexpr int kNp16 = 16 / (16 / sizeof(T));  // packs for 16 values a thread
    sweep_cluster_sizes<T, 256, kNp16>(buf, r);
    sweep_cluster_sizes<T, 512, kNp16>(buf, r);
    sweep_cluster_sizes<T, 1024, kNp16>(buf, r);
    sweep_cluster_sizes<T, 256, 2 * kNp16>(buf, r);
    sweep_cluster_sizes<T, 512, 2 * kNp16>(buf, r);
  }
  if (length >= 4096) {
    sweep_online<T, 256>(buf, r);
    sweep_online<T, 512>(buf, r);
    sweep_online<T, 1024>(buf, r);
  }
  for (int i = 0; i < launches; ++i) {
    CHECK(cudaFree(buf.in[i]));
    CHECK(cudaFree(buf.out[i]));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t min_length = argc > 1 ? std::atoll(argv[1]) : 0;  // only rows at least this long
  std::vector<int64_t> only;  // further arguments: only rows of these lengths
  for (int i = 2; i < argc; ++i) only.push_back(std::atoll(argv[i]));
  const int64_t shapes[][2] = {{4096, 128},  {8192, 512},   {4096, 1024}, {1008, 2304},  {4080, 1536},
                               {4096, 4096}, {32768, 4096}, {4096, 8192}, {4096, 16384}, {2048, 32768},
                               {1024, 65536}, {256, 262144}};
  std::printf("dtype,rows,length,kernel,tpr,np,us,gbps\n");
  for (const auto& s : shapes) {
    if (s[1] < min_length || (!only.empty() && std::find(only.begin(), only.end(), s[1]) == only.end())) continue;
    sweep_shape<float>(s[0], s[1]);
    sweep_shape<bfloat16_t>(s[0], s[1]);
  }
  return 0;
}
