// tile2cu/fragment_exchange.cuh: a float tile in shared memory, laid out so that both the
// blocked layout's runs and the tensor cores' accumulator fragments reach it without bank
// conflicts. The GEMM and attention main loops move their accumulators through it on the way
// into and out of their fragments.
#pragma once

#include "tile.cuh"

namespace tile2cu {

// The accumulator's trip between its blocked layout (the tile the kernel sees) and the
// tensor-core fragments: through shared memory, as float, Rows rows of Cols + Pad. A fragment access
// touches the same columns of 8 rows at once (4 row pairs for the transposed tf32 fragments);
// unpadded, those rows fall on one bank (Cols is a multiple of 32) and every access is an 8-way
// (4-way) conflict, about 8000 extra shared-memory cycles per 128 x 256 tile each way. Pad 8 puts
// a fragment's 8 rows 8 banks apart, so a half-warp's 64-bit accesses fill the 32 banks once;
// pad 4 does the same for the tf32 row pairs.
template <int Rows, int Cols, int Pad>
struct AccumulatorExchange {
  static constexpr int kLd = Cols + Pad;
  static constexpr int kBytes = Rows * kLd * int(sizeof(float));
  float* base;

  TILE2CU_DEVICE float* at(int row, int col) const { return base + row * kLd + col; }
  // A thread's four floats of an mma accumulator fragment (mma.sync's m16n8 C, a wgmma slice):
  // f = (row, col), (row, col + 1), (row + 8, col), (row + 8, col + 1), col even; two float2s.
  TILE2CU_DEVICE void load_fragment(int row, int col, float* f) const {
    const float2 lo = *reinterpret_cast<const float2*>(at(row, col));
    const float2 hi = *reinterpret_cast<const float2*>(at(row + 8, col));
    f[0] = lo.x, f[1] = lo.y, f[2] = hi.x, f[3] = hi.y;
  }
  TILE2CU_DEVICE void store_fragment(int row, int col, const float* f) const {
    *reinterpret_cast<float2*>(at(row, col)) = make_float2(f[0], f[1]);
    *reinterpret_cast<float2*>(at(row + 8, col)) = make_float2(f[2], f[3]);
  }

  // Where slot s (the first of a run) of a blocked tile goes. A run never crosses a row, so it
  // stays one vector access. Run j of this thread is run j * Threads + threadIdx.x of the tile:
  // when the CTA's runs cover whole rows, that is this thread's first position plus a constant.
  template <class LC>
  TILE2CU_DEVICE float* run(int s) const {
    constexpr int kRowsPerSweep = LC::kThreads * LC::kVec / Cols;  // rows one run per thread covers
    if constexpr (kRowsPerSweep >= 1 && kRowsPerSweep * Cols == LC::kThreads * LC::kVec) {
      const int first = int(threadIdx.x) * LC::kVec;
      return at(first / Cols + (s / LC::kVec) * kRowsPerSweep, first % Cols);
    } else {
      return at(LC::element(s) / Cols, LC::element(s) % Cols);
    }
  }
  template <class TC, class LC>
  TILE2CU_DEVICE void put(const Tile<TC, LC>& tile) const {
    static_assert(LC::kElems == Rows * Cols, "the exchange holds one Rows x Cols tile");
#pragma unroll
    for (int s = 0; s < LC::kSlots; s += LC::kVec) {
      if (!LC::owns(s)) continue;
      float* p = run<LC>(s);
#pragma unroll
      for (int v = 0; v < LC::kVec; ++v) p[v] = convert<float>(tile.v[s + v]);
    }
  }
  // The tile back; slots this thread does not own keep `fallback`'s values.
  template <class TC, class LC>
  TILE2CU_DEVICE Tile<TC, LC> get(const Tile<TC, LC>& fallback) const {
    Tile<TC, LC> out;
#pragma unroll
    for (int s = 0; s < LC::kSlots; s += LC::kVec) {
      const float* p = run<LC>(s);
#pragma unroll
      for (int v = 0; v < LC::kVec; ++v) out.v[s + v] = LC::owns(s) ? convert<TC>(p[v]) : fallback.v[s + v];
    }
    return out;
  }
};

}  // namespace tile2cu
