// tile2cu/attention_pipeline.cuh: the main loop a recognised flash-attention loop becomes.
//
// The transpiler recognises, in the Tile IR (src/ir/passes/attention_loop.hpp),
//
//     for j in range(j_begin, j_end):                        carried m, l, acc (float32)
//         k = ct.load(K, index=(.., 0, j), shape=(.., D, BN), order=(.., 2, 1))   # K^T tile
//         s = ct.mma(q, k, zeros)                             # q: BM x D, loaded before the loop
//         s = <elementwise ops on s, its row and column, j>   # scale, masks, ...
//         m_new = ct.maximum(m, ct.max(s, axis=1))
//         p = ct.exp2(s - m_new);  alpha = ct.exp2(m - m_new)   (or ct.exp)
//         l = l * alpha + ct.sum(p, axis=1)
//         v = ct.load(V, index=(.., j, 0), shape=(.., BN, D))
//         acc = ct.mma(p.astype(T), v, acc * alpha);  m = m_new
//
// and replaces it with one call, attention_main_loop<Config>(K, k_index, V, v_index, j_begin,
// j_end, q, m, l, acc, mask, score, smem), where `score(s, row, col, j, interior)` is the
// elementwise part as a lambda (row, col: the element's place in the BM x BN score tile) and
// `mask(row, col, j)` the conjunction of the score's affine masks (causal, sequence end), which
// hold on a whole tile iff they hold at its corners (src/ir/passes/attention_mask.hpp): on such
// an interior tile the score runs with interior = true and its masks fold away.
// What it does (FlashAttention-2):
//
//   * Each warp owns kWarpRows rows of the BM query rows. m, l and acc move from the tiles'
//     blocked layouts into mma.sync fragments once (through shared memory) and stay in registers;
//     q stays in shared memory, its fragments read at each step (registers go to S and acc).
//   * K and V tiles go through a ring of kStages shared-memory buffers that cp.async fills while
//     the tensor cores work on earlier ones (rows padded by 16 bytes: ldmatrix without bank
//     conflicts). Out-of-bounds rows are zero-filled, as padding_mode=ZERO says.
//   * S = q K^T lands in registers; the online softmax works on them directly (row max and sum
//     over the four lanes that share a row: two shuffles); P is rounded to T in registers and is
//     the A operand of the second mma as it stands (a C fragment pair is an A fragment). V is
//     read with ldmatrix.trans (its rows are keys, D contiguous).
//   * At the end m, l, acc go back to their blocked layouts, so the epilogue (acc / l, the store)
//     is ordinary tile code.
//
// The exponentials are the approximate ex2 (2 ulp, flush to zero), as flash-attention kernels use;
// the general path's exp2f is exact to 1 ulp. The row max ignores NaN (fmaxf), as ct.max does.
//
// It runs on sm_80 and up (mma.sync; Hopper runs it too). On sm_90a the math is wgmma
// (main_loop_wgmma), and when the launcher's tensor maps describe K and V the copy engine (TMA)
// fills the ring: one thread issues the copies, mbarriers say when a stage has landed, and no
// block barrier runs per key tile.
#pragma once

#include "array.cuh"
#include "gemm_pipeline.cuh"
#include "math.cuh"
#include "mma_warp.cuh"
#include "tile.cuh"
#include "wgmma_shapes.cuh"

namespace tile2cu {

// One attention main-loop configuration: operand type (__half or __nv_bfloat16), the BM x BN
// score tile, head dim D, the K/V ring depth, the CTA's threads, and whether the softmax uses
// exp2 (else exp).
template <class T, int BM, int BN, int D, int Stages, int Threads, bool Exp2>
struct AttentionMainLoop {
  using operand_type = T;
  static constexpr int kBM = BM, kBN = BN, kD = D, kStages = Stages, kThreads = Threads;
  static constexpr bool kExp2 = Exp2;
  static_assert(is_half_like_v<T>, "attention main loop: f16 or bf16 operands");
  static_assert(Stages >= 2, "a pipeline needs at least two stages");
  static_assert(BN % 16 == 0 && D % 16 == 0, "BN and D must be multiples of 16");
  static constexpr int kWarps = Threads / 32;
  static constexpr int kWarpRows = BM / kWarps;  // query rows per warp
  static_assert(kWarpRows % 16 == 0 && kWarpRows * kWarps == BM, "each warp owns a multiple of 16 query rows");
  static constexpr int kFragsM = kWarpRows / 16;

