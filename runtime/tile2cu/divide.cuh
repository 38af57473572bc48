// tile2cu/divide.cuh: a float tile divided by one value (softmax's `e / total`), with the
// quotient each rounding mode gives per element but one reciprocal per divisor instead of one
// per element: IEEE round-to-nearest (`/`, below), and truediv's FULL and APPROX modes (at the
// end).
//
// Markstein's correction: with r = RN(1/b), q = RN(a * r) and the residual a - b * q (exact in
// one fma), RN(q + residual * r) is RN(a/b) as long as nothing underflows or overflows. The range
// where that holds is a range of |a| per divisor, set up once: [lo, hi] below. Elements outside
// it (zeros, subnormals, inf, NaN, ratios near the ends of the exponent range) and divisors whose
// reciprocal is not a normal float take the plain IEEE division. tests/runtime/divide_test.cpp
// (host) and tests/gpu/divide_check.cu (device) compare every result with `/` bit for bit.
#pragma once

#if !defined(__CUDACC_RTC__)  // NVRTC declares the math functions itself
#include <cmath>
#endif

#include <cuda/std/limits>

#include "elementwise.cuh"
#include "math.cuh"

namespace tile2cu {

namespace detail {
// The rare IEEE fallback, out of line: one copy per kernel instead of one per tile element.
inline __host__ __device__ __noinline__ float divide_ieee(float a, float b) { return a / b; }
}  // namespace detail

class FloatDivisor {
 public:
  TILE2CU_HD explicit FloatDivisor(float b) : b_(b), r_(1.0f / b) {
    const float mag = ::fabsf(b);
    divisor_in_range_ = mag >= kMinDivisor && mag <= kMaxDivisor;  // false for NaN too
    if (divisor_in_range_) {
      lo_ = ::fmaxf(kMinDividend, mag * kMinQuotient);  // quotient and residual stay normal
      hi_ = ::fminf(cuda::std::numeric_limits<float>::max(), mag * kMaxQuotient);       // quotient stays finite
    } else {
      lo_ = INFINITY;  // every element takes the IEEE division
      hi_ = 0.0f;
    }
  }

  // a / b, IEEE round-to-nearest.
  TILE2CU_HD float operator()(float a) const {
    return fast_path_exact(a) ? fast_quotient(a) : detail::divide_ieee(a, b_);
  }
  // The quotient of the fast path, RN(a/b) where fast_path_exact(a).
  TILE2CU_HD float fast_quotient(float a) const {
    const float q = a * r_;
    const float residual = ::fmaf(-b_, q, a);
    return ::fmaf(residual, r_, q);
  }
  // +0 too, where the divisor takes the fast path: that gives 0 with b's sign, as IEEE does (-0
  // would come out +0 for b > 0). A softmax's padded lanes and underflowed exponentials are +0,
  // and they would otherwise send the thread down the IEEE path.
  TILE2CU_HD bool fast_path_exact(float a) const {
    const float mag = ::fabsf(a);
    uint32_t bits;
    memcpy(&bits, &a, sizeof bits);
    return (mag >= lo_ && mag <= hi_) || (bits == 0u && divisor_in_range_);
  }
  TILE2CU_HD float divisor() const { return b_; }

 private:
  // 1/b is a normal float for |b| in [2^-126, 2^126].
  static constexpr float kMinDivisor = 0x1p-126f;
  static constexpr float kMaxDivisor = 0x1p126f;
  // The residual a - b*q has its lowest bit near ulp(a) * 2^-24: |a| >= 2^-100 keeps it normal.
  static constexpr float kMinDividend = 0x1p-100f;
  // |a/b| in [2^-125, 2^126]: q and the result are normal and finite, with a binade to spare.
  static constexpr float kMinQuotient = 0x1p-125f;
  static constexpr float kMaxQuotient = 0x1p126f;

