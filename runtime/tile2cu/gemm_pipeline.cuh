// tile2cu/gemm_pipeline.cuh: the pipelined main loop a recognised GEMM k-loop becomes.
//
// The transpiler recognises, in the Tile IR,
//
//     for k in range(k_begin, k_end):
//         a = ct.load(A, index=(.., m, k), shape=(.., BM, BK))     # possibly .astype(ct.tfloat32)
//         b = ct.load(B, index=(.., k, n), shape=(.., BK, BN))
//         acc = ct.mma(a, b, acc)
//
// and replaces the whole loop with one call, gemm_main_loop<Config>(A, a_index, B, b_index,
// k_begin, k_end, acc, smem). The K entries of a_index / b_index are not used: the loop supplies
// them. What it does:
//
//   * The accumulator moves from the tile's blocked layout into mma.sync fragments (through
//     shared memory) and stays in registers for the whole loop: each warp owns a WarpM x WarpN
//     patch of the BM x BN output.
//   * Operand tiles go through a ring of kStages shared-memory buffers. cp.async copies tile
//     k + kStages - 1 while the tensor cores work on tile k, so global-memory latency hides
//     behind math. Rows are padded by 16 bytes so ldmatrix reads are free of bank conflicts.
//   * Out-of-bounds parts of a tile (ragged M, N, K) are zero-filled by cp.async itself (its
//     source size shrinks to what is in bounds); arrays whose rows are not 16-byte aligned take
//     an element-by-element copy instead.
//   * At the end the fragments go back to the blocked layout, so the epilogue (casts,
//     elementwise ops, the store) is ordinary tile code that fuses into the same kernel.
//
// It runs on sm_80 and up (mma.sync is Ampere's instruction; Hopper runs it too). On sm_90a the
// math is wgmma (main_loop_wgmma), and for 16-bit matrices the launcher's tensor maps let the
// copy engine fill the stages (main_loop_tma); tf32 with an N-major B computes C^T = B^T A^T with
// B^T from registers (main_loop_wgmma_tf32).
#pragma once

#include <cuda/atomic>

#include "array.cuh"
#include "fragment_exchange.cuh"
#include "mma_warp.cuh"
#include "tile.cuh"
#include "tma.cuh"
#include "wgmma.cuh"
#include "wgmma_shapes.cuh"

namespace tile2cu {

// One GEMM main-loop configuration: operand element type as stored in shared memory
// (__half, __nv_bfloat16, or float for tf32), the CTA tile BM x BN x BK, the pipeline depth and
// the CTA's thread count. Tf32 says float operands are rounded to tf32 (astype(ct.tfloat32)).
template <class T, int BM, int BN, int BK, int Stages, int Threads, bool Tf32 = false, int HopperStages = 0,
          bool BTransposed = false>
struct GemmMainLoop {
  using operand_type = T;
  // B loaded with order=(1, 0): the array holds B^T (N x K, K contiguous), as nn.Linear weights do.
  static constexpr bool kBTransposed = BTransposed;
  static constexpr int kBM = BM, kBN = BN, kBK = BK, kStages = Stages, kThreads = Threads;
  static constexpr bool kSixteenBit = is_half_like_v<T>;
  static_assert(kSixteenBit || (std::is_same_v<T, float> && Tf32), "GEMM main loop: f16, bf16 or tf32 operands");
  static_assert(Stages >= 2, "a pipeline needs at least two stages");
  static_assert(BK % (kSixteenBit ? 16 : 8) == 0, "BK must be a multiple of the instruction's K");

  // Warps tile the output: as many rows of warps as keeps each warp's patch closest to square.
  static constexpr int kWarps = Threads / 32;
  static constexpr int pick_warps_m() {
    int best = 0, best_gap = 1 << 30;
    for (int wm = 1; wm <= kWarps; wm *= 2) {
      const int wn = kWarps / wm;
      if (BM % (16 * wm) != 0 || BN % (16 * wn) != 0) continue;
      const int gap = BM / wm > BN / wn ? BM / wm - BN / wn : BN / wn - BM / wm;
      if (gap < best_gap) best = wm, best_gap = gap;
    }
    return best;
  }
  static_assert(pick_warps_m() > 0, "no warp grid gives every warp a multiple of 16 x 16 outputs");
  static constexpr int kWarpsM = pick_warps_m(), kWarpsN = kWarps / kWarpsM;
  static constexpr int kWarpM = BM / kWarpsM, kWarpN = BN / kWarpsN;
  static constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;

  // Shared memory: kStages buffers of A (BM x BK) and B (BK x BN, or BN x BK when transposed),
  // rows padded by 16 bytes.
  static constexpr int kPad = 16 / int(sizeof(T));
  static constexpr int kLdA = BK + kPad, kLdB = (BTransposed ? BK : BN) + kPad;
  static constexpr int kStageElems = BM * kLdA + (BTransposed ? BN : BK) * kLdB;
  static constexpr int kPipelineBytes = Stages * kStageElems * int(sizeof(T));
  // The accumulator passes through shared memory (as float) on the way in and out, rows padded
  // against bank conflicts (fragment_exchange.cuh): 4 floats for tf32 with an N-major B, whose
  // wgmma fragments are transposed, else 8.
  static constexpr int kExchangePad = !kSixteenBit && !BTransposed ? 4 : 8;
  static constexpr int kExchangeBytes = AccumulatorExchange<BM, BN, kExchangePad>::kBytes;
  static constexpr int kSmemBytes = kPipelineBytes > kExchangeBytes ? kPipelineBytes : kExchangeBytes;

