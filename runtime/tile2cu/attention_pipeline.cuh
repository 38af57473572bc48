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
// j_end, q, m, l, acc, score, smem), where `score(s, row, col, j)` is the elementwise part as a
// lambda (row, col: the element's place in the BM x BN score tile). What it does (FlashAttention-2):
//
//   * Each warp owns kWarpRows rows of the BM query rows. q, m, l and acc move from the tiles'
//     blocked layouts into mma.sync fragments once (through shared memory) and stay in registers.
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
// It runs on sm_80 and up (mma.sync; Hopper runs it too).
#pragma once

#include "array.cuh"
#include "gemm_pipeline.cuh"
#include "math.cuh"
#include "mma_warp.cuh"
#include "tile.cuh"

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
  static constexpr int kExchangeBytes = (BM * D + 2 * BM) * int(sizeof(float));
  static constexpr int kSmemBytes = kQBytes + (kRingBytes > kExchangeBytes ? kRingBytes : kExchangeBytes);
};

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
  if constexpr (Exp2) return detail::ex2_approx(x);
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

}  // namespace attention

template <class Config, class TK, int RK, class IK, class TV, int RV, class IV, class LQ, class LM, class LL, class LA,
          class Score>
TILE2CU_DEVICE AttentionState<LM, LL, LA> attention_main_loop(
    const Array<TK, RK, IK>& K, const int64_t (&k_index)[RK], const Array<TV, RV, IV>& V,
    const int64_t (&v_index)[RV], int64_t j_begin, int64_t j_end, const Tile<typename Config::operand_type, LQ>& q,
    const Tile<float, LM>& m_in, const Tile<float, LL>& l_in, const Tile<float, LA>& acc_in, Score score,
    unsigned char* smem) {
  using T = typename Config::operand_type;
  constexpr int BM = Config::kBM, BN = Config::kBN, D = Config::kD, S = Config::kStages, kLd = Config::kLd;
  constexpr int kFragsM = Config::kFragsM, kFragsN = BN / 8, kFragsD = D / 8;
  static_assert(std::is_same_v<TK, T> && std::is_same_v<TV, T>, "q, K and V share their type");
  static_assert(LQ::kElems == BM * D && LA::kElems == BM * D && LM::kElems == BM && LL::kElems == BM,
                "q and acc are BM x D, m and l BM x 1");
  const int warp_id = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, t4 = lane % 4;
  const int warp_row = warp_id * Config::kWarpRows;
  T* sq = reinterpret_cast<T*>(smem);
  T* ring = reinterpret_cast<T*>(smem + Config::kQBytes);
  float* exchange = reinterpret_cast<float*>(smem + Config::kQBytes);
  float* m_exchange = exchange + BM * D;
  float* l_exchange = m_exchange + BM;

  // 1. q, acc, m, l: blocked layouts -> shared memory -> this warp's fragments.
  __syncthreads();
#pragma unroll
  for (int s = 0; s < LQ::kSlots; ++s)
    if (LQ::owns(s)) sq[LQ::element(s) / D * kLd + LQ::element(s) % D] = q.v[s];
#pragma unroll
  for (int s = 0; s < LA::kSlots; ++s)
    if (LA::owns(s)) exchange[LA::element(s)] = acc_in.v[s];
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s)
    if (LM::owns(s)) m_exchange[LM::element(s)] = m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s)
    if (LL::owns(s)) l_exchange[LL::element(s)] = l_in.v[s];
  __syncthreads();
  float o[kFragsM][kFragsD][4];
  float row_max[kFragsM][2], row_sum[kFragsM][2];  // rows g and g + 8 of each 16-row fragment
  uint32_t qf[kFragsM][D / 16][4];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = warp_row + i * 16 + g + 8 * h;
      row_max[i][h] = m_exchange[r];
      row_sum[i][h] = t4 == 0 ? l_exchange[r] : 0.0f;  // partial sums per lane; added up at the end
    }