  // Shared memory: q (BM x D), then kStages stages of K (BN x D) and V (BN x D); rows padded by
  // 16 bytes. The float exchange of acc, m and l at entry and exit reuses the ring.
  static constexpr int kLd = D + 16 / int(sizeof(T));
  static constexpr int kQBytes = BM * kLd * int(sizeof(T));
  static constexpr int kTileElems = BN * kLd;
  static constexpr int kRingBytes = Stages * 2 * kTileElems * int(sizeof(T));
  // acc as an AccumulatorExchange (rows padded by 8 floats), then m and l.
  using Exchange = AccumulatorExchange<BM, D, 8>;
  static constexpr int kExchangeBytes = Exchange::kBytes + 2 * BM * int(sizeof(float));
  static constexpr int kMmaSyncBytes = kQBytes + (kRingBytes > kExchangeBytes ? kRingBytes : kExchangeBytes);

  // On sm_90a the loop runs on wgmma when the tiles suit it (16-bit operands, BM = 128 on two
  // warpgroups of 64 rows, BN and D of 64 or 128): q and the K/V stages unpadded in 128-byte
  // swizzled lines (blocks of 64 columns), on a 1024-byte boundary.
  static constexpr bool kWgmma = BM == 128 && Threads == 256 && (BN == 64 || BN == 128) && (D == 64 || D == 128);
  static constexpr int kSwizzledQBytes = BM * D * int(sizeof(T)), kSwizzledTileBytes = BN * D * int(sizeof(T));
  static constexpr int kSwizzledRingBytes = Stages * 2 * kSwizzledTileBytes;
  // Behind the larger of the ring and the exchange: the TMA ring's barriers (tma::TmaRing).
  static constexpr int kHopperBytes = 1024 + kSwizzledQBytes +
                                      (kSwizzledRingBytes > kExchangeBytes ? kSwizzledRingBytes : kExchangeBytes) +
                                      tma::kRingBytesPerStage * Stages;
  // One size for both paths (the launcher does not know which one the GPU runs).
  static constexpr int kSmemBytes = kWgmma && kHopperBytes > kMmaSyncBytes ? kHopperBytes : kMmaSyncBytes;
};

#if !defined(__CUDACC_RTC__)  // the launcher's side (host code): not in NVRTC's view
// Host: a tensor map of K or V whose box is the transpiler's (src/emit/tensor_maps.cpp, also
// in the launch plan): one BN-key tile of 64 of D (the last two axes) at fixed leading indices.
// False when the copy engine cannot describe the array.
template <class T, int R, class I>
inline bool encode_key_tile_map(CUtensorMap& map, const Array<T, R, I>& a, const uint32_t (&box)[R]) {
  static_assert(R >= 2 && R <= 5, "the copy engine takes 2 to 5 axes here");
  int64_t shape[R], stride[R];
  for (int d = 0; d < R; ++d) shape[d] = a.shape[d], stride[d] = a.stride[d];
  return tma::encode_map(map, a.data, shape, stride, box);
}

// Host: the tensor maps of the wgmma loop's K and V on a device with TMA (compute capability 9+).
// `usable` stays 0 when either array cannot be described (the kernel then copies with cp.async).
template <class TK, int RK, class IK, class TV, int RV, class IV>
inline AttentionTensorMaps attention_tensor_maps(const Array<TK, RK, IK>& k, const Array<TV, RV, IV>& v,
                                                 const uint32_t (&k_box)[RK], const uint32_t (&v_box)[RV],
                                                 int compute_major) {
  AttentionTensorMaps maps{};
  maps.usable = compute_major >= 9 && encode_key_tile_map(maps.k, k, k_box) && encode_key_tile_map(maps.v, v, v_box);
  return maps;
}
#endif  // !__CUDACC_RTC__

// What the loop hands back: the carried values after it, in their blocked layouts.
template <class LM, class LL, class LA>
struct AttentionState {
  Tile<float, LM> m;
  Tile<float, LL> l;
  Tile<float, LA> acc;
};

namespace attention {

template <class T>
TILE2CU_DEVICE uint32_t pack2(float lo, float hi) {
  if constexpr (std::is_same_v<T, __half>) {
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&h);
  } else {
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&h);
  }
}

template <bool Exp2>
TILE2CU_DEVICE float softmax_exp(float x) {
  if constexpr (Exp2) return detail::ex2_approx_ftz(x);
  else return ::__expf(x);
}