  // On sm_90a the same loop runs on wgmma when the transpiler chose HopperStages (it does for
  // 256 threads, BM = 128, BN = 128 or 256, BK = 64 for 16-bit operands and 32 for tf32): two
  // warpgroups of 64 x BN each, one 128-byte swizzled line per operand row, unpadded stages on a
  // 1024-byte boundary. Its shared memory is kHopperSmemBytes (the launcher asks for it on sm_90).
  static constexpr int kHopperStages = HopperStages;
  static constexpr bool kWgmma = HopperStages >= 3;
  // tf32 with an N-major B (C^T = B^T A^T, below) also takes 256 x 128: wgmma N = BM = 256.
  static constexpr bool kTf32Wide = !kSixteenBit && !BTransposed && BM == 256 && BN == 128;
  static_assert(!kWgmma || (Threads == 256 && BK * int(sizeof(T)) == 128 &&
                            ((BM == 128 && (BN == 256 || BN == 128)) || kTf32Wide)),
                "the wgmma main loop handles 128 x {128, 256} tiles (and 256 x 128 for tf32 with an N-major B), K "
                "steps of one 128-byte line, on 256 threads");
  // tf32 wgmma reads shared-memory operands K-major only, and an N-major B is not. So for tf32
  // with an N-major B the loop computes C^T = B^T A^T (main_loop_wgmma_tf32): B^T is wgmma's A
  // operand, taken from registers (no major-ness constraint there), read from B's stage as it
  // lies in memory (rows of BN floats, padded by kPadBRegs floats so the reads are free of bank
  // conflicts); A's tile, one swizzled line per row, is exactly a K-major B operand of N = BM.
  static constexpr bool kTf32RegisterB = kWgmma && !kSixteenBit && !BTransposed;
  static constexpr int kPadBRegs = 8;
  static constexpr int kWgmmaStageBytes =
      kTf32RegisterB ? (BM * BK + BK * (BN + kPadBRegs)) * 4 : (BM * BK + BK * BN) * int(sizeof(T));
  static_assert(kWgmmaStageBytes % 1024 == 0, "every stage starts on a 1024-byte boundary (the swizzle's)");
  // The ring starts at the first 1024-byte boundary; behind it, the TMA loop's tma::TmaRing
  // (a "full" mbarrier and a count of the warps done with the stage, per stage).
  static constexpr int kRingBytes = HopperStages * kWgmmaStageBytes;
  static constexpr int kHopperSmemBytes =
      kRingBytes + 1024 + tma::kRingBytesPerStage * HopperStages > kExchangeBytes
          ? kRingBytes + 1024 + tma::kRingBytesPerStage * HopperStages
          : kExchangeBytes;
  static_assert(!kWgmma || kRingBytes >= kExchangeBytes, "the mbarriers lie behind the accumulator exchange");
};

#if !defined(__CUDACC_RTC__)  // the launcher's side (host code): not in NVRTC's view
// Host: the tensor maps main_loop_tma reads, for rank-2 operands on a device with TMA (compute
// capability 9+). The boxes are the transpiler's (src/emit/tensor_maps.cpp, which also writes
// them into the launch plan for the NVRTC launcher): A's BM x 64 and B's 64 x 64 (or B^T's
// BN x 64). `usable` stays 0 when either array cannot be described (then the kernel copies with
// cp.async).
template <class T, class I>
inline GemmTensorMaps gemm_tensor_maps(const Array<T, 2, I>& a, const Array<T, 2, I>& b, const uint32_t (&a_box)[2],
                                       const uint32_t (&b_box)[2], int compute_major) {
  GemmTensorMaps maps{};
  maps.usable = compute_major >= 9 &&
                tma::encode_map<T, 2>(maps.a, a.data, {a.shape[0], a.shape[1]}, {a.stride[0], a.stride[1]}, a_box) &&
                tma::encode_map<T, 2>(maps.b, b.data, {b.shape[0], b.shape[1]}, {b.stride[0], b.stride[1]}, b_box);
  return maps;
}
#endif  // !__CUDACC_RTC__

namespace gemm {

// A 2-D window of an array: the matrix a tile of rank >= 2 walks (leading dims fixed).
template <class T>
struct MatrixView {
  const T* data;  // element (0, 0)
  int64_t rows, cols, row_stride, col_stride;
  bool vector_rows;  // cols contiguous and every row 16-byte aligned: cp.async can be used
};

template <class T, int R, class I>
TILE2CU_DEVICE MatrixView<T> matrix_view(const Array<T, R, I>& a, const int64_t (&index)[R]) {
  const T* p = a.data;
  bool leading_in = true;
#pragma unroll
  for (int d = 0; d + 2 < R; ++d) {  // tile extent 1 along leading dims: index = position
    leading_in = leading_in && index[d] >= 0 && index[d] < int64_t(a.shape[d]);
    p += index[d] * int64_t(a.stride[d]);
  }
  MatrixView<T> v{p, leading_in ? int64_t(a.shape[R - 2]) : 0, int64_t(a.shape[R - 1]),
                  int64_t(a.stride[R - 2]), int64_t(a.stride[R - 1]), false};
  v.vector_rows = v.col_stride == 1 && reinterpret_cast<uintptr_t>(p) % 16 == 0 &&
                  (v.row_stride * int64_t(sizeof(T))) % 16 == 0;
  return v;
}

template <class Config>
TILE2CU_DEVICE AccumulatorExchange<Config::kBM, Config::kBN, Config::kExchangePad> accumulator_exchange(
    unsigned char* smem) {
  return {reinterpret_cast<float*>(smem)};
}

// True in every thread when every element of the accumulator is +0.0 (what ct.zeros gives): then
// the tile is not written to the exchange. The wgmma loops read their fragments all the same
// (garbage) and have their first wgmma overwrite them (scale-d 0); the mma.sync loop writes
// zeros where each thread's own fragment reads will look, a quarter of the bytes. Zeros moved or
// selected into wgmma fragments made ptxas serialize the wgmmas (warning C7515, splitk_atomic).
// Bits, not ==, so a -0.0 start keeps its sign. Also a barrier: earlier users of shared memory
// are done with it.
template <class TC, class LC>
TILE2CU_DEVICE bool accumulator_is_zero(const Tile<TC, LC>& acc) {
  bool zero = true;
#pragma unroll
  for (int s = 0; s < LC::kSlots; ++s)
    if (LC::owns(s)) zero = zero && __float_as_uint(convert<float>(acc.v[s])) == 0u;
  return __syncthreads_and(zero) != 0;
}

TILE2CU_DEVICE void cp_async_16(void* smem, const void* global, int bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(warp::smem_address(smem)), "l"(global),
               "r"(bytes));
}
TILE2CU_DEVICE void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int Pending>
TILE2CU_DEVICE void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending)); }

// Copies the Rows x Cols window at (row0, col0) of `m` into `dst` (leading dimension ld),
// zero-filling what lies outside the matrix. Every thread of the CTA takes part.
template <int Rows, int Cols, int Threads, class T>
TILE2CU_DEVICE void copy_tile_async(T* dst, int ld, const MatrixView<T>& m, int64_t row0, int64_t col0) {
  constexpr int kVec = 16 / int(sizeof(T));  // elements per 16-byte chunk
  constexpr int kChunksPerRow = Cols / kVec;
  constexpr int kChunks = Rows * kChunksPerRow;
  for (int c = int(threadIdx.x); c < kChunks; c += Threads) {
    const int r = c / kChunksPerRow, col = (c % kChunksPerRow) * kVec;
    const int64_t gr = row0 + r, gc = col0 + col;
    T* s = dst + r * ld + col;
    const bool row_in = gr >= 0 && gr < m.rows;
    if (m.vector_rows) {
      const int64_t left = row_in && gc < m.cols ? m.cols - gc : 0;
      const int bytes = left >= kVec ? 16 : int(left) * int(sizeof(T));
      const T* src = bytes > 0 ? m.data + gr * m.row_stride + gc : m.data;
      cp_async_16(s, src, bytes);
    } else {  // unaligned or strided rows: one element at a time
#pragma unroll
      for (int i = 0; i < kVec; ++i) {
        const bool in = row_in && gc + i < m.cols;
        s[i] = in ? m.data[gr * m.row_stride + (gc + i) * m.col_stride] : convert<T>(0);
      }
    }
  }
}

