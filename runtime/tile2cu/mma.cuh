// tile2cu/mma.cuh: ct.mma on tiles held in registers, for any legal operand and accumulator
// dtypes (spec c.11). The recognised k-loop of a GEMM does not come here: it becomes a
// pipelined main loop (gemm_pipeline.cuh). This is the general form every other mma takes.
//
// mma<Plan>(x, y, acc, smem): x [B.., M, K], y [B.., K, N], acc [B.., M, N] (batch dims equal).
//   1. Every thread writes its elements of x and y (and, on tensor cores, acc as float or int32)
//      to shared memory, row-major with the batch rows stacked; 8-bit y goes column by column.
//   2. Tensor cores (dims multiples of the instruction tile; f16 / bf16 / tf32 operands into a
//      float accumulator, int8 / uint8 into int32, fp8 into float on sm_89 and up): the warps
//      share out the 16 x 8 output tiles; each loads its C tile, runs mma.sync along K and
//      writes it back. Otherwise each thread computes its own acc elements exactly, as
//      sum_k x[i, k] * y[k, j] in the accumulator's arithmetic (int32 for int8, double for
//      float64, float for the rest).
//   3. Every thread reads its acc elements back, converted to the accumulator dtype.
// fp8 on sm_90a (tile of 64 x 64 pieces, whole warpgroups) takes wgmma instead of step 2's
// mma.sync: its operands are staged in wgmma's K-major core-matrix layout (y transposed) and each
// warpgroup runs m64n64k32 along K on its 64 x 64 pieces of acc (wgmma_fp8.cuh says why).
// Accumulation inside one call is in float for f16 accumulators (the tensor cores' f32 mode),
// rounded to f16 once at the end.
#pragma once

#include "mma_warp.cuh"
#include "tile.cuh"
#include "wgmma_fp8.cuh"

namespace tile2cu {

// Shared-memory plan of one mma: how x, y and the accumulator are laid out. The transpiler
// prints its own copy of kSmemBytes (src/emit/mma_plan.cpp mirrors it).
template <class TA, class TB, class TC, int Batch, int M, int N, int K>
struct MmaPlan {
  static constexpr bool kHalfOrTf32 = std::is_same_v<TA, TB> && (is_half_like_v<TA> || std::is_same_v<TA, tfloat32>) &&
                                      (std::is_same_v<TC, float> || std::is_same_v<TC, __half>);
  static constexpr bool kEightBit =
      ((std::is_same_v<TA, int8_t> || std::is_same_v<TA, uint8_t>) &&
       (std::is_same_v<TB, int8_t> || std::is_same_v<TB, uint8_t>) && std::is_same_v<TC, int32_t>) ||
      (is_fp8_v<TA> && std::is_same_v<TA, TB> && (std::is_same_v<TC, float> || std::is_same_v<TC, __half>));
  static constexpr int kInstructionK = kEightBit ? 32 : is_half_like_v<TA> ? 16 : 8;
  static constexpr bool kTensorCores = (kHalfOrTf32 || kEightBit) && M % 16 == 0 && N % 8 == 0 && K % kInstructionK == 0;
  // An 8-bit B fragment register holds four k-consecutive values of one column: y is staged
  // transposed (N rows of K) so that each is one 32-bit read.
  static constexpr bool kTransposedB = kTensorCores && kEightBit;
  // Padding each row by 16 bytes keeps ldmatrix and the fragment reads free of bank conflicts;
  // without tensor cores the rows are packed.
  static constexpr int kPadA = kTensorCores ? 16 / int(sizeof(TA)) : 0;
  static constexpr int kPadB = kTensorCores ? 16 / int(sizeof(TB)) : 0;
  static constexpr int kLdA = K + kPadA, kLdB = (kTransposedB ? K : N) + kPadB;
  static constexpr int align16(int bytes) { return (bytes + 15) / 16 * 16; }
  static constexpr int kBytesA = align16(Batch * M * kLdA * int(sizeof(TA)));
  static constexpr int kBytesB = align16(Batch * (kTransposedB ? N : K) * kLdB * int(sizeof(TB)));
  static constexpr int kBytesC = kTensorCores ? Batch * M * N * 4 : 0;  // float or int32
  static constexpr int kSmemBytes = kBytesA + kBytesB + kBytesC;
  // fp8 on sm_90a runs on wgmma m64n64k32 (wgmma_fp8.cuh) where the tile allows it, so that its
  // sums round as Hopper's fp8 GEMMs (cuBLAS, cuTile) round them. Its operands are stored
  // unpadded in the core-matrix layout, inside the same bytes the padded mma.sync plan reserves.
  static constexpr bool kWgmmaFp8 = kTensorCores && is_fp8_v<TA> && M % 64 == 0 && N % 64 == 0;
};

namespace detail {

// Writes this thread's elements of t to a row-major buffer with `ld` elements per row (the
// rows of all batch entries stacked), converted to U.
template <class U, class T, class L>
TILE2CU_DEVICE void stage_rows(U* buf, int ld, const Tile<T, L>& t) {
  constexpr int cols = L::shape::dim(L::shape::rank - 1);
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    if (!L::owns(s)) continue;
    const int e = L::element(s);
    buf[(e / cols) * ld + e % cols] = convert<U>(t.v[s]);
  }
}

// Writes this thread's elements of t ([B.., K, N]) column by column: element (k, n) of batch
// entry b at buf[(b * N + n) * ld + k].
template <class U, class T, class L>
TILE2CU_DEVICE void stage_columns(U* buf, int ld, const Tile<T, L>& t) {
  constexpr int R = L::shape::rank, K = L::shape::dim(R - 2), N = L::shape::dim(R - 1);
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    if (!L::owns(s)) continue;
    const int e = L::element(s), row = e / N, batch = row / K;
    buf[(batch * N + e % N) * ld + row % K] = convert<U>(t.v[s]);
  }
}

