// tile2cu/host.hpp: host-side helpers for kernel launchers. Plain C++17: builds with any host
// compiler, needs no CUDA header.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "array.cuh"

namespace tile2cu {

// A strided array as the caller passes it. Shapes and strides are int64; strides count elements.
template <class T, int Rank>
struct ArrayView {
  static_assert(Rank >= 1, "ArrayView: rank must be at least 1");
  T* data = nullptr;
  int64_t shape[Rank] = {};
  int64_t strides[Rank] = {};

  ArrayView() = default;
  // Contiguous, row-major.
  ArrayView(T* data_, const int64_t (&shape_)[Rank]) : data(data_) {
    int64_t s = 1;
    for (int k = Rank - 1; k >= 0; --k) {
      shape[k] = shape_[k];
      strides[k] = s;
      s *= shape_[k];
    }
  }
  ArrayView(T* data_, const int64_t (&shape_)[Rank], const int64_t (&strides_)[Rank]) : data(data_) {
    for (int k = 0; k < Rank; ++k) {
      shape[k] = shape_[k];
      strides[k] = strides_[k];
    }
  }
};

// Fills the kernel argument for `view` with index type I. Returns false (the launcher then returns
// cudaErrorInvalidValue) when a shape or stride is negative or does not fit in I.
template <class I, class T, int R>
bool to_device_array(const ArrayView<T, R>& view, Array<std::remove_const_t<T>, R, I>& out) {
  static_assert(std::is_integral_v<I>, "index type must be an integer");
  constexpr auto max = static_cast<uint64_t>(std::numeric_limits<I>::max());
  for (int k = 0; k < R; ++k) {
    if (view.shape[k] < 0 || static_cast<uint64_t>(view.shape[k]) > max) return false;
    if (view.strides[k] < 0 || static_cast<uint64_t>(view.strides[k]) > max) return false;
    out.shape[k] = static_cast<I>(view.shape[k]);
    out.stride[k] = static_cast<I>(view.strides[k]);
  }
  out.data = const_cast<std::remove_const_t<T>*>(view.data);
  return true;
}

// cuTile grids: every dim in [1, 2^24 - 1]. (CUDA itself caps gridDim.y and .z at 65535.)
inline bool grid_ok(int64_t x, int64_t y = 1, int64_t z = 1) {
  constexpr int64_t kMax = (int64_t(1) << 24) - 1;
  return x > 0 && y > 0 && z > 0 && x <= kMax && y <= kMax && z <= kMax;
}

// Ceiling division for grid sizes (a >= 0, b > 0).
constexpr int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace tile2cu