#if TILE2CU_HAS_WGMMA
// Copies the Rows x 64 window at (row0, col0) of `m` into 128-byte swizzled lines (one line per
// row), zero-filling what lies outside. Lines of 64 columns: `block_stride` bytes between blocks
// of 64 columns when Cols > 64 (B's N-major layout).
template <int Rows, int Cols, int Threads, class T>
TILE2CU_DEVICE void copy_tile_swizzled(unsigned char* dst, int block_stride, const MatrixView<T>& m, int64_t row0,
                                       int64_t col0) {
  constexpr int kVec = 16 / int(sizeof(T));
  constexpr int kChunksPerRow = Cols / kVec;
  constexpr int kChunks = Rows * kChunksPerRow;
  for (int c = int(threadIdx.x); c < kChunks; c += Threads) {
    const int r = c / kChunksPerRow, chunk = c % kChunksPerRow;
    const int block = chunk / 8, in_line = chunk % 8;
    unsigned char* s = dst + block * block_stride + wgmma::swizzle128(uint32_t(r * 128 + in_line * 16));
    const int64_t gr = row0 + r, gc = col0 + chunk * kVec;
    const bool row_in = gr >= 0 && gr < m.rows;
    if (m.vector_rows) {
      const int64_t left = row_in && gc < m.cols ? m.cols - gc : 0;
      const int bytes = left >= kVec ? 16 : int(left) * int(sizeof(T));
      cp_async_16(s, bytes > 0 ? m.data + gr * m.row_stride + gc : m.data, bytes);
    } else {
      T* e = reinterpret_cast<T*>(s);
#pragma unroll
      for (int i = 0; i < kVec; ++i) {
        const bool in = row_in && gc + i < m.cols;
        e[i] = in ? m.data[gr * m.row_stride + (gc + i) * m.col_stride] : convert<T>(0);
      }
    }
  }
}

// The wgmma loops' shared pieces. Stage layout: A (BM x 64, one swizzled line per row) then B
// (64 x BN as BN/64 blocks of 64 lines, or BN lines of B^T). Warpgroup g computes rows
// [64g, 64g + 64) into d[BN / 2] (the fragment layout wgmma.cuh describes).
template <class Config>
struct WgmmaStage {
  using T = typename Config::operand_type;
  static constexpr int kBytesA = Config::kBM * Config::kBK * int(sizeof(T));
  static constexpr int kBBlockBytes = Config::kBK * 128;  // one block of 64 columns of B
};

// The accumulator tile (blocked layout) -> this thread's wgmma fragment, through shared memory.
// d[4i + {0, 1, 2, 3}] = C at (row + {0, 0, 8, 8}, 8i + 2 (lane % 4) + {0, 1, 0, 1}) with
// row = 16 warp + lane / 4. Returns false when the tile is all +0.0 (what ct.zeros gives): then
// nothing is written to the exchange, the reads fetch whatever lies there, and the loop's first
// wgmma overwrites d (scale-d 0). The reads still run: d defined on one path only made ptxas
// serialize the wgmmas (warning C7515).
template <class Config, class TC, class LC>
TILE2CU_DEVICE bool accumulator_to_wgmma(float (&d)[Config::kBN / 2], const Tile<TC, LC>& acc, unsigned char* smem) {
  const auto exchange = accumulator_exchange<Config>(smem);
  const int lane = int(threadIdx.x) % 32, row = (int(threadIdx.x) / 32) * 16 + lane / 4;
  const bool loaded = !accumulator_is_zero(acc);
  if (loaded) {
    exchange.put(acc);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < Config::kBN / 8; ++i) exchange.load_fragment(row, i * 8 + 2 * (lane % 4), &d[4 * i]);
  __syncthreads();
  return loaded;
}

// After a loop that started from zero (accumulator_to_wgmma false) and ran no k-tile, the
// fragments `d` (an array of floats, of any rank) are still undefined: they are the zero tile.
template <class Fragments>
TILE2CU_DEVICE void zero_if_untouched(Fragments& d, bool loaded, int64_t tiles) {
  float* f = reinterpret_cast<float*>(&d);
  if (!loaded && tiles == 0)
#pragma unroll
    for (int i = 0; i < int(sizeof(Fragments) / sizeof(float)); ++i) f[i] = 0.0f;
}

// And back: the fragments -> the accumulator's blocked layout (call once all wgmma work is done).
template <class Config, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> wgmma_to_accumulator(const float (&d)[Config::kBN / 2], const Tile<TC, LC>& acc,
                                                 unsigned char* smem) {
  const auto exchange = accumulator_exchange<Config>(smem);
  const int lane = int(threadIdx.x) % 32, row = (int(threadIdx.x) / 32) * 16 + lane / 4;
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Config::kBN / 8; ++i) exchange.store_fragment(row, i * 8 + 2 * (lane % 4), &d[4 * i]);
  __syncthreads();
  const Tile<TC, LC> out = exchange.get(acc);
  __syncthreads();
  return out;
}

// The cp.async ring of the wgmma main loops: S stages, the first S - 2 k-tiles fetched before the
// loop (k-tile t + S - 2 goes out once t - 1's math is done, so one stage stays with the wgmma
// still reading it). One commit group per k-tile, empty or not, so the wait counts stay exact.
template <int S, class Fetch>
TILE2CU_DEVICE void fill_wgmma_ring(int64_t tiles, const Fetch& fetch) {
#pragma unroll
  for (int t = 0; t < S - 2; ++t) {
    if (t < tiles) fetch(t);
    cp_async_commit();
  }
}
// Before the math on k-tile t: it has landed (this thread's copies), is visible to the tensor
// cores, and everyone's has landed; past the barrier every warpgroup is done with t - 2.
template <int S>
TILE2CU_DEVICE void await_wgmma_stage() {
  cp_async_wait<S - 3>();
  wgmma::fence_shared_for_async();
  __syncthreads();
}

