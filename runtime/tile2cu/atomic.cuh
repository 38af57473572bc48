// tile2cu/atomic.cuh: ct.atomic_add / max / min / and / or / xor / xchg / cas (spec c.2.6).
//
//   atomic_add<Layout_256>(hist, indices(bins), 1)             // tile: one RMW per lane
//   atomic_cas<MemoryOrder::Acquire>(locks, indices(i), 0, 1)  // one element (once_per_block)
//   atomic_add<Layout_128>(x, raw_offset(offs), val, mask)     // x.get_raw_memory().atomic_add_offset
//
// Indexing is gather's (gather.cuh): indices(...) per array axis, scalars or tiles of the access
// shape, negative = out of bounds; or raw_offset(offs) from the data pointer, unchecked. Each
// lane's read-modify-write is one atomic operation on cuda::atomic_ref<T, scope> with the
// requested memory order; lanes are independent and land in any order. Every form returns the old values. Out-of-bounds lanes, and those an optional
// trailing mask turns off, touch nothing: atomic_cas then returns `expected`, the others T(0).
//
// cuTile's defaults are MemoryOrder::AcqRel and MemoryScope::Device. float16/bfloat16 atomic_add
// uses the hardware's atomicAdd (relaxed, device scope) between fences that give the order.
#pragma once

#include <cuda/atomic>

#include "gather.cuh"

namespace tile2cu {

enum class MemoryOrder { Relaxed, Acquire, Release, AcqRel };
enum class MemoryScope { Block, Device, Sys };
enum class AtomicOp { Add, Max, Min, And, Or, Xor, Xchg };

namespace detail {

template <MemoryScope S>
inline constexpr cuda::thread_scope kThreadScope = S == MemoryScope::Block    ? cuda::thread_scope_block
                                                   : S == MemoryScope::Device ? cuda::thread_scope_device
                                                                              : cuda::thread_scope_system;
template <MemoryOrder O>
inline constexpr cuda::std::memory_order kMemoryOrder = O == MemoryOrder::Relaxed   ? cuda::std::memory_order_relaxed
                                                        : O == MemoryOrder::Acquire ? cuda::std::memory_order_acquire
                                                        : O == MemoryOrder::Release ? cuda::std::memory_order_release
                                                                                    : cuda::std::memory_order_acq_rel;
// A failed compare-exchange only reads: it keeps the acquire half of the order.
template <MemoryOrder O>
inline constexpr cuda::std::memory_order kFailureOrder =
    O == MemoryOrder::Acquire || O == MemoryOrder::AcqRel ? cuda::std::memory_order_acquire
                                                          : cuda::std::memory_order_relaxed;

template <AtomicOp Op, MemoryOrder O, MemoryScope S, class T>
TILE2CU_DEVICE T atomic_rmw_one(T* p, T u) {
  if constexpr (is_half_like_v<T>) {
    static_assert(Op == AtomicOp::Add && S != MemoryScope::Sys, "16-bit floats: atomic_add at block/device scope only");
    constexpr cuda::thread_scope scope = kThreadScope<S>;
    if constexpr (O == MemoryOrder::Release || O == MemoryOrder::AcqRel)
      cuda::atomic_thread_fence(cuda::std::memory_order_release, scope);
    const T old = atomicAdd(p, u);
    if constexpr (O == MemoryOrder::Acquire || O == MemoryOrder::AcqRel)
      cuda::atomic_thread_fence(cuda::std::memory_order_acquire, scope);
    return old;
  } else {
    cuda::atomic_ref<T, kThreadScope<S>> ref(*p);
    constexpr cuda::std::memory_order o = kMemoryOrder<O>;
    if constexpr (Op == AtomicOp::Add) return ref.fetch_add(u, o);
    else if constexpr (Op == AtomicOp::Max) return ref.fetch_max(u, o);
    else if constexpr (Op == AtomicOp::Min) return ref.fetch_min(u, o);
    else if constexpr (Op == AtomicOp::And) return ref.fetch_and(u, o);
    else if constexpr (Op == AtomicOp::Or) return ref.fetch_or(u, o);
    else if constexpr (Op == AtomicOp::Xor) return ref.fetch_xor(u, o);
    else return ref.exchange(u, o);
  }
}

template <MemoryOrder O, MemoryScope S, class T>
TILE2CU_DEVICE T atomic_cas_one(T* p, T expected, T desired) {
  cuda::atomic_ref<T, kThreadScope<S>> ref(*p);
  ref.compare_exchange_strong(expected, desired, kMemoryOrder<O>, kFailureOrder<O>);
  return expected;  // the old value, whether or not the exchange happened
}

}  // namespace detail

// Tile forms: one RMW per owned lane; the old values come back in the tile's layout. Lanes the
// mask turns off touch nothing, as out-of-bounds ones.
template <AtomicOp Op, class L, MemoryOrder O, MemoryScope S, Bounds B, class T, int R, class I, class At, class U,
          class M = bool>
TILE2CU_DEVICE Tile<T, L> atomic_rmw(const Array<T, R, I>& a, const At& ix, const U& update, const M& mask = true) {
  Tile<T, L> old;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    const detail::ElementPos p = detail::element_pos<B>(a, ix, s);
    old.v[s] = L::owns(s) && p.in && slot_value(mask, s)
                   ? detail::atomic_rmw_one<Op, O, S>(a.data + p.offset, T(slot_value(update, s)))
                   : T(0);
  }
  return old;
}

