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
// Accumulation inside one call is in float for f16 accumulators (the tensor cores' f32 mode),
// rounded to f16 once at the end.
#pragma once

#include "mma_warp.cuh"
#include "tile.cuh"

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
  detail::stage_rows<TA>(a, Plan::kLdA, x);
  if constexpr (Plan::kTransposedB) detail::stage_columns<TB>(b, Plan::kLdB, y);
  else detail::stage_rows<TB>(b, Plan::kLdB, y);
  Tile<TC, LC> out;
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
