// tile2cu/values.cuh: Values<T0, ..., TN-1>, the element of a ct.reduce / ct.scan over a tuple of
// N tiles. The tiles are zipped into one tile of Values (reduce.cuh: zip), so the reduction and
// scan machinery that folds one value per element folds the N values together, and each result
// is one field of it (field<K>).
//
//   Values<int32_t, float> v{7, 0.5f};   // aggregate: v.first == 7, v.rest.first == 0.5f
//   field<1>(v)                          // 0.5f
//
// A nesting of `first` and `rest` (not an array: the fields have different types); the emitter's
// scratch sizes mirror this layout (src/emit/layout_plan.cpp: carried_element_bytes).
#pragma once

#include "types.cuh"

namespace tile2cu {

template <class... T>
struct Values;
template <class T>
struct Values<T> {
  T first;
};
template <class T, class... Rest>
struct Values<T, Rest...> {
  T first;
  Values<Rest...> rest;
};

template <class X>
inline constexpr bool is_values_v = false;
template <class... T>
inline constexpr bool is_values_v<Values<T...>> = true;

// Field K of a Values.
template <int K, class V, std::enable_if_t<is_values_v<V>, int> = 0>
TILE2CU_HD constexpr const auto& field(const V& v) {
  if constexpr (K == 0) return v.first;
  else return field<K - 1>(v.rest);
}
template <int K, class V, std::enable_if_t<is_values_v<V>, int> = 0>
TILE2CU_HD constexpr auto& field(V& v) {
  if constexpr (K == 0) return v.first;
  else return field<K - 1>(v.rest);
}

template <class V>
struct values_size;
template <class... T>
struct values_size<Values<T...>> : std::integral_constant<int, sizeof...(T)> {};

namespace detail {

// (A host-device template that calls the kernel's combiner: nvcc's host/device check is left to
// the caller's instantiation, as CUB does for its functors.)
#pragma nv_exec_check_disable
template <class F, class V, int... K>
TILE2CU_HD auto apply_combiner(const F& f, const V& a, const V& b, std::integer_sequence<int, K...>) {
  return f(field<K>(a)..., field<K>(b)...);
}

}  // namespace detail

// A combiner applied to two elements: f(a, b) for scalars; for Values, f takes every field of a,
// then every field of b (cuTile's order for a tuple of tiles), and returns a Values.
#pragma nv_exec_check_disable
template <class F, class T>
TILE2CU_HD T combine_elements(const F& f, const T& a, const T& b) {
  if constexpr (is_values_v<T>)
    return detail::apply_combiner(f, a, b, std::make_integer_sequence<int, values_size<T>::value>{});
  else
    return f(a, b);
}

}  // namespace tile2cu