// Max and sum over the four lanes (t = lane % 4) that hold one row of a C fragment.
TILE2CU_DEVICE float quad_max(float x) {
  x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
  return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
TILE2CU_DEVICE float quad_sum(float x) {
  x += __shfl_xor_sync(0xffffffffu, x, 1);
  return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

// Interior key tiles (every row inside the array, rows 16-byte aligned) copy through addresses
// worked out once: thread t always copies the 16-byte chunk t % kChunksPerRow of rows
// t / kChunksPerRow + i * kRowsPerPass, so its destination moves by a fixed number of bytes per
// pass (the swizzle repeats every 8 rows). Ragged edges take the checked copies of gemm_pipeline.cuh.
template <int BN, int D, int Threads, class T>
struct KeyTileCopy {
  static constexpr int kVec = 16 / int(sizeof(T)), kChunksPerRow = D / kVec;
  static constexpr int kRowsPerPass = Threads / kChunksPerRow, kPasses = kRowsPerPass > 0 ? BN / kRowsPerPass : 0;
  static constexpr bool kWholePasses = kPasses > 0 && kPasses * kRowsPerPass == BN && kRowsPerPass % 8 == 0;
  static TILE2CU_DEVICE int first_row() { return int(threadIdx.x) / kChunksPerRow; }
  static TILE2CU_DEVICE int chunk() { return int(threadIdx.x) % kChunksPerRow; }
  static TILE2CU_DEVICE bool interior(const gemm::MatrixView<T>& m, int64_t key0) {
    return kWholePasses && m.vector_rows && m.cols >= D && key0 + BN <= m.rows;
  }
  // `dst`: where this thread's first chunk goes; the next pass's lands `pass_bytes` further.
  static TILE2CU_DEVICE void copy(unsigned char* dst, int pass_bytes, const gemm::MatrixView<T>& m, int64_t key0) {
    const T* src = m.data + (key0 + first_row()) * m.row_stride + chunk() * kVec;
#pragma unroll
    for (int i = 0; i < kPasses; ++i) gemm::cp_async_16(dst + i * pass_bytes, src + i * kRowsPerPass * m.row_stride, 16);
  }
};

// Thread `lane` of a warp owning 16 rows: its accumulator rows are g and g + 8 (g = lane / 4);
// the exchange moves one warp's 16 rows of an fp32 tile between fragments and shared memory.
template <int D, class Exchange>
TILE2CU_DEVICE void fragments_from(float* o, const Exchange& exchange, int row, int lane) {
#pragma unroll
  for (int d = 0; d < D / 8; ++d) exchange.load_fragment(row, d * 8 + 2 * (lane % 4), &o[4 * d]);
}
template <int D, class Exchange>
TILE2CU_DEVICE void fragments_to(const Exchange& exchange, const float* o, int row, int lane) {
#pragma unroll
  for (int d = 0; d < D / 8; ++d) exchange.store_fragment(row, d * 8 + 2 * (lane % 4), &o[4 * d]);
}

// One step of the online softmax on one 16-row slice of S (BN / 8 C fragments, s[4n + e]):
// the score function, the new row max, P = exp(s - m) in place, the running sums, and alpha
// (how much the old accumulator shrinks) for rows g and g + 8.
template <bool Exp2, int BN, class Score>
TILE2CU_DEVICE void online_softmax(float* s, float (&row_max)[2], float (&row_sum)[2], float (&alpha)[2],
                                   const Score& score, int row, int lane, int32_t j) {
  float tile_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
  for (int n = 0; n < BN / 8; ++n)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      s[4 * n + e] = score(s[4 * n + e], int32_t(row + 8 * (e / 2)), int32_t(n * 8 + 2 * (lane % 4) + e % 2), j);
      tile_max[e / 2] = fmaxf(tile_max[e / 2], s[4 * n + e]);
    }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float m_new = fmaxf(row_max[h], quad_max(tile_max[h]));
    alpha[h] = softmax_exp<Exp2>(row_max[h] - m_new);
    row_max[h] = m_new;
    row_sum[h] *= alpha[h];
  }
#pragma unroll
  for (int n = 0; n < BN / 8; ++n)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      s[4 * n + e] = softmax_exp<Exp2>(s[4 * n + e] - row_max[e / 2]);
      row_sum[e / 2] += s[4 * n + e];
    }
}

// Whether every element of the BM x BN score tile j passes the score's masks: they are affine
// comparisons, so checking the four corners is exact.
template <int BM, int BN, class Mask>
TILE2CU_DEVICE bool tile_is_interior(const Mask& mask, int32_t j) {
  return mask(0, 0, j) && mask(0, BN - 1, j) && mask(BM - 1, 0, j) && mask(BM - 1, BN - 1, j);
}

