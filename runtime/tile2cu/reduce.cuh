// tile2cu/reduce.cuh: reductions of a tile over some of its axes (ct.sum, ct.max, ct.argmax, ...).
//
//   reduce_sum<Axes<1>, Layout_32x1>(x, smem)   // (32, 64) -> (32, 1) or (32,): a tile
//   reduce_max<Axes<0, 1>>(x, smem)            // every axis: a scalar, in every thread
//
// Three steps, all threads taking part:
//  1. Each thread combines what it can in registers: when the reduced axes are the trailing
//     ones, the Vec elements of a run belong to one output, so a run becomes one partial.
//     The partials (or, for other axes, the elements) go to shared memory.
//  2. Each output gets G = Threads / outputs consecutive threads (1 when there are more outputs
//     than threads); each folds a strided share of the output's partials, and the group combines
//     with warp_reduce (warp.cuh; in two levels when a group spans several warps).
//  3. The results are read back in the destination tile's layout.
// Like cuTile, there is no widening: a bf16 sum accumulates in bf16.
#pragma once

#include <cuda/std/limits>

#include "broadcast.cuh"
#include "elementwise.cuh"
#include "warp.cuh"

namespace tile2cu {

template <int... A>
struct Axes {
  static constexpr unsigned mask = (0u | ... | (1u << A));
};

// A value with the flat index (over the reduced axes) it came from: argmax / argmin.
template <class T>
struct Indexed {
  T value;
  int32_t index;
};

namespace detail {

template <class T>
TILE2CU_HD T lowest() {
  if constexpr (is_float_v<T>) return -infinity<T>();
  else if constexpr (std::is_same_v<T, bool>) return false;
  else return cuda::std::numeric_limits<T>::lowest();
}
template <class T>
TILE2CU_HD T highest() {
  if constexpr (is_float_v<T>) return infinity<T>();
  else if constexpr (std::is_same_v<T, bool>) return true;
  else return cuda::std::numeric_limits<T>::max();
}

}  // namespace detail

// Combiners: an identity and an associative, commutative combine.
struct SumOp {
  template <class T> TILE2CU_DEVICE static T identity() { return convert<T>(0); }
  template <class T> TILE2CU_DEVICE static T combine(T a, T b) { return add(a, b); }
};
struct ProdOp {
  template <class T> TILE2CU_DEVICE static T identity() { return convert<T>(1); }
  template <class T> TILE2CU_DEVICE static T combine(T a, T b) { return mul(a, b); }
};
// ct.max / ct.min. Without NaN propagation a float identity is NaN, which maximum() and
// minimum() pass over, so a row of NaNs alone stays NaN (cuTile's test_reduce_maxmin_nan) where
// -inf / +inf would take its place; with propagation it is -inf / +inf, which any NaN beats.
template <bool PropagateNan>
struct MaxOp {
  template <class T> TILE2CU_HD static T identity() {
    if constexpr (is_float_v<T> && !PropagateNan) return quiet_nan<T>();
    else return detail::lowest<T>();
  }
  template <class T> TILE2CU_HD static T combine(T a, T b) {
    if constexpr (PropagateNan) return maximum_nan(a, b);
    else return maximum(a, b);
  }
};
template <bool PropagateNan>
struct MinOp {
  template <class T> TILE2CU_HD static T identity() {
    if constexpr (is_float_v<T> && !PropagateNan) return quiet_nan<T>();
    else return detail::highest<T>();
  }
  template <class T> TILE2CU_HD static T combine(T a, T b) {
    if constexpr (PropagateNan) return minimum_nan(a, b);
    else return minimum(a, b);
  }
};
// Ties go to the smaller index. NaN loses, unless PropagateNan, when the first NaN wins. The
// identity (index kNone: no element) loses to every element, a NaN included, so an all-NaN row
// gives its first index as in cuTile (test_reduce_argmaxmin_nan), not kNone.
template <bool Greater, bool PropagateNan>
struct ArgOp {
  static constexpr int32_t kNone = INT32_MAX;
  template <class V> TILE2CU_HD static V identity() {
    using T = decltype(V::value);
    return V{Greater ? detail::lowest<T>() : detail::highest<T>(), kNone};
  }
  template <class V> TILE2CU_HD static V combine(V a, V b) {
    if (a.index == kNone) return b;
    if (b.index == kNone) return a;
    const bool a_nan = isnan(a.value), b_nan = isnan(b.value);
    if (a_nan || b_nan) {
      if (a_nan && b_nan) return a.index <= b.index ? a : b;
      return (a_nan == PropagateNan) ? a : b;
    }
    if (equal(a.value, b.value)) return a.index <= b.index ? a : b;
    return (Greater ? greater(a.value, b.value) : less(a.value, b.value)) ? a : b;
  }
};

// A combiner written in the kernel (ct.reduce / ct.scan with a function): f(a, b) and the
// identity the kernel gave. Used through an instance, as the built-in ones are. Over a tuple of
// tiles T is Values<...>: f takes the fields of a, then those of b (values.cuh).
template <class T, class F>
struct CustomOp {
  F f;
  T identity_value;
  template <class V> TILE2CU_DEVICE V identity() const { return identity_value; }
  TILE2CU_DEVICE T combine(T a, T b) const { return combine_elements(f, a, b); }
};

// ct.reduce / ct.scan over a tuple of tiles of one layout: one tile of Values, folded as one.
template <class L, class... T>
TILE2CU_DEVICE Tile<Values<T...>, L> zip(const Tile<T, L>&... tiles) {
  Tile<Values<T...>, L> out;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s)) out.v[s] = Values<T...>{tiles.v[s]...};
  return out;
}

