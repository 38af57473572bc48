// tile2cu/gather.cuh: element-indexed loads and stores (ct.gather / ct.scatter, spec c.2.3).
//
//   gather<Layout_64>(x, indices(row, cols))                    // tile: x[row, cols[k]] for each k
//   gather<Layout_64>(x, indices(ids), mask, -INFINITY)        // masked lanes read the padding
//   scatter<Layout_64>(y, indices(row, cols), values, mask)
//   gather(x, indices(i, j))                                    // one element, in every thread
//
//   gather<Layout_64>(x, raw_offset(offs))                    // x.get_raw_memory().load_offset(offs)
//
// indices(...) takes one index per array axis; each is a scalar or a Tile<_, L> of the access
// shape (sema broadcasts them), of any integer type. An index is in bounds when, converted to
// uint64, it is below the axis extent: negative indices are out of bounds, as in cuTile. Lanes out
// of bounds or masked off are not accessed: a gather yields the padding value there, a scatter
// skips them. Bounds::Unchecked drops the bounds test (the kernel promised in-bounds indices;
// the mask still applies).
//
// raw_offset(o) instead addresses element o counted from the array's data pointer, whatever its
// shape and strides (cuTile's RawArrayMemory): o is an integer scalar or tile of the access
// shape, and nothing is bounds-checked (Bounds does not apply; the mask does).
//
// Each thread accesses the elements of its own slots, one at a time: indices are arbitrary, so
// there is no run to vectorize.
#pragma once

#include <cuda/std/tuple>

#include "array.cuh"
#include "tile.cuh"

namespace tile2cu {

enum class Bounds { Checked, Unchecked };

template <class... Ix>
struct Indices {
  cuda::std::tuple<Ix...> items;
};

// One element index per array axis: scalars or tiles.
template <class... Ix>
TILE2CU_DEVICE Indices<Ix...> indices(const Ix&... ix) {
  return {cuda::std::tuple<Ix...>(ix...)};
}

// One element offset from the array's data pointer: a scalar or a tile.
template <class O>
struct RawOffset {
  O offset;
};

template <class O>
TILE2CU_DEVICE RawOffset<O> raw_offset(const O& offset) {
  return {offset};
}

namespace detail {

// Where slot `s` of an element-indexed access lands: its element offset, and whether it is in
// bounds (always true when unchecked).
struct ElementPos {
  int64_t offset;
  bool in;
};

template <Bounds B, class T, int R, class I, class... Ix, size_t... K>
TILE2CU_DEVICE ElementPos element_pos(const Array<T, R, I>& a, const Indices<Ix...>& ix, int s,
                                      std::index_sequence<K...>) {
  static_assert(sizeof...(Ix) == R, "indices(): one index per array axis");
  static_assert((is_int_v<std::decay_t<decltype(slot_value(cuda::std::get<K>(ix.items), 0))>> && ...),
                "indices must be integers");
  ElementPos p{0, true};
  (
      [&] {
        const auto x = slot_value(cuda::std::get<K>(ix.items), s);
        if constexpr (B == Bounds::Checked) p.in = p.in && static_cast<uint64_t>(x) < uint64_t(a.shape[K]);
        p.offset += int64_t(x) * int64_t(a.stride[K]);
      }(),
      ...);
  return p;
}

template <Bounds B, class T, int R, class I, class... Ix>
TILE2CU_DEVICE ElementPos element_pos(const Array<T, R, I>& a, const Indices<Ix...>& ix, int s) {
  return element_pos<B>(a, ix, s, std::index_sequence_for<Ix...>{});
}

template <Bounds B, class T, int R, class I, class O>
TILE2CU_DEVICE ElementPos element_pos(const Array<T, R, I>&, const RawOffset<O>& o, int s) {
  const auto x = slot_value(o.offset, s);
  static_assert(is_int_v<std::decay_t<decltype(x)>>, "raw_offset: the offset must be an integer");
  return {int64_t(x), true};
}

}  // namespace detail

template <class L, Bounds B = Bounds::Checked, class T, int R, class I, class At, class M = bool,
          class P = T>
TILE2CU_DEVICE Tile<T, L> gather(const Array<T, R, I>& a, const At& ix, const M& mask = true,
                                 const P& padding = P(0)) {
  Tile<T, L> t;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    const detail::ElementPos p = detail::element_pos<B>(a, ix, s);
    t.v[s] = L::owns(s) && p.in && slot_value(mask, s) ? a.data[p.offset] : T(slot_value(padding, s));
  }
  return t;
}

template <Bounds B = Bounds::Checked, class T, int R, class I, class At>
TILE2CU_DEVICE T gather(const Array<T, R, I>& a, const At& ix, bool mask = true,
                        id_t<T> padding = T(0)) {
  const detail::ElementPos p = detail::element_pos<B>(a, ix, 0);
  return p.in && mask ? a.data[p.offset] : padding;
}

template <class L, Bounds B = Bounds::Checked, class T, int R, class I, class At, class V,
          class M = bool>
TILE2CU_DEVICE void scatter(const Array<T, R, I>& a, const At& ix, const V& value,
                            const M& mask = true) {
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) {
    const detail::ElementPos p = detail::element_pos<B>(a, ix, s);
    if (L::owns(s) && p.in && slot_value(mask, s)) a.data[p.offset] = slot_value(value, s);
  }
}

// One element; the caller runs it once per block (once_per_block).
template <Bounds B = Bounds::Checked, class T, int R, class I, class At>
TILE2CU_DEVICE void scatter(const Array<T, R, I>& a, const At& ix, id_t<T> value,
                            bool mask = true) {
  const detail::ElementPos p = detail::element_pos<B>(a, ix, 0);
  if (p.in && mask) a.data[p.offset] = value;
}

}  // namespace tile2cu