// online_softmax with the score's masks on or off: one copy of the step for each, so the
// compiler drops the mask arithmetic (interior || ... is true) from the copy interior tiles run.
template <bool Exp2, int BN, class Score>
TILE2CU_DEVICE void online_softmax(bool interior, float* s, float (&row_max)[2], float (&row_sum)[2],
                                   float (&alpha)[2], const Score& score, int row, int lane, int32_t j) {
  if (interior)
    online_softmax<Exp2, BN>(s, row_max, row_sum, alpha,
                             [&](float v, int32_t r, int32_t c, int32_t jj) { return score(v, r, c, jj, true); },
                             row, lane, j);
  else
    online_softmax<Exp2, BN>(s, row_max, row_sum, alpha,
                             [&](float v, int32_t r, int32_t c, int32_t jj) { return score(v, r, c, jj, false); },
                             row, lane, j);
}

// P (16 x BN of C fragments) as BN / 16 A fragments of T: two neighbouring C fragments are one.
template <class T, int BN>
TILE2CU_DEVICE void p_fragments(uint32_t (&pf)[BN / 16][4], const float* s) {
#pragma unroll
  for (int kk = 0; kk < BN / 16; ++kk) {
    pf[kk][0] = pack2<T>(s[8 * kk], s[8 * kk + 1]);
    pf[kk][1] = pack2<T>(s[8 * kk + 2], s[8 * kk + 3]);
    pf[kk][2] = pack2<T>(s[8 * kk + 4], s[8 * kk + 5]);
    pf[kk][3] = pack2<T>(s[8 * kk + 6], s[8 * kk + 7]);
  }
}

#if TILE2CU_HAS_WGMMA
// Where the wgmma loop keeps things in shared memory: q in swizzled lines on the first 1024-byte
// boundary, then the K/V ring (stage s: the K tile, then the V tile of one key tile; each in
// blocks of 64 of D, one 128-byte swizzled line per key), which the acc / m / l exchange reuses
// at entry and exit; behind the larger of those two, the TMA ring's barriers.
template <class Config>
struct WgmmaSmem {
  static constexpr int kTileBytes = Config::kSwizzledTileBytes, kStageBytes = 2 * kTileBytes;
  unsigned char* q;
  unsigned char* ring;
  unsigned char* barriers;
  explicit TILE2CU_DEVICE WgmmaSmem(unsigned char* smem)
      : q(smem + ((1024 - reinterpret_cast<uintptr_t>(smem) % 1024) % 1024)),
        ring(q + Config::kSwizzledQBytes),
        barriers(ring + (Config::kSwizzledRingBytes > Config::kExchangeBytes ? Config::kSwizzledRingBytes
                                                                              : Config::kExchangeBytes)) {}
  TILE2CU_DEVICE unsigned char* stage(int64_t t) const { return ring + int(t % Config::kStages) * kStageBytes; }
};

// The two ways the wgmma loop's key tiles arrive. The loop calls start() once the exchange is
// read, acquire(t) before it reads key tile t, release(t) after (every thread), finish() at the end.

// Every thread copies its share with cp.async (arrays the copy engine cannot describe); a block
// barrier per tile hands each stage over, so the two warpgroups move in step.
template <class Config, class T>
struct CopiedKeyTiles {
  static constexpr int BN = Config::kBN, D = Config::kD, S = Config::kStages;
  using Copy = KeyTileCopy<BN, D, Config::kThreads, T>;
  gemm::MatrixView<T> k, v;
  int64_t j_begin, tiles;
  WgmmaSmem<Config> at;
  uint32_t first_dst = uint32_t((Copy::chunk() / 8) * BN * 128) +
                       wgmma::swizzle128(uint32_t(Copy::first_row() * 128 + (Copy::chunk() % 8) * 16));

  TILE2CU_DEVICE void fetch(int64_t t) const {
    unsigned char* stage = at.stage(t);
    const int64_t key0 = (j_begin + t) * BN;
    if (Copy::interior(k, key0) && Copy::interior(v, key0)) {
      Copy::copy(stage + first_dst, Copy::kRowsPerPass * 128, k, key0);
      Copy::copy(stage + at.kTileBytes + first_dst, Copy::kRowsPerPass * 128, v, key0);
    } else {
      gemm::copy_tile_swizzled<BN, D, Config::kThreads>(stage, BN * 128, k, key0, 0);
      gemm::copy_tile_swizzled<BN, D, Config::kThreads>(stage + at.kTileBytes, BN * 128, v, key0, 0);
    }
  }
  TILE2CU_DEVICE void start() const {
    __syncthreads();  // the exchange is read: its area becomes the ring
#pragma unroll
    for (int t = 0; t < S - 1; ++t) {
      if (t < tiles) fetch(t);
      gemm::cp_async_commit();
    }
  }
  TILE2CU_DEVICE void acquire(int64_t t) const {
    gemm::cp_async_wait<S - 2>();
    wgmma::fence_shared_for_async();  // the copies' ordinary writes, read next by the tensor cores
    __syncthreads();                  // tile t has landed for everyone; everyone is done with t - 1
    if (t + S - 1 < tiles) fetch(t + S - 1);
    gemm::cp_async_commit();
  }
  TILE2CU_DEVICE void release(int64_t) const {}
  TILE2CU_DEVICE void finish() const {
    gemm::cp_async_wait<0>();
    __syncthreads();
  }
};