// Field K of each element of a zipped tile: the K-th result of a tuple reduce / scan.
template <int K, class L, class... T>
TILE2CU_DEVICE auto field(const Tile<Values<T...>, L>& zipped) {
  using R = std::decay_t<decltype(field<K>(zipped.v[0]))>;
  Tile<R, L> out;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s)) out.v[s] = field<K>(zipped.v[s]);
  return out;
}

namespace detail {

template <class Op> struct is_arg_op : std::false_type {};
template <bool G, bool P> struct is_arg_op<ArgOp<G, P>> : std::true_type {};

// What the reduction carries for element type T: T, or T with its index.
template <class Op, class T>
using reduced_t = std::conditional_t<is_arg_op<Op>::value, Indexed<T>, T>;

template <class S, unsigned Mask>
TILE2CU_HD constexpr int reduced_count() {
  int n = 1;
  for (int d = 0; d < S::rank; ++d)
    if (Mask >> d & 1) n *= S::dim(d);
  return n;
}

// True when the reduced axes are exactly the trailing ones: then a run of the layout (which
// never crosses the last dim) feeds a single output.
template <class S, unsigned Mask>
TILE2CU_HD constexpr bool reduces_trailing_axes() {
  bool seen_kept = false;
  for (int d = S::rank - 1; d >= 0; --d) {
    if (Mask >> d & 1) {
      if (seen_kept) return false;
    } else {
      seen_kept = true;
    }
  }
  return true;
}

// Splits flat element e of shape S into (output index over kept axes, index over reduced axes),
// each row-major over its own axes.
template <class S, unsigned Mask>
TILE2CU_DEVICE void split_index(int e, int& kept, int& reduced) {
  kept = 0;
  reduced = 0;
  int kept_scale = 1, reduced_scale = 1;
#pragma unroll
  for (int d = S::rank - 1; d >= 0; --d) {
    const int c = (e >> log2i(S::stride(d))) & (S::dim(d) - 1);
    if (Mask >> d & 1) {
      reduced += c * reduced_scale;
      reduced_scale *= S::dim(d);
    } else {
      kept += c * kept_scale;
      kept_scale *= S::dim(d);
    }
  }
}

// The inverse of split_index.
template <class S, unsigned Mask>
TILE2CU_DEVICE int join_index(int kept, int reduced) {
  int e = 0;
#pragma unroll
  for (int d = S::rank - 1; d >= 0; --d) {
    const int n = S::dim(d);
    int& from = (Mask >> d & 1) ? reduced : kept;
    e += (from & (n - 1)) * S::stride(d);
    from >>= log2i(n);
  }
  return e;
}

template <class Op>
struct Combine {
  Op op;
  template <class V>
  TILE2CU_DEVICE V operator()(const V& a, const V& b) const { return op.combine(a, b); }
};

TILE2CU_HD constexpr int align16(int bytes) { return (bytes + 15) / 16 * 16; }

// Elements of a destination layout; void (a scalar result) has one.
template <class L> struct elements_of { static constexpr int value = L::kElems; };
template <> struct elements_of<void> { static constexpr int value = 1; };

// Steps 1 and 2: leaves output o's value in out[o] for every o < Outputs.
template <class Op, unsigned Mask, int Outputs, class T, class SrcL>
TILE2CU_DEVICE void reduce_into(const Tile<T, SrcL>& src, reduced_t<Op, T>* buf, reduced_t<Op, T>* out,
                                reduced_t<Op, T>* warp_results, const Op& op) {
  using V = reduced_t<Op, T>;
  using S = typename SrcL::shape;
  constexpr int kThreads = SrcL::kThreads, kVec = SrcL::kVec;
  constexpr int kCount = reduced_count<S, Mask>();  // values per output
  constexpr bool kPerRun = reduces_trailing_axes<S, Mask>() && kCount % kVec == 0;
  constexpr int kPerOutput = kPerRun ? kCount / kVec : kCount;  // entries of buf per output
  const auto value_of = [&](int slot) -> V {
    if constexpr (is_arg_op<Op>::value) {
      int kept, reduced;
      split_index<S, Mask>(SrcL::element(slot), kept, reduced);
      return V{src.v[slot], reduced};
    } else {
      return src.v[slot];
    }
  };
  // Step 1.
#pragma unroll
  for (int j = 0; j < SrcL::kRunsPerThread; ++j) {
    const int s0 = j * kVec;
    if (!SrcL::owns(s0)) continue;
    if constexpr (kPerRun) {
      V acc = value_of(s0);
#pragma unroll
      for (int i = 1; i < kVec; ++i) acc = op.combine(acc, value_of(s0 + i));
      buf[SrcL::element(s0) / kVec] = acc;
    } else {
#pragma unroll
      for (int i = 0; i < kVec; ++i) buf[SrcL::element(s0 + i)] = value_of(s0 + i);
    }
  }
  SrcL::sync();
  // Step 2.
  constexpr int kGroup = Outputs >= kThreads ? 1 : kThreads / Outputs;
  constexpr int kWarpGroup = kGroup < 32 ? kGroup : 32;
  const int tid = SrcL::thread();
  for (int o = tid / kGroup; o < Outputs; o += kThreads / kGroup) {
    V acc = op.template identity<V>();
    for (int k = tid % kGroup; k < kPerOutput; k += kGroup)
      acc = op.combine(acc, buf[kPerRun ? o * kPerOutput + k : join_index<S, Mask>(o, k)]);
    if constexpr (kGroup > 1) {
      acc = warp_reduce<kWarpGroup>(acc, Combine<Op>{op});
      if constexpr (kGroup > 32) {  // the group spans warps: combine their results
        if (tid % 32 == 0) warp_results[tid / 32] = acc;
        SrcL::sync();
        acc = warp_results[o * (kGroup / 32)];
#pragma unroll
        for (int w = 1; w < kGroup / 32; ++w) acc = op.combine(acc, warp_results[o * (kGroup / 32) + w]);
      }
    }
    if (tid % kGroup == 0) out[o] = acc;
  }
  SrcL::sync();
}

// What the caller gets of a reduced value: argmax/argmin's index, else the value itself (a
// Values<...> for a tuple of tiles).
template <class V>
TILE2CU_DEVICE V result_of(const V& v) { return v; }
template <class T>
TILE2CU_DEVICE int32_t result_of(const Indexed<T>& v) { return v.index; }

}  // namespace detail

