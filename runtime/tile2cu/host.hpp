// tile2cu/host.hpp: host-side helpers for kernel launchers. Plain C++17: builds with any host
// compiler, needs no CUDA header.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "array.cuh"

namespace tile2cu {

// A strided array as the caller passes it. Shapes and strides are int64; strides count elements.
// Rank 0 (a 0-d array) has no shape or strides: its arrays hold one unused entry (kStoredDims).
template <class T, int Rank>
struct ArrayView {
  static_assert(Rank >= 0, "ArrayView: rank must not be negative");
  T* data = nullptr;
  int64_t shape[kStoredDims<Rank>] = {};
  int64_t strides[kStoredDims<Rank>] = {};

  ArrayView() = default;
  // Contiguous, row-major.
  ArrayView(T* data_, const int64_t (&shape_)[kStoredDims<Rank>]) : data(data_) {
    int64_t s = 1;
    for (int k = Rank - 1; k >= 0; --k) {
      shape[k] = shape_[k];
      strides[k] = s;
      s *= shape_[k];
    }
  }
  ArrayView(T* data_, const int64_t (&shape_)[kStoredDims<Rank>], const int64_t (&strides_)[kStoredDims<Rank>])
      : data(data_) {
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

// A list of arrays of one dtype and rank, as the caller passes it (a cuTile `list` argument).
template <class T, int Rank>
struct ArrayViewList {
  std::vector<ArrayView<T, Rank>> items;

  // From the flat C ABI form: per item 1 + 2 * Rank int64 words (data pointer, shape, strides).
  static ArrayViewList from_words(const int64_t* words, int32_t count) {
    ArrayViewList list;
    for (int32_t i = 0; words && i < count; ++i) {
      const int64_t* w = words + int64_t(i) * (1 + 2 * Rank);
      ArrayView<T, Rank> v;
      v.data = reinterpret_cast<T*>(static_cast<uintptr_t>(w[0]));
      for (int k = 0; k < Rank; ++k) {
        v.shape[k] = w[1 + k];
        v.strides[k] = w[1 + Rank + k];
      }
      list.items.push_back(v);
    }
    return list;
  }
};

// What a specialization assumes of every item of a list: static extents (-1: any), a 16-byte
// aligned base pointer, a unit last stride.
template <int Rank>
struct ArrayFacts {
  int64_t dims[Rank];
  bool aligned16;
  bool contiguous;
};

// Checks every item against `facts` and index type I and appends the list to the table the
// kernel reads (per item: data pointer, shapes, strides, as int64; a launch's lists go back to
// back into one table). False when an item breaks them or the list is longer than int32 allows.
template <class I, class T, int R>
bool pack_array_list(const ArrayViewList<T, R>& list, const ArrayFacts<R>& facts, std::vector<int64_t>& table) {
  if (list.items.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) return false;
  constexpr auto max = static_cast<uint64_t>(std::numeric_limits<I>::max());
  for (const ArrayView<T, R>& v : list.items) {
    if (facts.aligned16 && reinterpret_cast<uintptr_t>(v.data) % 16 != 0) return false;
    if (facts.contiguous && v.strides[R - 1] != 1) return false;
    table.push_back(static_cast<int64_t>(reinterpret_cast<uintptr_t>(v.data)));
    for (int k = 0; k < R; ++k) {
      if (v.shape[k] < 0 || static_cast<uint64_t>(v.shape[k]) > max) return false;
      if (facts.dims[k] >= 0 && v.shape[k] != facts.dims[k]) return false;
      table.push_back(v.shape[k]);
    }
    for (int k = 0; k < R; ++k) {
      if (v.strides[k] < 0 || static_cast<uint64_t>(v.strides[k]) > max) return false;
      table.push_back(v.strides[k]);
    }
  }
  return true;
}

// Every item of `list` has stride strides[k] along each axis k where that is not -1: the
// strides a list's ArrayAnnotation(static_stride_dims=...) makes compile-time constants.
template <class T, int R>
bool list_has_strides(const ArrayViewList<T, R>& list, const int64_t (&strides)[R]) {
  for (const ArrayView<T, R>& v : list.items)
    for (int k = 0; k < R; ++k)
      if (strides[k] >= 0 && v.strides[k] != strides[k]) return false;
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