// Thread 0 has the copy engine fetch whole tiles (zero-filled outside the arrays) into a
// tma::TmaRing; the last warp done with a stage refills it, so no block barrier runs per tile
// and each warpgroup goes at its own pace.
template <class Config, int RK, int RV>
struct TmaKeyTiles {
  static constexpr int BN = Config::kBN, D = Config::kD, S = Config::kStages;
  const AttentionTensorMaps& maps;
  int32_t k_at[RK], v_at[RV];  // box coordinates, innermost axis first: D, key, then the leading indices
  int64_t j_begin, tiles;
  WgmmaSmem<Config> at;
  tma::TmaRing<S, Config::kThreads / 32> slots{at.barriers};

  TILE2CU_DEVICE TmaKeyTiles(const AttentionTensorMaps& tensor_maps, const int64_t (&k_index)[RK],
                             const int64_t (&v_index)[RV], int64_t first_tile, int64_t tile_count, WgmmaSmem<Config> smem)
      : maps(tensor_maps), j_begin(first_tile), tiles(tile_count), at(smem) {
#pragma unroll
    for (int d = 0; d < RK; ++d) k_at[d] = int32_t(k_index[RK - 1 - d]);
#pragma unroll
    for (int d = 0; d < RV; ++d) v_at[d] = int32_t(v_index[RV - 1 - d]);
  }
  TILE2CU_DEVICE void fetch(int64_t t) const {  // thread 0
    unsigned char* stage = at.stage(t);
    uint64_t* bar = slots.expect(t, uint32_t(at.kStageBytes));
    int32_t kc[RK], vc[RV];
#pragma unroll
    for (int d = 0; d < RK; ++d) kc[d] = k_at[d];
#pragma unroll
    for (int d = 0; d < RV; ++d) vc[d] = v_at[d];
    kc[1] = vc[1] = int32_t((j_begin + t) * BN);
#pragma unroll
    for (int b = 0; b < D / 64; ++b) {
      kc[0] = vc[0] = 64 * b;
      tma::load_box(stage + b * BN * 128, &maps.k, kc, bar);
      tma::load_box(stage + at.kTileBytes + b * BN * 128, &maps.v, vc, bar);
    }
  }
  TILE2CU_DEVICE void start() const {
    if (threadIdx.x == 0) slots.init();
    wgmma::fence_shared_for_async();  // the exchange's ordinary accesses come before the copies into the ring
    __syncthreads();
    if (threadIdx.x == 0)
      for (int64_t t = 0; t < S && t < tiles; ++t) fetch(t);
  }
  TILE2CU_DEVICE void acquire(int64_t t) const { slots.wait(t); }
  TILE2CU_DEVICE void release(int64_t t) const {
    if (threadIdx.x % 32 == 0 && slots.release(t) && t + S < tiles) fetch(t + S);
    __syncwarp();  // the warp converges again before its next wgmma
  }
  TILE2CU_DEVICE void finish() const {
    __syncthreads();  // every copy has landed (each was waited for) and every warp is past the barriers
    if (threadIdx.x == 0) slots.inval();
  }
};