// Bytes of scratch a reduction needs; the generated code sizes its shared buffer with the same rule
// A scalar result (DstL = void), argmax/argmin included, needs only one value per warp (reduce_all).
template <class Op, class T, class SrcL, int Outputs>
inline constexpr int reduce_smem_bytes =
    detail::align16(SrcL::kElems * int(sizeof(detail::reduced_t<Op, T>))) +
    detail::align16(Outputs * int(sizeof(detail::reduced_t<Op, T>))) +
    detail::align16(SrcL::kThreads / 32 * int(sizeof(detail::reduced_t<Op, T>)));

namespace detail {

// Whether reduce() takes the register path below: a scalar result. argmax/argmin take it too,
// each element carrying its flat index, so a whole-tile argmax needs one value per warp of
// shared memory, not the tile (test_reduce_argmaxmin_all_axes: 512 x 128 int64 is 1 MiB).
template <class Op, class DstL, class SrcL>
TILE2CU_HD constexpr bool reduces_all_in_registers() {
  return std::is_void_v<DstL> && (SrcL::kThreads % 32 == 0 || SrcL::kBlocksPerCta > 1);
}

// Slot s of this thread as the reduction carries it: the value, with its index over the reduced
// axes for argmax/argmin.
template <class Op, unsigned Mask, class T, class SrcL>
TILE2CU_DEVICE reduced_t<Op, T> slot_value(const Tile<T, SrcL>& src, int s) {
  if constexpr (is_arg_op<Op>::value) {
    int kept, reduced;
    split_index<typename SrcL::shape, Mask>(SrcL::element(s), kept, reduced);
    return reduced_t<Op, T>{src.v[s], reduced};
  } else {
    return src.v[s];
  }
}

// This thread's elements to one value. kChains independent partial results, combined as a tree
// at the end: one chain of kSlots dependent adds would cost kSlots times the add latency.
template <class Op, unsigned Mask, class T, class SrcL, class V = reduced_t<Op, T>>
TILE2CU_DEVICE V fold_slots(const Tile<T, SrcL>& src, const Op& op) {
  constexpr int kChains = SrcL::kSlots >= 8 ? 8 : SrcL::kSlots >= 4 ? 4 : 1;
  V part[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) part[c] = op.template identity<V>();
#pragma unroll
  for (int s = 0; s < SrcL::kSlots; ++s)
    if (SrcL::owns(s)) part[s % kChains] = op.combine(part[s % kChains], slot_value<Op, Mask>(src, s));
#pragma unroll
  for (int width = kChains / 2; width > 0; width /= 2)
#pragma unroll
    for (int c = 0; c < width; ++c) part[c] = op.combine(part[c], part[c + width]);
  return part[0];
}

// The whole tile to one scalar, in every thread: each thread folds its own elements in
// registers, each warp combines with shuffles, and the warps' results meet in shared memory
// (kThreads / 32 values, one barrier, plus one so the scratch may be reused). Up to 8 warps,
// every thread then reads all the partials and combines them in order. From 16 warps on, each
// warp combines them as a butterfly over its lanes, one partial a lane: one shared load and
// log2(kWarps) shuffles, where reading them all would hold 16 registers while the tile's own are
// still live (ptxas spilled there at 512 threads and 32 registers). Each shuffle waits on the
// last: at 8 warps the butterfly measured both ways (RMS norm's ragged rows at 256 threads, H100:
// 2.6 % slower at 5120 columns, 3 % faster at 8190), so there the partials are read in order.
// Each step combines the lower lane's value with the higher one's, in that order on both lanes,
// so every thread ends with the same bits (max(+0, -0) and NaN payloads included).
template <class Op, unsigned Mask, class T, class SrcL, class V = reduced_t<Op, T>>
TILE2CU_DEVICE V reduce_all(const Tile<T, SrcL>& src, void* smem, const Op& op) {
  constexpr int kWarps = SrcL::kThreads / 32;
  static_assert(kWarps >= 1 && kWarps <= 32, "reduce_all: 32 to 1024 threads");
  V acc = fold_slots<Op, Mask>(src, op);
  const int warp = int(threadIdx.x) / 32;
  const int lane = int(threadIdx.x) % 32;
  acc = warp_reduce<32>(acc, Combine<Op>{op});
  V* partials = static_cast<V*>(smem);
  if (lane == 0) partials[warp] = acc;
  SrcL::sync();
  if constexpr (kWarps < 16 || (kWarps & (kWarps - 1)) != 0) {
    V result = partials[0];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) result = op.combine(result, partials[w]);
    SrcL::sync();
    return result;
  } else {
    const V partial = partials[lane % kWarps];
    SrcL::sync();
    return warp_reduce<kWarps>(partial, Combine<Op>{op});
  }
}