// Issues (does not wait for) this warpgroup's wgmmas of one k-tile held in `stage`; with
// `accumulate` false the first one overwrites d (a zero start's first k-tile).
template <class Config>
TILE2CU_DEVICE void wgmma_k_tile(float (&d)[Config::kBN / 2], const unsigned char* stage, bool accumulate = true) {
  using T = typename Config::operand_type;
  using S = WgmmaStage<Config>;
  const int group = int(threadIdx.x) / 128;
  wgmma::fence();
  if constexpr (!Config::kSixteenBit) {  // tf32 here has B stored transposed (B^T lines, K-major)
#pragma unroll
    for (int kk = 0; kk < Config::kBK; kk += 8) {
      const uint64_t da = wgmma::descriptor(stage + group * 64 * 128 + kk * 4, 16, 1024);
      const uint64_t db = wgmma::descriptor(stage + S::kBytesA + kk * 4, 16, 1024);
      wgmma::mma_64xNx8_tf32<Config::kBN>(d, da, db);
    }
  } else {
#pragma unroll
    for (int kk = 0; kk < Config::kBK; kk += 16) {
      // A: rows of this warpgroup, K offset kk (32 bytes a step inside the swizzled line);
      // 8-row groups 1024 bytes apart. B: k rows kk.., 64-column blocks kBBlockBytes apart.
      const uint64_t da = wgmma::descriptor(stage + group * 64 * 128 + kk * int(sizeof(T)), 16, 1024);
      const uint64_t db = Config::kBTransposed
                              ? wgmma::descriptor(stage + S::kBytesA + kk * int(sizeof(T)), 16, 1024)
                              : wgmma::descriptor(stage + S::kBytesA + kk * 128, S::kBBlockBytes, 1024);
      wgmma::mma_64xNx16<T, Config::kBN, Config::kBTransposed ? 0 : 1>(d, da, db, kk > 0 || accumulate);
    }
  }
  wgmma::commit();
}

// The main loop on wgmma (sm_90a), stages filled by cp.async from every thread: the path for
// arrays the copy engine cannot describe (see main_loop_tma below for the other).
template <class Config, class T, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> main_loop_wgmma(const MatrixView<T>& a, const MatrixView<T>& b, int64_t m0, int64_t n0,
                                            int64_t k_begin, int64_t tiles, const Tile<TC, LC>& acc,
                                            unsigned char* smem) {
  constexpr int BM = Config::kBM, BN = Config::kBN, BK = Config::kBK, S = Config::kHopperStages;
  constexpr int kBytesA = WgmmaStage<Config>::kBytesA, kBBlockBytes = WgmmaStage<Config>::kBBlockBytes;
  unsigned char* ring = smem + ((1024 - reinterpret_cast<uintptr_t>(smem) % 1024) % 1024);
  float d[BN / 2];
  const bool loaded = accumulator_to_wgmma<Config>(d, acc, smem);

  // The ring: S slots. While the tensor cores work on k-tile t (and may still finish t - 1),
  // tiles t + 1 .. t + S - 2 are in flight; the copies of t + S - 2 go into the slot t - 2 used.
  // Interior k-tiles (all but the ragged edges) copy through addresses worked out once here:
  // one add and one cp.async per 16-byte chunk, so issuing the copies stays cheap next to the
  // math. Edge tiles take copy_tile_swizzled, which checks every chunk.
  constexpr int kVec = 16 / int(sizeof(T));
  constexpr int kChunksA = BM * BK / kVec / Config::kThreads;
  constexpr int kChunksB = BK * BN / kVec / Config::kThreads;
  static_assert(kChunksA * kVec * Config::kThreads == BM * BK && kChunksB * kVec * Config::kThreads == BK * BN,
                "every thread copies the same number of chunks");
  uint32_t a_dst[kChunksA], b_dst[kChunksB];
  const T* a_src[kChunksA];
  const T* b_src[kChunksB];
#pragma unroll
  for (int i = 0; i < kChunksA; ++i) {
    const int c = int(threadIdx.x) + i * Config::kThreads, r = c / (BK / kVec), chunk = c % (BK / kVec);
    a_dst[i] = wgmma::swizzle128(uint32_t(r * 128 + chunk * 16));
    a_src[i] = a.data + (m0 + r) * a.row_stride + chunk * kVec;
  }
#pragma unroll
  for (int i = 0; i < kChunksB; ++i) {
    const int c = int(threadIdx.x) + i * Config::kThreads;
    if constexpr (Config::kBTransposed) {  // lines are rows of B^T, like A's
      const int r = c / (BK / kVec), chunk = c % (BK / kVec);
      b_dst[i] = uint32_t(kBytesA) + wgmma::swizzle128(uint32_t(r * 128 + chunk * 16));
      b_src[i] = b.data + (n0 + r) * b.row_stride + chunk * kVec;
    } else {
      const int r = c / (BN / kVec), chunk = c % (BN / kVec);
      b_dst[i] = uint32_t(kBytesA + (chunk / 8) * kBBlockBytes) + wgmma::swizzle128(uint32_t(r * 128 + (chunk % 8) * 16));
      b_src[i] = b.data + r * b.row_stride + n0 + chunk * kVec;
    }
  }
  const bool rows_inside = a.vector_rows && b.vector_rows && m0 + BM <= a.rows &&
                           (Config::kBTransposed ? n0 + BN <= b.rows : n0 + BN <= b.cols);
  auto fetch = [&](int64_t t) {
    unsigned char* stage = ring + int(t % S) * Config::kWgmmaStageBytes;
    const int64_t k0 = (k_begin + t) * BK;
    const bool k_inside = k0 >= 0 && k0 + BK <= a.cols && k0 + BK <= (Config::kBTransposed ? b.cols : b.rows);
    if (rows_inside && k_inside) {
#pragma unroll
      for (int i = 0; i < kChunksA; ++i) cp_async_16(stage + a_dst[i], a_src[i] + k0, 16);
      const int64_t b_step = Config::kBTransposed ? k0 : k0 * b.row_stride;
#pragma unroll
      for (int i = 0; i < kChunksB; ++i) cp_async_16(stage + b_dst[i], b_src[i] + b_step, 16);
    } else {
      copy_tile_swizzled<BM, BK, Config::kThreads>(stage, 0, a, m0, k0);
      if constexpr (Config::kBTransposed) copy_tile_swizzled<BN, BK, Config::kThreads>(stage + kBytesA, 0, b, n0, k0);
      else copy_tile_swizzled<BK, BN, Config::kThreads>(stage + kBytesA, kBBlockBytes, b, k0, n0);
    }
  };
  fill_wgmma_ring<S>(tiles, fetch);
  for (int64_t t = 0; t < tiles; ++t) {
    await_wgmma_stage<S>();
    wgmma_k_tile<Config>(d, ring + int(t % S) * Config::kWgmmaStageBytes, t > 0 || loaded);
    wgmma::wait<1>();  // k-tile t - 1's math is done (t's may still run)
    if (t + S - 2 < tiles) fetch(t + S - 2);
    cp_async_commit();
  }
  wgmma::wait<0>();
  cp_async_wait<0>();
  zero_if_untouched(d, loaded, tiles);
  return wgmma_to_accumulator<Config>(d, acc, smem);
}