template <class L, MemoryOrder O = MemoryOrder::AcqRel, MemoryScope S = MemoryScope::Device,
          Bounds B = Bounds::Checked, class T, int R, class I, class At, class E, class D, class M = bool>
TILE2CU_DEVICE Tile<T, L> atomic_cas(const Array<T, R, I>& a, const At& ix, const E& expected, const D& desired,
                                     const M& mask = true) {
  Tile<T, L> old;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    const detail::ElementPos p = detail::element_pos<B>(a, ix, s);
    const T e = T(slot_value(expected, s));
    old.v[s] = L::owns(s) && p.in && slot_value(mask, s)
                   ? detail::atomic_cas_one<O, S>(a.data + p.offset, e, T(slot_value(desired, s)))
                   : e;
  }
  return old;
}

// Scalar forms: one element. The generated code calls them inside once_per_block.
template <AtomicOp Op, MemoryOrder O, MemoryScope S, Bounds B, class T, int R, class I, class At>
TILE2CU_DEVICE T atomic_rmw(const Array<T, R, I>& a, const At& ix, id_t<T> update, bool mask = true) {
  const detail::ElementPos p = detail::element_pos<B>(a, ix, 0);
  return p.in && mask ? detail::atomic_rmw_one<Op, O, S>(a.data + p.offset, update) : T(0);
}

template <MemoryOrder O = MemoryOrder::AcqRel, MemoryScope S = MemoryScope::Device, Bounds B = Bounds::Checked,
          class T, int R, class I, class At>
TILE2CU_DEVICE T atomic_cas(const Array<T, R, I>& a, const At& ix, id_t<T> expected, id_t<T> desired,
                            bool mask = true) {
  const detail::ElementPos p = detail::element_pos<B>(a, ix, 0);
  return p.in && mask ? detail::atomic_cas_one<O, S>(a.data + p.offset, expected, desired) : expected;
}

// atomic_add<L, ...>(a, ix, update[, mask]) for tiles, atomic_add<...>(a, ix, update[, mask]) for
// one element.
#define TILE2CU_ATOMIC_RMW(name, op)                                                                       \
  template <class L, MemoryOrder O = MemoryOrder::AcqRel, MemoryScope S = MemoryScope::Device,             \
            Bounds B = Bounds::Checked, class T, int R, class I, class At, class U, class M = bool>        \
  TILE2CU_DEVICE Tile<T, L> name(const Array<T, R, I>& a, const At& ix, const U& update, const M& mask = true) { \
    return atomic_rmw<op, L, O, S, B>(a, ix, update, mask);                                                \
  }                                                                                                        \
  template <MemoryOrder O = MemoryOrder::AcqRel, MemoryScope S = MemoryScope::Device,                      \
            Bounds B = Bounds::Checked, class T, int R, class I, class At>                                 \
  TILE2CU_DEVICE T name(const Array<T, R, I>& a, const At& ix, id_t<T> update, bool mask = true) {         \
    return atomic_rmw<op, O, S, B>(a, ix, update, mask);                                                   \
  }
TILE2CU_ATOMIC_RMW(atomic_add, AtomicOp::Add)
TILE2CU_ATOMIC_RMW(atomic_max, AtomicOp::Max)
TILE2CU_ATOMIC_RMW(atomic_min, AtomicOp::Min)
TILE2CU_ATOMIC_RMW(atomic_and, AtomicOp::And)
TILE2CU_ATOMIC_RMW(atomic_or, AtomicOp::Or)
TILE2CU_ATOMIC_RMW(atomic_xor, AtomicOp::Xor)
TILE2CU_ATOMIC_RMW(atomic_xchg, AtomicOp::Xchg)
#undef TILE2CU_ATOMIC_RMW

}  // namespace tile2cu
