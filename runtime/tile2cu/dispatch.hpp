// tile2cu/dispatch.hpp: type-erased arguments for the per-kernel dispatchers, which pick a
// specialization by the dtypes and ranks they are given. Host code only.
#pragma once

#include <cstdint>

#include "host.hpp"

namespace tile2cu {

enum class DType {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16, Float32, Float64,
  TFloat32, Float8E4M3FN, Float8E5M2, Float8E8M0FNU
};

constexpr int kMaxRank = 5;

// An array whose dtype and rank are known only at run time.
struct AnyArray {
  void* data = nullptr;
  DType dtype = DType::Float32;
  int rank = 0;
  int64_t shape[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};

  bool is(DType t, int r) const { return dtype == t && rank == r; }
  template <class T, int R>
  ArrayView<T, R> view() const {
    ArrayView<T, R> v;
    v.data = static_cast<T*>(data);
    for (int k = 0; k < R; ++k) {
      v.shape[k] = shape[k];
      v.strides[k] = strides[k];
    }
    return v;
  }
};

// A scalar whose dtype is known only at run time; 16-bit floats travel as float.
struct AnyScalar {
  DType dtype = DType::Float32;
  union {
    int64_t i;
    uint64_t u;
    double f;
  };
  AnyScalar() : i(0) {}
  template <class T>
  T as() const {
    switch (dtype) {
      case DType::Float16: case DType::BFloat16: case DType::Float32: case DType::Float64:
        return T(static_cast<float>(f));
      case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
        return T(static_cast<float>(u));
      default:
        return static_cast<T>(i);
    }
  }
};

}  // namespace tile2cu
