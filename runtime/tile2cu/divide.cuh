// tile2cu/divide.cuh: a float tile divided by one value (softmax's `e / total`), with the IEEE
// round-to-nearest quotient that `/` gives, but one reciprocal per divisor instead of one per
// element (a per-element IEEE division costs a MUFU.RCP, its refinement and a range check).
//
// Markstein's correction: with r = RN(1/b), q = RN(a * r) and the residual a - b * q (exact in
// one fma), RN(q + residual * r) is RN(a/b) as long as nothing underflows or overflows. The range
// where that holds is a range of |a| per divisor, set up once: [lo, hi] below. Elements outside
// it (zeros, subnormals, inf, NaN, ratios near the ends of the exponent range) and divisors whose
// reciprocal is not a normal float take the plain IEEE division. tests/runtime/divide_test.cpp
// (host) and tests/gpu/divide_check.cu (device) compare every result with `/` bit for bit.
#pragma once

#include <cfloat>
#include <cmath>

#include "elementwise.cuh"

namespace tile2cu {

class FloatDivisor {
 public:
  TILE2CU_HD explicit FloatDivisor(float b) : b_(b), r_(1.0f / b) {
    const float mag = ::fabsf(b);
    if (mag >= kMinDivisor && mag <= kMaxDivisor) {  // false for NaN too
      lo_ = ::fmaxf(kMinDividend, mag * kMinQuotient);  // quotient and residual stay normal
      hi_ = ::fminf(FLT_MAX, mag * kMaxQuotient);       // quotient stays finite
    } else {
      lo_ = INFINITY;  // every element takes the IEEE division
      hi_ = 0.0f;
    }
  }

  TILE2CU_HD float operator()(float a) const {
    const float q = a * r_;
    const float residual = ::fmaf(-b_, q, a);
    const float corrected = ::fmaf(residual, r_, q);
    const float mag = ::fabsf(a);
    return mag >= lo_ && mag <= hi_ ? corrected : a / b_;
  }

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
};

// Tile / scalar. f16/bf16 divide in float and round back, as the scalar truediv does.
template <class T, class L>
TILE2CU_DEVICE auto truediv(const Tile<T, L>& a, id_t<T> b) {
  if constexpr (std::is_same_v<T, float> || is_half_like_v<T>) {
    const FloatDivisor divide_by(convert<float>(b));
    return map<L>([&](T x) { return convert<T>(divide_by(convert<float>(x))); }, a);
  } else {
    return map<L>([](T x, T y) { return truediv(x, y); }, a, b);
  }
}
template <class T, class L>
TILE2CU_DEVICE auto operator/(const Tile<T, L>& a, id_t<T> b) { return truediv(a, b); }

}  // namespace tile2cu