// tf32 with an N-major B on wgmma (Config::kTf32RegisterB): the loop computes C^T = B^T A^T.
//   * wgmma's A operand is B^T (N x K), from registers. B's k-tile lies in its stage as in memory,
//     BK rows of BN floats, each row padded by kPadBRegs floats (so 16-byte cp.async copies it).
//     Thread (warp w of warpgroup g, lane) needs B[k][n] for k = lane % 4 (+ 4) and n = n_g +
//     16w + lane / 4 (+ 8): the bank of k * (BN + 8) + n is 8k + n mod 32, a different one for
//     each lane, so the 32-bit reads are free of conflicts. Each value is rounded to tf32
//     (to nearest even, as astype(ct.tfloat32) does).
//   * wgmma's B operand is A^T (K x BM): A's tile, one 128-byte swizzled line per row of A, is a
//     K-major operand of N = BM as it is (the tensor cores read its raw f32 bits: the low 13
//     mantissa bits are dropped, not rounded).
//   * Warpgroup g owns columns [g BN / 2, (g + 1) BN / 2) of C, in slabs of 64 (one m64n128k8
//     per slab and 8-deep k step), and all BM rows: its accumulator holds C^T fragments, which
//     the exchange with the blocked tile writes back transposed.
#ifndef TILE2CU_TF32_PAIRED_COLUMNS
#define TILE2CU_TF32_PAIRED_COLUMNS 0
#endif
#ifndef TILE2CU_TF32_FRAGMENT_WAIT
#define TILE2CU_TF32_FRAGMENT_WAIT 2
#endif
template <class Config>
struct Tf32RegisterB {
  static constexpr int kLdB = Config::kBN + Config::kPadBRegs;      // floats per row of B's stage
  static constexpr int kBytesA = Config::kBM * Config::kBK * 4;     // A's tile, then B's
  static constexpr int kSlabs = Config::kBN / 128;                  // 64-column slabs per warpgroup
  static constexpr int kFrag = Config::kBM / 2;                     // accumulator floats per slab
  static_assert(Config::kBM == 128 || Config::kBM == 256, "one m64nBMk8 per slab: N = BM = 128 or 256");
  // Which column of C wgmma row 16w + r (r < 16) of slab j stands for is ours to choose, as long as
  // the fragment reads and the accumulator exchange agree. Paired (the default): rows r and r + 8
  // (a thread's a[0] / a[1], d[4i] / d[4i + 2]) are columns 2r and 2r + 1, so one 64-bit LDS
  // reads both (banks 8k + 2 (lane / 4) + {0, 1}: a half-warp's 16 loads fill the 32 banks once).
  // Unpaired: row r is column r (two 32-bit LDS, columns c and c + 8).
  static constexpr int kPair = TILE2CU_TF32_PAIRED_COLUMNS ? 1 : 8;  // column of a[1] minus column of a[0]
  // This thread's first column of C (the C^T row of its a[0] / d[4i]) in slab j.
  TILE2CU_DEVICE static int column(int j) {
    const int t = int(threadIdx.x);
    return (t / 128) * (Config::kBN / 2) + 64 * j + ((t / 32) % 4) * 16 + ((t % 32) / 4) * (kPair == 1 ? 2 : 1);
  }
};

// d[j][4i + {0, 1, 2, 3}] = C^T at (column(j) + {0, 0, 8, 8}, 8i + 2 (lane % 4) + {0, 1, 0, 1}):
// the accumulator tile (blocked layout) -> this thread's fragments, through shared memory; false
// for an all-zero tile, as accumulator_to_wgmma ...
template <class Config, class TC, class LC>
TILE2CU_DEVICE bool accumulator_to_wgmma_transposed(float (&d)[Tf32RegisterB<Config>::kSlabs][Tf32RegisterB<Config>::kFrag],
                                                     const Tile<TC, LC>& acc, unsigned char* smem) {
  using R = Tf32RegisterB<Config>;
  const auto exchange = accumulator_exchange<Config>(smem);
  const int q = int(threadIdx.x) % 4;
  const bool loaded = !accumulator_is_zero(acc);
  if (loaded) {
    exchange.put(acc);
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < R::kSlabs; ++j)
#pragma unroll
    for (int i = 0; i < Config::kBM / 8; ++i) {
      const float* c0 = exchange.at(8 * i + 2 * q, R::column(j));
      const float* c1 = exchange.at(8 * i + 2 * q + 1, R::column(j));
      d[j][4 * i] = c0[0], d[j][4 * i + 1] = c1[0], d[j][4 * i + 2] = c0[R::kPair], d[j][4 * i + 3] = c1[R::kPair];
    }
  __syncthreads();
  return loaded;
}

// ... and back (once all wgmma work is done).
template <class Config, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> wgmma_transposed_to_accumulator(
    const float (&d)[Tf32RegisterB<Config>::kSlabs][Tf32RegisterB<Config>::kFrag], const Tile<TC, LC>& acc,
    unsigned char* smem) {
  using R = Tf32RegisterB<Config>;
  const auto exchange = accumulator_exchange<Config>(smem);
  const int q = int(threadIdx.x) % 4;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < R::kSlabs; ++j)
#pragma unroll
    for (int i = 0; i < Config::kBM / 8; ++i) {
      float* c0 = exchange.at(8 * i + 2 * q, R::column(j));
      float* c1 = exchange.at(8 * i + 2 * q + 1, R::column(j));
      c0[0] = d[j][4 * i], c1[0] = d[j][4 * i + 1], c0[R::kPair] = d[j][4 * i + 2], c1[R::kPair] = d[j][4 * i + 3];
    }
  __syncthreads();
  const Tile<TC, LC> out = exchange.get(acc);
  __syncthreads();
  return out;
}

