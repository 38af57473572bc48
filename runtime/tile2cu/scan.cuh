// tile2cu/scan.cuh: inclusive prefix operations along one axis (ct.cumsum, ct.cumprod, ct.scan).
//
//   scan<SumOp, 1>(x, smem)                 // cumsum along axis 1
//   scan<ProdOp, 0, true>(x, smem)          // cumprod along axis 0, from the last element back
//   scan_with<1>(x, combine, identity, smem)
//
// A tile of shape S scanned along axis A is S.size / S.dim(A) independent lines of S.dim(A)
// elements. All threads take part, in four steps:
//  1. The tile goes to shared memory (one padding element every 32, so that threads walking
//     neighbouring chunks of a line hit different banks).
//  2. Each line gets G consecutive threads (G = Threads / lines, at most the line length); each
//     thread folds its contiguous chunk of n / G elements.
//  3. The G chunk totals are exclusive-scanned across the group with warp_exclusive_scan (and, when a
//     group spans several warps, a second level over the warps' totals), so each thread knows
//     what comes before its chunk.
//  4. Each thread walks its chunk again from that prefix, writing the running value back; then
//     every thread reads the results in the tile's own layout.
// Like cuTile, there is no widening: a bf16 cumsum accumulates in bf16.
#pragma once

#include "reduce.cuh"
#include "warp.cuh"

namespace tile2cu {

namespace detail {

// Shared-memory position of flat element e: one padding slot after every 32 elements.
TILE2CU_HD constexpr int scan_slot(int e) { return e + e / 32; }

template <class T, class L>
TILE2CU_DEVICE void spill_padded(const Tile<T, L>& t, T* buf) {
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s)) buf[scan_slot(L::element(s))] = t.v[s];
}

template <class T, class L>
TILE2CU_DEVICE Tile<T, L> fill_padded(const T* buf) {
  Tile<T, L> t;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s)) t.v[s] = buf[scan_slot(L::element(s))];
  return t;
}

template <class S, int Axis>
struct ScanGeometry {
  static constexpr int kLength = S::dim(Axis);
  static constexpr int kStride = S::stride(Axis);
  static constexpr int kLines = S::size / kLength;
};

}  // namespace detail

// Bytes of scratch a scan needs; the generated code sizes its shared buffer with the same rule.
template <class T, class L>
inline constexpr int scan_smem_bytes =
    detail::align16(detail::scan_slot(L::kElems) * int(sizeof(T))) + detail::align16(L::kThreads / 32 * int(sizeof(T)));

template <class Op, int Axis, bool Reverse = false, class T, class L>
TILE2CU_DEVICE Tile<T, L> scan(const Tile<T, L>& src, void* smem, const Op& op = Op{}) {
  using G = detail::ScanGeometry<typename L::shape, Axis>;
  constexpr int kThreads = L::kThreads;
  constexpr int kPerLine = G::kLines >= kThreads ? 1 : kThreads / G::kLines;
  constexpr int kGroup = kPerLine < G::kLength ? kPerLine : G::kLength;  // threads per line
  constexpr int kChunk = G::kLength / kGroup;                           // elements per thread
  constexpr int kLinesPerPass = kThreads / kGroup;
  constexpr int kWarpGroup = kGroup < 32 ? kGroup : 32;
  char* bytes = static_cast<char*>(smem);
  T* buf = reinterpret_cast<T*>(bytes);
  T* warp_totals = reinterpret_cast<T*>(bytes + detail::align16(detail::scan_slot(L::kElems) * int(sizeof(T))));

  detail::spill_padded(src, buf);
  L::sync();
  const int tid = L::thread();
  const int lane = tid % kGroup;
  for (int first = 0; first < G::kLines; first += kLinesPerPass) {  // the same trip count in every thread
    const int line = first + tid / kGroup;
    const bool active = line < G::kLines;
    // Flat index of element k (counted in scan order) of this line.
    const int base = (line / G::kStride) * G::kLength * G::kStride + line % G::kStride;
    const auto at = [&](int k) {
      const int along = Reverse ? G::kLength - 1 - k : k;
      return detail::scan_slot(base + along * G::kStride);
    };
    // Step 2: this thread's chunk total.
    T total = op.template identity<T>();
    if (active)
      for (int k = lane * kChunk; k < (lane + 1) * kChunk; ++k) total = op.combine(total, buf[at(k)]);
    // Step 3: what the group's earlier chunks add up to.
    T before;
    if constexpr (kGroup == 1) {
      before = op.template identity<T>();
    } else if constexpr (kGroup <= 32) {
      T group_total;
      before = detail::warp_exclusive_scan<kWarpGroup>(total, op.template identity<T>(), detail::Combine<Op>{op}, group_total);
    } else {
      T warp_total;
      before = detail::warp_exclusive_scan<32>(total, op.template identity<T>(), detail::Combine<Op>{op}, warp_total);
      if (tid % 32 == 0) warp_totals[tid / 32] = warp_total;
      L::sync();
      T earlier_warps = op.template identity<T>();
      for (int w = (tid / kGroup) * (kGroup / 32); w < tid / 32; ++w) earlier_warps = op.combine(earlier_warps, warp_totals[w]);
      before = op.combine(earlier_warps, before);
      L::sync();
    }
    // Step 4.
    if (active) {
      T acc = before;
      for (int k = lane * kChunk; k < (lane + 1) * kChunk; ++k) {
        acc = op.combine(acc, buf[at(k)]);
        buf[at(k)] = acc;
      }
    }
  }
  L::sync();
  Tile<T, L> dst = detail::fill_padded<T, L>(buf);
  L::sync();  // the buffer may be reused right after
  return dst;
}

template <int Axis, bool Reverse = false, class T, class L>
TILE2CU_DEVICE auto cumsum(const Tile<T, L>& x, void* smem) { return scan<SumOp, Axis, Reverse>(x, smem); }
template <int Axis, bool Reverse = false, class T, class L>
TILE2CU_DEVICE auto cumprod(const Tile<T, L>& x, void* smem) { return scan<ProdOp, Axis, Reverse>(x, smem); }

// ct.scan with a combiner from the kernel: combine(a, b) -> value, and its identity.
template <int Axis, bool Reverse = false, class T, class L, class F>
TILE2CU_DEVICE auto scan_with(const Tile<T, L>& x, F combine, id_t<T> identity, void* smem) {
  return scan<CustomOp<T, F>, Axis, Reverse>(x, smem, CustomOp<T, F>{combine, identity});
}

}  // namespace tile2cu