  float b_, r_, lo_, hi_;
  bool divisor_in_range_;
};

// Tile / scalar. f16/bf16 divide in float and round back, as the scalar truediv does. One range
// test for all of a thread's elements, one branch: when any is outside the fast path's range
// (rare: subnormals, -0, ...), the thread divides all of them the plain IEEE way. Testing per
// group of slots instead puts an out-of-line call after each group, and the quotients of the
// groups before it live across that call: at 512 threads ptxas spilled them on the fast path
// (softmax, 32 registers).
template <class T, class L>
TILE2CU_DEVICE auto truediv(const Tile<T, L>& a, id_t<T> b) {
  if constexpr (std::is_same_v<T, float> || is_half_like_v<T>) {
    const FloatDivisor divide_by(convert<float>(b));
    bool exact = true;
#pragma unroll
    for (int s = 0; s < L::kSlots; ++s) exact &= divide_by.fast_path_exact(convert<float>(a.v[s]));
    Tile<T, L> out;
    if (exact) {
#pragma unroll
      for (int s = 0; s < L::kSlots; ++s) out.v[s] = convert<T>(divide_by.fast_quotient(convert<float>(a.v[s])));
    } else {
#pragma unroll
      for (int s = 0; s < L::kSlots; ++s)
        out.v[s] = convert<T>(detail::divide_ieee(convert<float>(a.v[s]), divide_by.divisor()));
    }
    return out;
  } else {
    return map<L>([](T x, T y) { return truediv(x, y); }, a, b);
  }
}
template <class T, class L>
TILE2CU_DEVICE auto operator/(const Tile<T, L>& a, id_t<T> b) { return truediv(a, b); }

// div.full.f32 (truediv FULL) and div.approx.f32 (APPROX), and their .ftz forms, by one
// divisor. ptxas makes each a product with MUFU.RCP's reciprocal after scaling both operands by
// a power of two that depends on the divisor alone (|b| > 2^126: by 1/4, FULL only; |b| <
// 2^-126: by 2^24, unless subnormals flush), so the scale and the reciprocal are worked out once
// here and every element costs one multiply, or two where the divisor needs a scale.
// tests/gpu/divide_check.cu compares every quotient with the instruction's, bit for bit.
template <bool kFullRange, bool kFlushToZero>
class ReciprocalDivisor {
 public:
  TILE2CU_DEVICE explicit ReciprocalDivisor(float b) {
    const float mag = ::fabsf(b);
    if (kFullRange && mag > 0x1p126f) scale_ = 0.25f;
    else if (!kFlushToZero && mag < 0x1p-126f) scale_ = 0x1p24f;  // subnormal or zero (NaN: no scale)
    reciprocal_ = detail::rcp_approx_ftz(multiply(b, scale_));
  }
  TILE2CU_DEVICE bool scaled() const { return scale_ != 1.0f; }
  TILE2CU_DEVICE float operator()(float a) const { return multiply(multiply(a, scale_), reciprocal_); }
  TILE2CU_DEVICE float unscaled(float a) const { return multiply(a, reciprocal_); }

 private:
  // Never contracted with a later add into an fma, which the instruction's product is not.
  static TILE2CU_DEVICE float multiply(float x, float y) {
    if constexpr (kFlushToZero) return detail::mul_rn_ftz(x, y);
    else return __fmul_rn(x, y);
  }
  float scale_ = 1.0f, reciprocal_;
};

namespace detail {
template <bool kFullRange, bool kFlushToZero, class T, class L>
TILE2CU_DEVICE Tile<T, L> divide_by_reciprocal(const Tile<T, L>& a, float b) {
  const ReciprocalDivisor<kFullRange, kFlushToZero> divide_by(b);
  // Block-uniform branch: the common divisor needs no scale, and its elements one multiply.
  if (!divide_by.scaled()) return map<L>([&](T x) { return convert<T>(divide_by.unscaled(convert<float>(x))); }, a);
  return map<L>([&](T x) { return convert<T>(divide_by(convert<float>(x))); }, a);
}
}  // namespace detail

#define TILE2CU_TILE_BY_RECIPROCAL(name, full_range, flush_to_zero)                          \
  template <class T, class L>                                                                \
  TILE2CU_DEVICE auto name(const Tile<T, L>& a, id_t<T> b) {                                 \
    if constexpr (std::is_same_v<T, float> || is_half_like_v<T>)                             \
      return detail::divide_by_reciprocal<full_range, flush_to_zero>(a, convert<float>(b));  \
    else                                                                                     \
      return map<L>([](T x, T y) { return name(x, y); }, a, b);                              \
  }
TILE2CU_TILE_BY_RECIPROCAL(div_full, true, false)
TILE2CU_TILE_BY_RECIPROCAL(div_full_ftz, true, true)
TILE2CU_TILE_BY_RECIPROCAL(div_approx, false, false)
TILE2CU_TILE_BY_RECIPROCAL(div_approx_ftz, false, true)
#undef TILE2CU_TILE_BY_RECIPROCAL

}  // namespace tile2cu