// reduce_all where the CTA runs several blocks (BlocksPerCta > 1): the block is kThreads lanes
// of one warp, among other blocks' lanes, and a butterfly over its own lanes, in the order
// above, leaves the result in each of them.
template <class Op, unsigned Mask, class T, class SrcL, class V = reduced_t<Op, T>>
TILE2CU_DEVICE V reduce_all_lanes(const Tile<T, SrcL>& src, const Op& op) {
  return warp_reduce<SrcL::kThreads>(fold_slots<Op, Mask>(src, op), Combine<Op>{op});
}

}  // namespace detail

// Reduces the axes in Ax; DstL = void gives a scalar, else the tile of the kept axes.
template <class Op, class Ax, class DstL = void, class T, class SrcL>
TILE2CU_DEVICE auto reduce(const Tile<T, SrcL>& src, void* smem, const Op& op = Op{}) {
  using V = detail::reduced_t<Op, T>;
  constexpr int kOutputs = detail::elements_of<DstL>::value;
  static_assert(SrcL::kElems / detail::reduced_count<typename SrcL::shape, Ax::mask>() == kOutputs,
                "reduce: the destination must hold one element per kept index");
  if constexpr (detail::reduces_all_in_registers<Op, DstL, SrcL>()) {
    V result;
    if constexpr (SrcL::kBlocksPerCta > 1) result = detail::reduce_all_lanes<Op, Ax::mask>(src, op);
    else result = detail::reduce_all<Op, Ax::mask>(src, smem, op);
    if constexpr (detail::is_arg_op<Op>::value) return result.index;
    else return result;
  } else {
    char* bytes = static_cast<char*>(smem);
    V* buf = reinterpret_cast<V*>(bytes);
    V* out = reinterpret_cast<V*>(bytes + detail::align16(SrcL::kElems * int(sizeof(V))));
    V* warp_results = reinterpret_cast<V*>(bytes + detail::align16(SrcL::kElems * int(sizeof(V))) +
                                           detail::align16(kOutputs * int(sizeof(V))));
    detail::reduce_into<Op, Ax::mask, kOutputs>(src, buf, out, warp_results, op);
    using R = decltype(detail::result_of(out[0]));
    if constexpr (std::is_void_v<DstL>) {
      const R value = detail::result_of(out[0]);
      SrcL::sync();  // the buffer may be reused right after
      return value;
    } else {
      Tile<R, DstL> dst;
#pragma unroll
      for (int s = 0; s < DstL::kSlots; ++s)
        if (DstL::owns(s)) dst.v[s] = detail::result_of(out[DstL::element(s)]);
      SrcL::sync();
      return dst;
    }
  }
}