// The tf32 main loop on wgmma with B from registers (see Tf32RegisterB), stages filled by
// cp.async from every thread, the same ring as main_loop_wgmma: while the tensor cores work on
// k-tile t (and may still finish t - 1), tiles t + 1 .. t + S - 2 are in flight.
template <class Config, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> main_loop_wgmma_tf32(const MatrixView<float>& a, const MatrixView<float>& b, int64_t m0,
                                                 int64_t n0, int64_t k_begin, int64_t tiles, const Tile<TC, LC>& acc,
                                                 unsigned char* smem) {
  using R = Tf32RegisterB<Config>;
  constexpr int BM = Config::kBM, BN = Config::kBN, BK = Config::kBK, S = Config::kHopperStages;
  constexpr int kLdB = R::kLdB, kBytesA = R::kBytesA;
  unsigned char* ring = smem + ((1024 - reinterpret_cast<uintptr_t>(smem) % 1024) % 1024);
  float d[R::kSlabs][R::kFrag];
  const bool loaded = accumulator_to_wgmma_transposed<Config>(d, acc, smem);

  // Interior k-tiles copy through addresses worked out once: A's 16-byte chunks into swizzled
  // lines, B's into its padded rows. Edge tiles check every chunk (zero fill, element copies).
  constexpr int kChunksA = BM * BK / 4 / Config::kThreads, kChunksB = BK * BN / 4 / Config::kThreads;
  static_assert(kChunksA * 4 * Config::kThreads == BM * BK && kChunksB * 4 * Config::kThreads == BK * BN,
                "every thread copies the same number of chunks");
  uint32_t a_dst[kChunksA], b_dst[kChunksB];
  const float* a_src[kChunksA];
  const float* b_src[kChunksB];
#pragma unroll
  for (int i = 0; i < kChunksA; ++i) {
    const int c = int(threadIdx.x) + i * Config::kThreads, r = c / (BK / 4), chunk = c % (BK / 4);
    a_dst[i] = wgmma::swizzle128(uint32_t(r * 128 + chunk * 16));
    a_src[i] = a.data + (m0 + r) * a.row_stride + chunk * 4;
  }
#pragma unroll
  for (int i = 0; i < kChunksB; ++i) {
    const int c = int(threadIdx.x) + i * Config::kThreads, r = c / (BN / 4), col = (c % (BN / 4)) * 4;
    b_dst[i] = uint32_t(kBytesA + (r * kLdB + col) * 4);
    b_src[i] = b.data + r * b.row_stride + n0 + col;
  }
  const bool rows_inside = a.vector_rows && b.vector_rows && m0 + BM <= a.rows && n0 + BN <= b.cols;
  auto fetch = [&](int64_t t) {
    unsigned char* stage = ring + int(t % S) * Config::kWgmmaStageBytes;
    const int64_t k0 = (k_begin + t) * BK;
    if (rows_inside && k0 >= 0 && k0 + BK <= a.cols && k0 + BK <= b.rows) {
#pragma unroll
      for (int i = 0; i < kChunksA; ++i) cp_async_16(stage + a_dst[i], a_src[i] + k0, 16);
      const int64_t b_step = k0 * b.row_stride;
#pragma unroll
      for (int i = 0; i < kChunksB; ++i) cp_async_16(stage + b_dst[i], b_src[i] + b_step, 16);
    } else {
      copy_tile_swizzled<BM, BK, Config::kThreads>(stage, 0, a, m0, k0);
      copy_tile_async<BK, BN, Config::kThreads>(reinterpret_cast<float*>(stage + kBytesA), kLdB, b, k0, n0);
    }
  };

  // This thread's fragment reads: B[q][column(0)] of the stage, q = lane % 4.
  const int b_read = (int(threadIdx.x) % 4) * kLdB + R::column(0);
  fill_wgmma_ring<S>(tiles, fetch);
  for (int64_t t = 0; t < tiles; ++t) {
    await_wgmma_stage<S>();
    const unsigned char* stage = ring + int(t % S) * Config::kWgmmaStageBytes;
    const float* sb = reinterpret_cast<const float*>(stage + kBytesA) + b_read;
    // A wgmma's register operand must stay as it is until a wait_group covers that wgmma (PTX
    // ISA: writing it earlier is undefined; with m64n256k8 the overwrite gave wrong results).
    // TILE2CU_TF32_FRAGMENT_WAIT 2 (default): this warpgroup's k-tile t - 1 is waited for entirely
    // before t's fragments are read; the other warpgroup's math keeps the tensor cores busy
    // meanwhile (measured fastest, v12). 1: each 8-deep k step is its own commit group and
    // fa[kk] waits only for step kk of t - 1 (three groups issued since): correct, but slower.
    uint32_t fa[BK / 8][R::kSlabs][4];
    auto read_fragments = [&](int kk) {
#pragma unroll
      for (int j = 0; j < R::kSlabs; ++j) {
        const float* p = sb + 8 * kk * kLdB + 64 * j;
        if constexpr (R::kPair == 1) {
          const float2 lo = *reinterpret_cast<const float2*>(p), hi = *reinterpret_cast<const float2*>(p + 4 * kLdB);
          fa[kk][j][0] = __float_as_uint(round_to_tf32(lo.x));
          fa[kk][j][1] = __float_as_uint(round_to_tf32(lo.y));
          fa[kk][j][2] = __float_as_uint(round_to_tf32(hi.x));
          fa[kk][j][3] = __float_as_uint(round_to_tf32(hi.y));
        } else {
          fa[kk][j][0] = __float_as_uint(round_to_tf32(p[0]));
          fa[kk][j][1] = __float_as_uint(round_to_tf32(p[8]));
          fa[kk][j][2] = __float_as_uint(round_to_tf32(p[4 * kLdB]));
          fa[kk][j][3] = __float_as_uint(round_to_tf32(p[4 * kLdB + 8]));
        }
      }
    };
    auto step = [&](int kk) {  // A^T: all BM lines of A's tile, K offset 8 kk (32 bytes into each line)
      const uint64_t db = wgmma::descriptor(stage + kk * 32, 16, 1024);
#pragma unroll
      for (int j = 0; j < R::kSlabs; ++j) wgmma::mma_64xNx8_tf32_rs<BM>(d[j], fa[kk][j], db, t > 0 || kk > 0 || loaded);
    };
#if TILE2CU_TF32_FRAGMENT_WAIT == 2
    wgmma::wait<0>();
#pragma unroll
    for (int kk = 0; kk < BK / 8; ++kk) read_fragments(kk);
    wgmma::fence();
#pragma unroll
    for (int kk = 0; kk < BK / 8; ++kk) step(kk);
    wgmma::commit();
#else
#pragma unroll
    for (int kk = 0; kk < BK / 8; ++kk) {
      wgmma::wait<BK / 8 - 1>();  // step kk of k-tile t - 1 is done with fa[kk]
      read_fragments(kk);
      wgmma::fence();  // the fragments (and the accumulators) are written before the wgmmas read them
      step(kk);
      wgmma::commit();
    }
#endif
    // Here k-tile t - 1's math is done (its last step was waited for above), so with the barrier
    // at the top every warpgroup is done with t - 2's slot.
    if (t + S - 2 < tiles) fetch(t + S - 2);
    cp_async_commit();
  }
  wgmma::wait<0>();
  cp_async_wait<0>();
  zero_if_untouched(d, loaded, tiles);
  return wgmma_transposed_to_accumulator<Config>(d, acc, smem);
}