// Writes this thread's elements of x ([B.., M, K], 8-bit) in wgmma's K-major core-matrix layout
// (wgmma_fp8.cuh), the batch entries' rows stacked.
template <class U, class T, class L>
TILE2CU_DEVICE void stage_core_rows(U* buf, const Tile<T, L>& t) {
  constexpr int K = L::shape::dim(L::shape::rank - 1);
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    if (!L::owns(s)) continue;
    const int e = L::element(s);
    buf[wgmma::core_offset<K>(e / K, e % K)] = convert<U>(t.v[s]);
  }
}

// Writes this thread's elements of y ([B.., K, N], 8-bit) as y^T (N rows of K per batch entry)
// in the same layout.
template <class U, class T, class L>
TILE2CU_DEVICE void stage_core_columns(U* buf, const Tile<T, L>& t) {
  constexpr int R = L::shape::rank, K = L::shape::dim(R - 2), N = L::shape::dim(R - 1);
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    if (!L::owns(s)) continue;
    const int e = L::element(s), row = e / N, batch = row / K;
    buf[wgmma::core_offset<K>(batch * N + e % N, row % K)] = convert<U>(t.v[s]);
  }
}

// The fp8 wgmma form of the tensor-core step: a, b staged by stage_core_rows / stage_core_columns,
// c the float accumulator, row-major. Warpgroups share out the 64 x 64 output tiles; each loads
// its tile into wgmma's fragment, runs the K / 32 steps in k order and writes it back.
// Only where wgmma_fp8_usable() holds.
TILE2CU_DEVICE bool wgmma_fp8_usable() {
#if TILE2CU_HAS_WGMMA
  return blockDim.x % 128 == 0 && blockDim.y * blockDim.z == 1;  // whole warpgroups
#else
  return false;
#endif
}