template <class Ax, class DstL = void, class T, class L>
TILE2CU_DEVICE auto reduce_sum(const Tile<T, L>& x, void* smem) { return reduce<SumOp, Ax, DstL>(x, smem); }
template <class Ax, class DstL = void, class T, class L>
TILE2CU_DEVICE auto reduce_prod(const Tile<T, L>& x, void* smem) { return reduce<ProdOp, Ax, DstL>(x, smem); }
template <class Ax, class DstL = void, bool PropagateNan = false, class T, class L>
TILE2CU_DEVICE auto reduce_max(const Tile<T, L>& x, void* smem) { return reduce<MaxOp<PropagateNan>, Ax, DstL>(x, smem); }
template <class Ax, class DstL = void, bool PropagateNan = false, class T, class L>
TILE2CU_DEVICE auto reduce_min(const Tile<T, L>& x, void* smem) { return reduce<MinOp<PropagateNan>, Ax, DstL>(x, smem); }
template <class Ax, class DstL = void, bool PropagateNan = false, class T, class L>
TILE2CU_DEVICE auto argmax(const Tile<T, L>& x, void* smem) { return reduce<ArgOp<true, PropagateNan>, Ax, DstL>(x, smem); }
template <class Ax, class DstL = void, bool PropagateNan = false, class T, class L>
TILE2CU_DEVICE auto argmin(const Tile<T, L>& x, void* smem) { return reduce<ArgOp<false, PropagateNan>, Ax, DstL>(x, smem); }

// ct.reduce with a combiner from the kernel: combine(a, b) -> value, and its identity.
template <class Ax, class DstL = void, class T, class L, class F>
TILE2CU_DEVICE auto reduce_with(const Tile<T, L>& x, F combine, id_t<T> identity, void* smem) {
  return reduce<CustomOp<T, F>, Ax, DstL>(x, smem, CustomOp<T, F>{combine, identity});
}

}  // namespace tile2cu