// The main loop on wgmma (sm_90a): warpgroup w computes query rows [64w, 64w + 64). S = q K^T
// with q and K from swizzled shared memory; P V with P from registers and V (keys x D, D
// contiguous) as the N-major B operand. `keys` is CopiedKeyTiles or TmaKeyTiles.
template <class Config, class T, class Keys, class LQ, class LM, class LL, class LA, class Mask, class Score>
TILE2CU_DEVICE AttentionState<LM, LL, LA> main_loop_wgmma(const Keys& keys, const WgmmaSmem<Config>& at,
                                                         int64_t j_begin, int64_t tiles, const Tile<T, LQ>& q,
                                                         const Tile<float, LM>& m_in, const Tile<float, LL>& l_in,
                                                         const Tile<float, LA>& acc_in, const Mask& mask,
                                                         const Score& score) {
  constexpr int BM = Config::kBM, BN = Config::kBN, D = Config::kD;
  unsigned char* sq = at.q;
  float* exchange = reinterpret_cast<float*>(at.ring);
  const typename Config::Exchange acc_exchange{exchange};
  float* m_exchange = exchange + Config::Exchange::kBytes / int(sizeof(float));
  float* l_exchange = m_exchange + BM;
  const int group = int(threadIdx.x) / 128, warp = (int(threadIdx.x) % 128) / 32, lane = int(threadIdx.x) % 32;
  const int row = group * 64 + warp * 16 + lane / 4;  // this thread's first accumulator row

  // 1. q into swizzled lines (row r, column c: block c / 64 of BM lines); acc, m, l to registers.
  __syncthreads();
#pragma unroll
  for (int s = 0; s < LQ::kSlots; ++s)
    if (LQ::owns(s)) {
      const int r = LQ::element(s) / D, c = LQ::element(s) % D;
      *reinterpret_cast<T*>(sq + (c / 64) * BM * 128 + wgmma::swizzle128(uint32_t(r * 128 + (c % 64) * 2))) = q.v[s];
    }
  acc_exchange.put(acc_in);
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s)
    if (LM::owns(s)) m_exchange[LM::element(s)] = m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s)
    if (LL::owns(s)) l_exchange[LL::element(s)] = l_in.v[s];
  wgmma::fence_shared_for_async();  // q's ordinary stores, read next by the tensor cores
  __syncthreads();
  float o[D / 2], row_max[2], row_sum[2];
  fragments_from<D>(o, acc_exchange, row, lane);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    row_max[h] = m_exchange[row + 8 * h];
    row_sum[h] = lane % 4 == 0 ? l_exchange[row + 8 * h] : 0.0f;
  }

  // 2. The key tiles.
  keys.start();
  for (int64_t t = 0; t < tiles; ++t) {
    keys.acquire(t);
    const unsigned char* sk = at.stage(t);
    const unsigned char* sv = sk + at.kTileBytes;

    // S = q K^T: K's lines are keys, the K-major B operand (no transpose).
    float sc[BN / 2];
#pragma unroll
    for (int i = 0; i < BN / 2; ++i) sc[i] = 0.0f;
    wgmma::fence();
#pragma unroll
    for (int kk = 0; kk < D; kk += 16) {
      const uint64_t dq = wgmma::descriptor(sq + (kk / 64) * BM * 128 + group * 64 * 128 + (kk % 64) * 2, 16, 1024);
      const uint64_t dk = wgmma::descriptor(sk + (kk / 64) * BN * 128 + (kk % 64) * 2, 16, 1024);
      wgmma::mma_64xNx16_ss<T, BN, 0>(sc, dq, dk);
    }
    wgmma::commit();
    wgmma::wait<0>();

    float alpha[2];
    const int32_t j = int32_t(j_begin + t);
    online_softmax<Config::kExp2, BN>(tile_is_interior<BM, BN>(mask, j), sc, row_max, row_sum, alpha, score, row, lane, j);
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] *= alpha[(i % 4) / 2];
    uint32_t pf[BN / 16][4];
    p_fragments<T, BN>(pf, sc);

    // acc += P V: V's lines are keys (the k of this product), D contiguous: N-major B.
    wgmma::fence();
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk)
      wgmma::mma_64xNx16_rs<T, D, 1>(o, pf[kk], wgmma::descriptor(sv + kk * 16 * 128, BN * 128, 1024));
    wgmma::commit();
    wgmma::wait<0>();
    keys.release(t);
  }
  keys.finish();

  // 3. Registers -> shared memory -> the blocked layouts.
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const float sum = quad_sum(row_sum[h]);
    if (lane % 4 == 0) m_exchange[row + 8 * h] = row_max[h], l_exchange[row + 8 * h] = sum;
  }
  fragments_to<D>(acc_exchange, o, row, lane);
  __syncthreads();
  AttentionState<LM, LL, LA> out;
  out.acc = acc_exchange.get(acc_in);
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s) out.m.v[s] = LM::owns(s) ? m_exchange[LM::element(s)] : m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s) out.l.v[s] = LL::owns(s) ? l_exchange[LL::element(s)] : l_in.v[s];
  __syncthreads();
  return out;
}
#endif  // TILE2CU_HAS_WGMMA

}  // namespace attention

template <class Config, class TK, int RK, class IK, class TV, int RV, class IV, class LQ, class LM, class LL, class LA,
          class Mask, class Score>