template <class TA, int Batch, int M, int N, int K>
TILE2CU_DEVICE void mma_fp8_wgmma(const TA* a, const TA* b, float* c) {
#if TILE2CU_HAS_WGMMA
  wgmma::fence_shared_for_async();  // this thread's staging stores, before wgmma reads them
  __syncthreads();
  constexpr int kTiles = Batch * (M / 64) * (N / 64);
  const int groups = int(blockDim.x) / 128, thread = int(threadIdx.x) % 128;
  const int warp = thread / 32, lane = thread % 32;
  for (int tile = int(threadIdx.x) / 128; tile < kTiles; tile += groups) {
    const int batch = tile / ((M / 64) * (N / 64)), rest = tile % ((M / 64) * (N / 64));
    const int row0 = batch * M + (rest / (N / 64)) * 64, col0 = (rest % (N / 64)) * 64;
    float d[32];
    float* c0 = c + (row0 + 16 * warp + lane / 4) * N + col0 + 2 * (lane % 4);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      d[4 * i] = c0[8 * i], d[4 * i + 1] = c0[8 * i + 1];
      d[4 * i + 2] = c0[8 * N + 8 * i], d[4 * i + 3] = c0[8 * N + 8 * i + 1];
    }
    const TA* a_tile = a + wgmma::core_offset<K>(row0, 0);
    const TA* b_tile = b + wgmma::core_offset<K>(batch * N + col0, 0);
    wgmma::fence();
#pragma unroll
    for (int k = 0; k < K; k += 32)  // 32 values along K: two core matrices, 256 bytes
      wgmma::mma_64x64x32_fp8<TA>(d, wgmma::descriptor_k_major_no_swizzle<K>(a_tile + 8 * k),
                                  wgmma::descriptor_k_major_no_swizzle<K>(b_tile + 8 * k));
    wgmma::commit();
    wgmma::wait<0>();
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      c0[8 * i] = d[4 * i], c0[8 * i + 1] = d[4 * i + 1];
      c0[8 * N + 8 * i] = d[4 * i + 2], c0[8 * N + 8 * i + 1] = d[4 * i + 3];
    }
  }
#else
  (void)a, (void)b, (void)c;
#endif
}

// The arithmetic exact mma uses for an accumulator dtype.
template <class TC>
using mma_wide_t = std::conditional_t<is_int_v<TC>, int32_t, std::conditional_t<std::is_same_v<TC, double>, double, float>>;

// A sized scratch array must hold `bytes`; dynamic shared memory (an array of unknown bound) is
// sized by the launcher from the same plan.
template <class Scratch>
constexpr TILE2CU_HD bool scratch_covers(int bytes) {
  if constexpr (std::extent_v<Scratch> == 0) return true;
  else return sizeof(Scratch) >= static_cast<size_t>(bytes);
}

}  // namespace detail