#pragma unroll
    for (int d = 0; d < kFragsD; ++d) {
      const float* c = exchange + (warp_row + i * 16 + g) * D + d * 8 + 2 * t4;
      o[i][d][0] = c[0], o[i][d][1] = c[1], o[i][d][2] = c[8 * D], o[i][d][3] = c[8 * D + 1];
    }
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
      warp::ldmatrix_x4(qf[i][kk], sq + (warp_row + i * 16 + lane % 16) * kLd + kk * 16 + (lane / 16) * 8);
  }
  __syncthreads();  // the exchange area becomes the ring

  // 2. The K/V ring: stage s holds the K tile then the V tile of one j.
  const gemm::MatrixView<T> k_view = gemm::matrix_view(K, k_index);
  const gemm::MatrixView<T> v_view = gemm::matrix_view(V, v_index);
  const int64_t tiles = j_end > j_begin ? j_end - j_begin : 0;
  auto fetch = [&](int64_t t) {
    T* stage = ring + int(t % S) * 2 * Config::kTileElems;
    const int64_t key0 = (j_begin + t) * BN;
    gemm::copy_tile_async<BN, D, Config::kThreads>(stage, kLd, k_view, key0, 0);
    gemm::copy_tile_async<BN, D, Config::kThreads>(stage + Config::kTileElems, kLd, v_view, key0, 0);
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
    for (int kk = 0; kk < D / 16; ++kk) {
#pragma unroll
      for (int n = 0; n < kFragsN; n += 2) {
        uint32_t r[4];
        warp::ldmatrix_x4(r, sk + (n * 8 + lane % 8 + (lane / 16) * 8) * kLd + kk * 16 + ((lane / 8) % 2) * 8);
        const uint32_t b0[2] = {r[0], r[1]}, b1[2] = {r[2], r[3]};
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
          warp::mma_16x8x16<T>(sc[i][n], qf[i][kk], b0);
          warp::mma_16x8x16<T>(sc[i][n + 1], qf[i][kk], b1);
        }
      }
    }

    // The elementwise ops on s, then the online softmax, row by row.
    uint32_t pf[kFragsM][BN / 16][4];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
      float tile_max[2] = {-INFINITY, -INFINITY};
#pragma unroll
      for (int n = 0; n < kFragsN; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          sc[i][n][e] = score(sc[i][n][e], int32_t(warp_row + i * 16 + g + 8 * (e / 2)), int32_t(n * 8 + 2 * t4 + e % 2), j);
          tile_max[e / 2] = fmaxf(tile_max[e / 2], sc[i][n][e]);
        }
      float alpha[2];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const float m_new = fmaxf(row_max[i][h], attention::quad_max(tile_max[h]));
        alpha[h] = attention::softmax_exp<Config::kExp2>(row_max[i][h] - m_new);
        row_max[i][h] = m_new;
        row_sum[i][h] *= alpha[h];
      }
#pragma unroll
      for (int n = 0; n < kFragsN; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          sc[i][n][e] = attention::softmax_exp<Config::kExp2>(sc[i][n][e] - row_max[i][e / 2]);
          row_sum[i][e / 2] += sc[i][n][e];
        }
#pragma unroll
      for (int d = 0; d < kFragsD; ++d)
#pragma unroll
        for (int e = 0; e < 4; ++e) o[i][d][e] *= alpha[e / 2];
      // Two neighbouring C fragments (16 x 16 of P) are one A fragment.
#pragma unroll
      for (int kk = 0; kk < BN / 16; ++kk) {
        pf[i][kk][0] = attention::pack2<T>(sc[i][2 * kk][0], sc[i][2 * kk][1]);
        pf[i][kk][1] = attention::pack2<T>(sc[i][2 * kk][2], sc[i][2 * kk][3]);
        pf[i][kk][2] = attention::pack2<T>(sc[i][2 * kk + 1][0], sc[i][2 * kk + 1][1]);
        pf[i][kk][3] = attention::pack2<T>(sc[i][2 * kk + 1][2], sc[i][2 * kk + 1][3]);
      }
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
#pragma unroll
    for (int d = 0; d < kFragsD; ++d) {
      float* c = exchange + (warp_row + i * 16 + g) * D + d * 8 + 2 * t4;
      c[0] = o[i][d][0], c[1] = o[i][d][1], c[8 * D] = o[i][d][2], c[8 * D + 1] = o[i][d][3];
    }
  }
  __syncthreads();
  AttentionState<LM, LL, LA> out;
#pragma unroll
  for (int s = 0; s < LA::kSlots; ++s) out.acc.v[s] = LA::owns(s) ? exchange[LA::element(s)] : acc_in.v[s];
#pragma unroll
  for (int s = 0; s < LM::kSlots; ++s) out.m.v[s] = LM::owns(s) ? m_exchange[LM::element(s)] : m_in.v[s];
#pragma unroll
  for (int s = 0; s < LL::kSlots; ++s) out.l.v[s] = LL::owns(s) ? l_exchange[LL::element(s)] : l_in.v[s];
  __syncthreads();  // the next user of the buffer may overwrite it
  return out;
}

}  // namespace tile2cu