TILE2CU_DEVICE AttentionState<LM, LL, LA> attention_main_loop(
    const Array<TK, RK, IK>& K, const int64_t (&k_index)[RK], const Array<TV, RV, IV>& V,
    const int64_t (&v_index)[RV], int64_t j_begin, int64_t j_end, const Tile<typename Config::operand_type, LQ>& q,
    const Tile<float, LM>& m_in, const Tile<float, LL>& l_in, const Tile<float, LA>& acc_in, Mask mask, Score score,
    unsigned char* smem, const AttentionTensorMaps* maps = nullptr) {
  using T = typename Config::operand_type;
  constexpr int BM = Config::kBM, BN = Config::kBN, D = Config::kD, S = Config::kStages, kLd = Config::kLd;
  constexpr int kFragsM = Config::kFragsM, kFragsN = BN / 8, kFragsD = D / 8;
  static_assert(std::is_same_v<TK, T> && std::is_same_v<TV, T>, "q, K and V share their type");
  static_assert(LQ::kElems == BM * D && LA::kElems == BM * D && LM::kElems == BM && LL::kElems == BM,
                "q and acc are BM x D, m and l BM x 1");
  const gemm::MatrixView<T> k_view = gemm::matrix_view(K, k_index);
  const gemm::MatrixView<T> v_view = gemm::matrix_view(V, v_index);
  const int64_t tiles = j_end > j_begin ? j_end - j_begin : 0;
#if TILE2CU_HAS_WGMMA
  if constexpr (Config::kWgmma) {
    const attention::WgmmaSmem<Config> at(smem);
    if (maps != nullptr && maps->usable)
      return attention::main_loop_wgmma<Config>(attention::TmaKeyTiles<Config, RK, RV>(*maps, k_index, v_index, j_begin, tiles, at),
                                                at, j_begin, tiles, q, m_in, l_in, acc_in, mask, score);
    return attention::main_loop_wgmma<Config>(attention::CopiedKeyTiles<Config, T>{k_view, v_view, j_begin, tiles, at},
                                              at, j_begin, tiles, q, m_in, l_in, acc_in, mask, score);
  }
#endif
  const int warp_id = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, t4 = lane % 4;
  const int warp_row = warp_id * Config::kWarpRows;
  T* sq = reinterpret_cast<T*>(smem);
  T* ring = reinterpret_cast<T*>(smem + Config::kQBytes);
  float* exchange = reinterpret_cast<float*>(smem + Config::kQBytes);
  const typename Config::Exchange acc_exchange{exchange};
  float* m_exchange = exchange + Config::Exchange::kBytes / int(sizeof(float));
  float* l_exchange = m_exchange + BM;

  // 1. q, acc, m, l: blocked layouts -> shared memory -> this warp's fragments.
  __syncthreads();
#pragma unroll
  for (int s = 0; s < LQ::kSlots; ++s)
    if (LQ::owns(s)) sq[LQ::element(s) / D * kLd + LQ::element(s) % D] = q.v[s];
  acc_exchange.put(acc_in);
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s)
    if (LM::owns(s)) m_exchange[LM::element(s)] = m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s)
    if (LL::owns(s)) l_exchange[LL::element(s)] = l_in.v[s];
  __syncthreads();
  float o[kFragsM][kFragsD][4];
  float row_max[kFragsM][2], row_sum[kFragsM][2];  // rows g and g + 8 of each 16-row fragment
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = warp_row + i * 16 + g + 8 * h;
      row_max[i][h] = m_exchange[r];
      row_sum[i][h] = t4 == 0 ? l_exchange[r] : 0.0f;  // partial sums per lane; added up at the end
    }
    attention::fragments_from<D>(&o[i][0][0], acc_exchange, warp_row + i * 16 + g, lane);
  }
  __syncthreads();  // the exchange area becomes the ring (q stays: its fragments are read every step)

  // 2. The K/V ring: stage s holds the K tile then the V tile of one j.
  using Copy = attention::KeyTileCopy<BN, D, Config::kThreads, T>;
  const int first_dst = (Copy::first_row() * kLd + Copy::chunk() * Copy::kVec) * int(sizeof(T));
  auto fetch = [&](int64_t t) {
    T* stage = ring + int(t % S) * 2 * Config::kTileElems;
    const int64_t key0 = (j_begin + t) * BN;
    if (Copy::interior(k_view, key0) && Copy::interior(v_view, key0)) {
      unsigned char* bytes = reinterpret_cast<unsigned char*>(stage) + first_dst;
      Copy::copy(bytes, Copy::kRowsPerPass * kLd * int(sizeof(T)), k_view, key0);
      Copy::copy(bytes + Config::kTileElems * int(sizeof(T)), Copy::kRowsPerPass * kLd * int(sizeof(T)), v_view, key0);
    } else {
      gemm::copy_tile_async<BN, D, Config::kThreads>(stage, kLd, k_view, key0, 0);
      gemm::copy_tile_async<BN, D, Config::kThreads>(stage + Config::kTileElems, kLd, v_view, key0, 0);
    }
  };