// smem: the kernel's scratch, a sized array or dynamic shared memory (`extern __shared__ unsigned
// char smem[]`, which the launcher sizes from the same plan); its size (the transpiler's
// mma_smem_bytes) must cover the plan, which a sized array checks at compile time.
template <class TA, class LA, class TB, class LB, class TC, class LC, class Scratch>
TILE2CU_DEVICE Tile<TC, LC> mma(const Tile<TA, LA>& x, const Tile<TB, LB>& y, const Tile<TC, LC>& acc,
                                Scratch& scratch) {
  using SA = typename LA::shape;
  using SB = typename LB::shape;
  constexpr int R = SA::rank;
  static_assert(R >= 2 && SB::rank == R && LC::shape::rank == R, "mma: operands of one rank, at least 2");
  constexpr int M = SA::dim(R - 2), K = SA::dim(R - 1), N = SB::dim(R - 1);
  constexpr int Batch = SA::size / (M * K);
  using Plan = MmaPlan<TA, TB, TC, Batch, M, N, K>;
  static_assert(detail::scratch_covers<Scratch>(Plan::kSmemBytes),
                "mma: the kernel's scratch is smaller than the mma's plan");
  unsigned char* smem = &scratch[0];
  TA* a = reinterpret_cast<TA*>(smem);
  TB* b = reinterpret_cast<TB*>(smem + Plan::kBytesA);
  // The tensor cores' accumulator: int32 for int8 operands, float otherwise.
  using Acc = std::conditional_t<is_int_v<TC>, int32_t, float>;
  Acc* c = reinterpret_cast<Acc*>(smem + Plan::kBytesA + Plan::kBytesB);
  constexpr bool kOnTensorCores = Plan::kTensorCores && (!is_fp8_v<TA> || warp::kFp8TensorCores);

  __syncthreads();  // the buffer may still be read by the previous user
  Tile<TC, LC> out;
  if constexpr (Plan::kWgmmaFp8) {
    if (detail::wgmma_fp8_usable()) {
      detail::stage_core_rows<TA>(a, x);
      detail::stage_core_columns<TB>(b, y);
      detail::stage_rows<float>(c, N, acc);
      detail::mma_fp8_wgmma<TA, Batch, M, N, K>(a, b, c);
      __syncthreads();
#pragma unroll
      for (int s = 0; s < LC::kSlots; ++s) out.v[s] = LC::owns(s) ? convert<TC>(c[LC::element(s)]) : acc.v[s];
      __syncthreads();  // the next user of the buffer may overwrite it
      return out;
    }
  }
  detail::stage_rows<TA>(a, Plan::kLdA, x);
  if constexpr (Plan::kTransposedB) detail::stage_columns<TB>(b, Plan::kLdB, y);
  else detail::stage_rows<TB>(b, Plan::kLdB, y);
  if constexpr (kOnTensorCores) {
    detail::stage_rows<Acc>(c, N, acc);
    __syncthreads();
    constexpr int kTiles = Batch * (M / 16) * (N / 8);
    const int warps = int(blockDim.x) / 32, lane = int(threadIdx.x) % 32;
    for (int tile = int(threadIdx.x) / 32; tile < kTiles; tile += warps) {
      const int batch = tile / ((M / 16) * (N / 8)), rest = tile % ((M / 16) * (N / 8));
      const int row = batch * M + (rest / (N / 8)) * 16, col = (rest % (N / 8)) * 8;
      Acc* c0 = c + (row + lane / 4) * N + col + 2 * (lane % 4);
      Acc* c1 = c0 + 8 * N;
      Acc d[4] = {c0[0], c0[1], c1[0], c1[1]};
      if constexpr (Plan::kTransposedB)
        warp::mma_tile_from_smem_8bit<TA, TB, K>(d, a + row * Plan::kLdA, Plan::kLdA, b + (batch * N + col) * Plan::kLdB,
                                                 Plan::kLdB);
      else
        warp::mma_tile_from_smem<TA, K>(d, a + row * Plan::kLdA, Plan::kLdA, b + batch * K * Plan::kLdB + col,
                                        Plan::kLdB);
      c0[0] = d[0], c0[1] = d[1], c1[0] = d[2], c1[1] = d[3];
    }
    __syncthreads();
#pragma unroll
    for (int s = 0; s < LC::kSlots; ++s) out.v[s] = LC::owns(s) ? convert<TC>(c[LC::element(s)]) : acc.v[s];
  } else {
    __syncthreads();
    using W = detail::mma_wide_t<TC>;
    // Where y[k, col] of a batch entry lies: rows of N, or (8-bit y off tensor cores: fp8
    // before sm_89) columns of K.
    constexpr int kStrideK = Plan::kTransposedB ? 1 : Plan::kLdB, kStrideN = Plan::kTransposedB ? Plan::kLdB : 1;
#pragma unroll
    for (int s = 0; s < LC::kSlots; ++s) {
      if (!LC::owns(s)) {
        out.v[s] = acc.v[s];
        continue;
      }
      const int e = LC::element(s), row = e / N, col = e % N, batch = row / M;
      W sum = convert<W>(acc.v[s]);
      const TB* column = b + (Plan::kTransposedB ? batch * N * Plan::kLdB : batch * K * Plan::kLdB) + col * kStrideN;
      for (int k = 0; k < K; ++k) sum += convert<W>(a[row * Plan::kLdA + k]) * convert<W>(column[k * kStrideK]);
      out.v[s] = convert<TC>(sum);
    }
  }
  __syncthreads();  // the next user of the buffer may overwrite it
  return out;
}

}  // namespace tile2cu