// The main loop on wgmma fed by the copy engine (TMA). Thread 0 issues one bulk tensor copy per
// operand box (A: BM x 64; B: BN/64 boxes of 64 x 64, or one BN x 64 box of B^T) into a ring of
// S stages (tma::TmaRing); the copy engine swizzles them as wgmma reads them and zero-fills what
// lies outside the arrays. Every thread waits for a stage's bytes before its math; the last warp
// done with a stage refills it. The copy of k-tile t + S - 1 goes out as soon as t - 1's math is
// done, so S - 1 tiles are in flight while the tensor cores work.
template <class Config, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> main_loop_tma(const GemmTensorMaps& maps, int64_t m0, int64_t n0, int64_t k_begin,
                                          int64_t tiles, const Tile<TC, LC>& acc, unsigned char* smem) {
  constexpr int BN = Config::kBN, BK = Config::kBK, S = Config::kHopperStages;
  constexpr int kBytesA = WgmmaStage<Config>::kBytesA, kBBlockBytes = WgmmaStage<Config>::kBBlockBytes;
  unsigned char* ring = smem + ((1024 - reinterpret_cast<uintptr_t>(smem) % 1024) % 1024);
  const tma::TmaRing<S, Config::kThreads / 32> slots(ring + Config::kRingBytes);
  const bool producer = threadIdx.x == 0;
  float d[BN / 2];
  const bool loaded = accumulator_to_wgmma<Config>(d, acc, smem);

  if (producer) slots.init();
  wgmma::fence_shared_for_async();  // the exchange's ordinary accesses come before the copies into the ring
  __syncthreads();

  auto fetch = [&](int64_t t) {  // thread 0: k-tile t into slot t % S
    unsigned char* stage = ring + int(t % S) * Config::kWgmmaStageBytes;
    uint64_t* bar = slots.expect(t, Config::kWgmmaStageBytes);
    const int32_t k0 = int32_t((k_begin + t) * BK);
    tma::load_box<2>(stage, &maps.a, {k0, int32_t(m0)}, bar);
    if constexpr (Config::kBTransposed) {
      tma::load_box<2>(stage + kBytesA, &maps.b, {k0, int32_t(n0)}, bar);
    } else {
#pragma unroll
      for (int j = 0; j < BN / 64; ++j) tma::load_box<2>(stage + kBytesA + j * kBBlockBytes, &maps.b, {int32_t(n0) + 64 * j, k0}, bar);
    }
  };
  if (producer)
    for (int64_t t = 0; t < S && t < tiles; ++t) fetch(t);

  for (int64_t t = 0; t < tiles; ++t) {
    slots.wait(t);
    wgmma_k_tile<Config>(d, ring + int(t % S) * Config::kWgmmaStageBytes, t > 0 || loaded);
    wgmma::wait<1>();  // k-tile t - 1's math is done (t's may still run): its slot can be refilled
    if (t >= 1 && threadIdx.x % 32 == 0 && slots.release(t - 1) && t - 1 + S < tiles) fetch(t - 1 + S);
    __syncwarp();  // the warp converges again before its next wgmma
  }
  wgmma::wait<0>();
  __syncthreads();  // every copy has landed and every warp is past the barriers
  if (producer) slots.inval();
  zero_if_untouched(d, loaded, tiles);
  return wgmma_to_accumulator<Config>(d, acc, smem);
}
#endif  // TILE2CU_HAS_WGMMA

}  // namespace gemm

template <class Config, class TA, int RA, class IA, class TB, int RB, class IB, class TC, class LC>
TILE2CU_DEVICE Tile<TC, LC> gemm_main_loop(const Array<TA, RA, IA>& A, const int64_t (&a_index)[RA],
                                           const Array<TB, RB, IB>& B, const int64_t (&b_index)[RB],
                                           int64_t k_begin, int64_t k_end, const Tile<TC, LC>& acc,
                                           unsigned char* smem, const GemmTensorMaps* maps = nullptr) {
  using T = typename Config::operand_type;
  constexpr int BM = Config::kBM, BN = Config::kBN, BK = Config::kBK, S = Config::kStages;
  static_assert(std::is_same_v<TA, T> && std::is_same_v<TB, T>, "operands are stored as they are loaded");
  static_assert(LC::kElems == BM * BN, "the accumulator is the BM x BN output tile");
#if TILE2CU_HAS_WGMMA
  if constexpr (Config::kWgmma) {
    const int64_t tiles = k_end > k_begin ? k_end - k_begin : 0;
    if constexpr (Config::kTf32RegisterB) {
      return gemm::main_loop_wgmma_tf32<Config>(gemm::matrix_view(A, a_index), gemm::matrix_view(B, b_index),
                                                a_index[RA - 2] * BM, b_index[RB - 1] * BN, k_begin, tiles, acc, smem);
    } else {
      if constexpr (RA == 2 && RB == 2)
        if (maps != nullptr && maps->usable)
          return gemm::main_loop_tma<Config>(*maps, a_index[0] * BM, b_index[1] * BN, k_begin, tiles, acc, smem);
      return gemm::main_loop_wgmma<Config>(gemm::matrix_view(A, a_index), gemm::matrix_view(B, b_index),
                                           a_index[RA - 2] * BM, b_index[RB - 1] * BN, k_begin, tiles, acc, smem);
    }
  }
#endif
  const int warp_id = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const int warp_row = (warp_id / Config::kWarpsN) * Config::kWarpM;
  const int warp_col = (warp_id % Config::kWarpsN) * Config::kWarpN;
  // 1. Accumulator: blocked layout -> shared memory -> this warp's fragments.
  const auto exchange = gemm::accumulator_exchange<Config>(smem);
  float frag[Config::kFragsM][Config::kFragsN][4];
  const bool zero = gemm::accumulator_is_zero(acc);  // zeros for the fragment reads (see there)
  if (!zero) exchange.put(acc);
  const float zeros[4] = {};
#pragma unroll
  for (int i = 0; i < Config::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < Config::kFragsN && zero; ++j)
      exchange.store_fragment(warp_row + i * 16 + lane / 4, warp_col + j * 8 + 2 * (lane % 4), zeros);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Config::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < Config::kFragsN; ++j)
      exchange.load_fragment(warp_row + i * 16 + lane / 4, warp_col + j * 8 + 2 * (lane % 4), frag[i][j]);
  __syncthreads();

  // 2. The pipeline: stage s of the ring holds A then B of one k-tile.
  T* ring = reinterpret_cast<T*>(smem);
  const gemm::MatrixView<TA> a = gemm::matrix_view(A, a_index);
  const gemm::MatrixView<TB> b = gemm::matrix_view(B, b_index);
  const int64_t m0 = a_index[RA - 2] * BM, n0 = b_index[RB - 1] * BN;
  const int64_t tiles = k_end > k_begin ? k_end - k_begin : 0;
  // As in the wgmma loop: interior k-tiles copy through addresses worked out once.
  constexpr int kVec = 16 / int(sizeof(T));
  constexpr int kChunksA = BM * BK / kVec / Config::kThreads, kChunksB = BK * BN / kVec / Config::kThreads;
  constexpr bool kEvenChunks = kChunksA * kVec * Config::kThreads == BM * BK && kChunksB * kVec * Config::kThreads == BK * BN;
  int a_dst[kEvenChunks ? kChunksA : 1], b_dst[kEvenChunks ? kChunksB : 1];
  const T* a_src[kEvenChunks ? kChunksA : 1];
  const T* b_src[kEvenChunks ? kChunksB : 1];
  if constexpr (kEvenChunks) {
#pragma unroll
    for (int i = 0; i < kChunksA; ++i) {
      const int c = int(threadIdx.x) + i * Config::kThreads, r = c / (BK / kVec), col = (c % (BK / kVec)) * kVec;
      a_dst[i] = r * Config::kLdA + col;
      a_src[i] = a.data + (m0 + r) * a.row_stride + col;
    }
#pragma unroll
    for (int i = 0; i < kChunksB; ++i) {
      const int c = int(threadIdx.x) + i * Config::kThreads;
      if constexpr (Config::kBTransposed) {
        const int r = c / (BK / kVec), col = (c % (BK / kVec)) * kVec;
        b_dst[i] = BM * Config::kLdA + r * Config::kLdB + col;
        b_src[i] = b.data + (n0 + r) * b.row_stride + col;
      } else {
        const int r = c / (BN / kVec), col = (c % (BN / kVec)) * kVec;
        b_dst[i] = BM * Config::kLdA + r * Config::kLdB + col;
        b_src[i] = b.data + r * b.row_stride + n0 + col;
      }
    }
  }
  const bool rows_inside = kEvenChunks && a.vector_rows && b.vector_rows && m0 + BM <= a.rows &&
                           (Config::kBTransposed ? n0 + BN <= b.rows : n0 + BN <= b.cols);
  auto fetch = [&](int64_t t) {  // k-tile t (0-based) into its ring slot
    T* stage = ring + int(t % S) * Config::kStageElems;
    const int64_t k0 = (k_begin + t) * BK;
    const bool k_inside = k0 >= 0 && k0 + BK <= a.cols && k0 + BK <= (Config::kBTransposed ? b.cols : b.rows);
    if (rows_inside && k_inside) {
#pragma unroll
      for (int i = 0; i < (kEvenChunks ? kChunksA : 0); ++i) gemm::cp_async_16(stage + a_dst[i], a_src[i] + k0, 16);
      const int64_t b_step = Config::kBTransposed ? k0 : k0 * b.row_stride;
#pragma unroll
      for (int i = 0; i < (kEvenChunks ? kChunksB : 0); ++i) gemm::cp_async_16(stage + b_dst[i], b_src[i] + b_step, 16);
    } else {
      gemm::copy_tile_async<BM, BK, Config::kThreads>(stage, Config::kLdA, a, m0, k0);
      if constexpr (Config::kBTransposed)
        gemm::copy_tile_async<BN, BK, Config::kThreads>(stage + BM * Config::kLdA, Config::kLdB, b, n0, k0);
      else
        gemm::copy_tile_async<BK, BN, Config::kThreads>(stage + BM * Config::kLdA, Config::kLdB, b, k0, n0);
    }
  };