#pragma unroll
  for (int t = 0; t < S - 1; ++t) {
    if (t < tiles) fetch(t);
    gemm::cp_async_commit();
  }
  for (int64_t t = 0; t < tiles; ++t) {
    gemm::cp_async_wait<S - 2>();
    __syncthreads();
    if (t + S - 1 < tiles) fetch(t + S - 1);
    gemm::cp_async_commit();
    const T* sk = ring + int(t % S) * 2 * Config::kTileElems;
    const T* sv = sk + Config::kTileElems;
    const int32_t j = int32_t(j_begin + t);

    // S = q K^T: K's rows are keys (D contiguous), the column-major B operand as it stands.
    float sc[kFragsM][kFragsN][4];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
      for (int n = 0; n < kFragsN; ++n) sc[i][n][0] = sc[i][n][1] = sc[i][n][2] = sc[i][n][3] = 0.0f;
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk) {  // q's fragments come from shared memory each time: registers go to S and acc
      uint32_t qf[kFragsM][4];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
        warp::ldmatrix_x4(qf[i], sq + (warp_row + i * 16 + lane % 16) * kLd + kk * 16 + (lane / 16) * 8);
#pragma unroll
      for (int n = 0; n < kFragsN; n += 2) {
        uint32_t r[4];
        warp::ldmatrix_x4(r, sk + (n * 8 + lane % 8 + (lane / 16) * 8) * kLd + kk * 16 + ((lane / 8) % 2) * 8);
        const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
          warp::mma_16x8x16<T>(sc[i][n], qf[i], b0);
          warp::mma_16x8x16<T>(sc[i][n + 1], qf[i], b1);
        }
      }
    }

    // The elementwise ops on s, then the online softmax, 16 rows at a time.
    uint32_t pf[kFragsM][BN / 16][4];
    const bool interior = attention::tile_is_interior<BM, BN>(mask, j);
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      float alpha[2];
      attention::online_softmax<Config::kExp2, BN>(interior, &sc[i][0][0], row_max[i], row_sum[i], alpha, score,
                                                   warp_row + i * 16 + g, lane, j);
#pragma unroll
      for (int d = 0; d < kFragsD; ++d)
#pragma unroll
        for (int e = 0; e < 4; ++e) o[i][d][e] *= alpha[e / 2];
      attention::p_fragments<T, BN>(pf[i], &sc[i][0][0]);
    }

    // acc += P V: V's rows are keys (D contiguous), read transposed.
#pragma unroll
    for (int kk = 0; kk < BN / 16; ++kk) {
#pragma unroll
      for (int d = 0; d < kFragsD; d += 2) {
        uint32_t r[4];
        warp::ldmatrix_x4_trans(r, sv + (kk * 16 + lane % 8 + ((lane / 8) % 2) * 8) * kLd + d * 8 + (lane / 16) * 8);
        const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
          warp::mma_16x8x16<T>(o[i][d], pf[i][kk], b0);
          warp::mma_16x8x16<T>(o[i][d + 1], pf[i][kk], b1);
        }
      }
    }
  }
  gemm::cp_async_wait<0>();
  __syncthreads();  // the ring becomes the exchange area again

  // 3. Fragments -> shared memory -> the blocked layouts.
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = warp_row + i * 16 + g + 8 * h;
      const float sum = attention::quad_sum(row_sum[i][h]);
      if (t4 == 0) m_exchange[r] = row_max[i][h], l_exchange[r] = sum;
    }
    attention::fragments_to<D>(acc_exchange, &o[i][0][0], warp_row + i * 16 + g, lane);
  }
  __syncthreads();
  AttentionState<LM, LL, LA> out;
  out.acc = acc_exchange.get(acc_in);
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s) out.m.v[s] = LM::owns(s) ? m_exchange[LM::element(s)] : m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s) out.l.v[s] = LL::owns(s) ? l_exchange[LL::element(s)] : l_in.v[s];
  __syncthreads();  // the next user of the buffer may overwrite it
  return out;
}

}  // namespace tile2cu
