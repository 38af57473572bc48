// tile2cu/tile.cuh: the Tile value, factories, and map() which lifts a scalar function to tiles.
#pragma once

#include "layout.cuh"
#include "values.cuh"

namespace tile2cu {

// A tile: this thread's L::kSlots elements, in registers (see layout.cuh for who holds what).
// Only ever index v[] with compile-time slot numbers (unrolled loops), or it spills to memory.
template <class T, class L>
struct Tile {
  // Values<...>: the tiles of a ct.reduce / ct.scan over a tuple of tiles, zipped (values.cuh).
  static_assert(is_scalar_v<T> || is_values_v<T>, "Tile: unsupported element type");
  using layout = L;
  using value_type = T;
  static constexpr int kSlots = L::kSlots;
  T v[L::kSlots];
};

template <class X>
inline constexpr bool is_tile_v = false;
template <class T, class L>
inline constexpr bool is_tile_v<Tile<T, L>> = true;

namespace detail {
// The first Tile type among Xs (void if none): gives the layout / value type of mixed arguments.
template <class... Xs>
struct first_tile { using type = void; };
template <class X, class... Xs>
struct first_tile<X, Xs...> {
  using type = std::conditional_t<is_tile_v<X>, X, typename first_tile<Xs...>::type>;
};
}  // namespace detail
template <class... Xs>
using first_tile_t = typename detail::first_tile<Xs...>::type;

// Slot s of an argument: a tile's own element, or a scalar (the same in every slot).
template <class X>
TILE2CU_DEVICE const X& slot_value(const X& x, int) { return x; }
template <class T, class L>
TILE2CU_DEVICE const T& slot_value(const Tile<T, L>& t, int s) { return t.v[s]; }

// Scalars fit any layout; tiles must have layout L.
template <class X, class L>
inline constexpr bool fits_layout_v = !is_tile_v<X>;
template <class T, class L>
inline constexpr bool fits_layout_v<Tile<T, L>, L> = true;

// out.v[s] = f(args[s]...) for every slot. Each argument is a Tile<_, L> or a scalar.
template <class L, class F, class... Args>
TILE2CU_DEVICE auto map(F f, const Args&... args) {
  static_assert((fits_layout_v<Args, L> && ...), "map: tiles with different layouts");
  using R = decltype(f(slot_value(args, 0)...));
  Tile<R, L> out;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) out.v[s] = f(slot_value(args, s)...);
  return out;
}

// Every element equal to `value`.
template <class L, class T>
TILE2CU_DEVICE Tile<T, L> full(T value) {
  Tile<T, L> t;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) t.v[s] = value;
  return t;
}

// Rank-1 tile with element e = start + e * step, converted to T: computed in int64 for integer
// and bool tiles, in float (double for float64) for float tiles, so a float start or step such
// as arange(4, start=8.5, step=-1.1, dtype=ct.float32) keeps its fraction (torch.arange's
// arithmetic, which cuTile's test_arange compares with).
template <class L, class T, class Start = int64_t, class Step = int64_t>
TILE2CU_DEVICE Tile<T, L> arange(Start start = 0, Step step = 1) {
  static_assert(L::shape::rank == 1, "arange: rank-1 tiles only");
  using Acc = std::conditional_t<std::is_same_v<T, double>, double,
                                 std::conditional_t<is_float_v<T> || is_restricted_v<T>, float, int64_t>>;
  const Acc first = convert<Acc>(start), stride = convert<Acc>(step);
  Tile<T, L> t;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s) t.v[s] = convert<T>(first + Acc(L::element(s)) * stride);
  return t;
}

// Tile forms of the scalar function `fn` declared before: elementwise over tile-tile, and
// tile-scalar / scalar-tile (the scalar is converted to the tile's element type T).
#define TILE2CU_LIFT_UNARY_AS(name, fn)                              \
  template <class T, class L>                                        \
  TILE2CU_DEVICE auto name(const Tile<T, L>& a) {                    \
    return map<L>([](T x) { return fn(x); }, a);                     \
  }
#define TILE2CU_LIFT_UNARY(fn) TILE2CU_LIFT_UNARY_AS(fn, fn)
// TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS leaves tile-scalar out, for an op that has its own
// (truediv: divide.cuh).
#define TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS(name, fn)             \
  template <class T, class L>                                        \
  TILE2CU_DEVICE auto name(const Tile<T, L>& a, const Tile<T, L>& b) { \
    return map<L>([](T x, T y) { return fn(x, y); }, a, b);          \
  }                                                                  \
  template <class T, class L>                                        \
  TILE2CU_DEVICE auto name(id_t<T> a, const Tile<T, L>& b) {         \
    return map<L>([](T x, T y) { return fn(x, y); }, a, b);          \
  }
#define TILE2CU_LIFT_BINARY_AS(name, fn)                             \
  TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS(name, fn)                   \
  template <class T, class L>                                        \
  TILE2CU_DEVICE auto name(const Tile<T, L>& a, id_t<T> b) {         \
    return map<L>([](T x, T y) { return fn(x, y); }, a, b);          \
  }
#define TILE2CU_LIFT_BINARY(fn) TILE2CU_LIFT_BINARY_AS(fn, fn)

}  // namespace tile2cu