#pragma unroll
  for (int t = 0; t < S - 1; ++t) {
    if (t < tiles) fetch(t);
    gemm::cp_async_commit();  // one group per k-tile, empty or not, so the wait counts stay exact
  }
  for (int64_t t = 0; t < tiles; ++t) {
    gemm::cp_async_wait<S - 2>();  // k-tile t has landed (this thread's part) ...
    __syncthreads();               // ... and everyone's; also, slot (t - 1) % S is free again
    if (t + S - 1 < tiles) fetch(t + S - 1);
    gemm::cp_async_commit();
    const T* sa = ring + int(t % S) * Config::kStageElems + warp_row * Config::kLdA;
    const T* sb = ring + int(t % S) * Config::kStageElems + BM * Config::kLdA +
                  (Config::kBTransposed ? warp_col * Config::kLdB : warp_col);
    if constexpr (Config::kSixteenBit) {
#pragma unroll
      for (int kk = 0; kk < BK; kk += 16) {
        uint32_t fa[Config::kFragsM][4], fb[Config::kFragsN][2];
#pragma unroll
        for (int i = 0; i < Config::kFragsM; ++i)
          warp::ldmatrix_x4(fa[i], sa + (i * 16 + lane % 16) * Config::kLdA + kk + (lane / 16) * 8);
#pragma unroll
        for (int j = 0; j < Config::kFragsN; j += 2) {  // two 8-column B fragments per ldmatrix
          uint32_t r[4];
          if constexpr (Config::kBTransposed)  // rows of B^T are B's columns: no transpose needed
            warp::ldmatrix_x4(r, sb + (j * 8 + lane % 8 + (lane / 16) * 8) * Config::kLdB + kk + ((lane / 8) % 2) * 8);
          else
            warp::ldmatrix_x4_trans(r, sb + (kk + lane % 8 + ((lane / 8) % 2) * 8) * Config::kLdB + j * 8 + (lane / 16) * 8);
          fb[j][0] = r[0], fb[j][1] = r[1], fb[j + 1][0] = r[2], fb[j + 1][1] = r[3];
        }
#pragma unroll
        for (int i = 0; i < Config::kFragsM; ++i)
#pragma unroll
          for (int j = 0; j < Config::kFragsN; ++j) warp::mma_16x8x16<T>(frag[i][j], fa[i], fb[j]);
      }
    } else {  // tf32: fragments read straight from shared memory, rounded as astype(tfloat32) does
      const int g = lane / 4, q = lane % 4;
#pragma unroll
      for (int kk = 0; kk < BK; kk += 8) {
        uint32_t fa[Config::kFragsM][4], fb[Config::kFragsN][2];
#pragma unroll
        for (int i = 0; i < Config::kFragsM; ++i) {
          const float* p = sa + (i * 16 + g) * Config::kLdA + kk + q;
          fa[i][0] = __float_as_uint(round_to_tf32(p[0]));
          fa[i][1] = __float_as_uint(round_to_tf32(p[8 * Config::kLdA]));
          fa[i][2] = __float_as_uint(round_to_tf32(p[4]));
          fa[i][3] = __float_as_uint(round_to_tf32(p[8 * Config::kLdA + 4]));
        }
#pragma unroll
        for (int j = 0; j < Config::kFragsN; ++j) {
          const int step = Config::kBTransposed ? 1 : Config::kLdB;  // between neighbouring k
          const float* p = Config::kBTransposed ? sb + (j * 8 + g) * Config::kLdB + kk + q : sb + (kk + q) * Config::kLdB + j * 8 + g;
          fb[j][0] = __float_as_uint(round_to_tf32(p[0]));
          fb[j][1] = __float_as_uint(round_to_tf32(p[4 * step]));
        }
#pragma unroll
        for (int i = 0; i < Config::kFragsM; ++i)
#pragma unroll
          for (int j = 0; j < Config::kFragsN; ++j) warp::mma_16x8x8_tf32(frag[i][j], fa[i], fb[j]);
      }
    }
  }
  gemm::cp_async_wait<0>();
  __syncthreads();  // the ring is about to become the exchange buffer

  // 3. Fragments -> shared memory -> the accumulator's blocked layout.
#pragma unroll
  for (int i = 0; i < Config::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < Config::kFragsN; ++j)
      exchange.store_fragment(warp_row + i * 16 + lane / 4, warp_col + j * 8 + 2 * (lane % 4), frag[i][j]);
  __syncthreads();
  const Tile<TC, LC> out = exchange.get(acc);
  __syncthreads();  // the next user of the buffer may overwrite it
  return out;
}

}  // namespace tile2cu
