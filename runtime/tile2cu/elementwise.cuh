// tile2cu/elementwise.cuh: arithmetic, bitwise and comparison ops with NumPy/Python semantics,
// where, minimum/maximum, casts. Each op is a scalar function (usable on rank-0 values, which
// are plain C++ variables) plus its tile forms; tiles also get the C++ operators.
//
// Semantics: the result has the operands' type (int8 + int8 is int8: no C++ promotion leaks);
// integer + - * and << wrap; f16/bf16 compute in float and round back (float has enough bits for
// + - * / to round exactly as native f16/bf16 would); float != is unordered (nan != nan).
#pragma once

#include "tile.cuh"

namespace tile2cu {

template <class T>
using if_scalar = std::enable_if_t<is_scalar_v<T>, int>;

namespace detail {
// f16/bf16 widen to float, other types stay: the type for comparisons, division and libm.
template <class T>
using wide_t = std::conditional_t<is_half_like_v<T>, float, T>;
template <class T>
TILE2CU_HD wide_t<T> wide(T x) { return convert<wide_t<T>>(x); }

// Integers (and bool) go to an unsigned type of >= 32 bits, where overflow wraps instead of
// being undefined; floats as wide().
template <class T>
using wrap_t = std::conditional_t<is_float_v<T>, wide_t<T>,
                                  std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>>;
template <class T>
TILE2CU_HD wrap_t<T> wrap(T x) { return convert<wrap_t<T>>(x); }

// libm by precision.
TILE2CU_HD float floor(float x) { return ::floorf(x); }
TILE2CU_HD double floor(double x) { return ::floor(x); }
TILE2CU_HD float ceil(float x) { return ::ceilf(x); }
TILE2CU_HD double ceil(double x) { return ::ceil(x); }
TILE2CU_HD float fabs(float x) { return ::fabsf(x); }
TILE2CU_HD double fabs(double x) { return ::fabs(x); }
TILE2CU_HD float fmod(float x, float y) { return ::fmodf(x, y); }
TILE2CU_HD double fmod(double x, double y) { return ::fmod(x, y); }
TILE2CU_HD float copysign(float x, float y) { return ::copysignf(x, y); }
TILE2CU_HD double copysign(double x, double y) { return ::copysign(x, y); }
TILE2CU_HD float fmin(float x, float y) { return ::fminf(x, y); }
TILE2CU_HD double fmin(double x, double y) { return ::fmin(x, y); }
TILE2CU_HD float fmax(float x, float y) { return ::fmaxf(x, y); }
TILE2CU_HD double fmax(double x, double y) { return ::fmax(x, y); }
}  // namespace detail

// ---- arithmetic ---------------------------------------------------------------------------
template <class T, if_scalar<T> = 0>
TILE2CU_HD T add(T a, T b) { return convert<T>(detail::wrap(a) + detail::wrap(b)); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T sub(T a, T b) { return convert<T>(detail::wrap(a) - detail::wrap(b)); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T mul(T a, T b) { return convert<T>(detail::wrap(a) * detail::wrap(b)); }
// C++ division: IEEE for floats, truncating for integers (cuTile never emits integer `/`).
template <class T, if_scalar<T> = 0>
TILE2CU_HD T truediv(T a, T b) { return convert<T>(detail::wide(a) / detail::wide(b)); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T negative(T a) {
  if constexpr (is_float_v<T>) return convert<T>(-detail::wide(a));  // keeps -0.0
  else return convert<T>(detail::wrap_t<T>(0) - detail::wrap(a));
}

// ---- bitwise (integers and bool) ------------------------------------------------------------
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_and(T a, T b) { return T(a & b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_or(T a, T b) { return T(a | b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_xor(T a, T b) { return T(a ^ b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_not(T a) {
  if constexpr (std::is_same_v<T, bool>) return !a;  // C++ ~true is -2, i.e. true
  else return T(~a);
}
// Shift counts must be in [0, bits). >> is arithmetic for signed, logical for unsigned types.
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_lshift(T a, T b) { return T(detail::wrap(a) << b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T bitwise_rshift(T a, T b) { return T(a >> b); }

// ---- comparisons and logic (results are bool) ----------------------------------------------
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool equal(T a, T b) { return detail::wide(a) == detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool not_equal(T a, T b) { return detail::wide(a) != detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool less(T a, T b) { return detail::wide(a) < detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool less_equal(T a, T b) { return detail::wide(a) <= detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool greater(T a, T b) { return detail::wide(a) > detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool greater_equal(T a, T b) { return detail::wide(a) >= detail::wide(b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool logical_not(T a) { return !convert<bool>(a); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD bool isnan(T a) {
  if constexpr (is_float_v<T>) return detail::wide(a) != detail::wide(a);
  else return false;
}

// ---- Python integer / float semantics ------------------------------------------------------
// Floor division: ints round toward -inf; floats floor(a / b) of the quotient rounded to T, as
// a division in T then floor() compute it (cuTile's test_array_div_float checks bf16 against
// torch.floor(x / y): 14.8125 // 1.140625 is 13, the quotient 12.986 rounding to 13 in bf16).
template <class T, if_scalar<T> = 0>
TILE2CU_HD T floordiv(T a, T b) {
  if constexpr (is_float_v<T>) {
    const T quotient = convert<T>(detail::wide(a) / detail::wide(b));
    return convert<T>(detail::floor(detail::wide(quotient)));
  } else if constexpr (std::is_signed_v<T>) {
    const bool adjust = a % b != 0 && (a < 0) != (b < 0);
    return T(a / b - adjust);
  } else {
    return T(a / b);
  }
}
// Remainder with the sign of the divisor (Python's %).
template <class T, if_scalar<T> = 0>
TILE2CU_HD T mod(T a, T b) {
  if constexpr (is_float_v<T>) {
    const auto x = detail::wide(a), y = detail::wide(b);
    auto r = detail::fmod(x, y);  // exact
    if (r == 0) r = detail::copysign(decltype(r)(0), y);
    else if ((r < 0) != (y < 0)) r += y;
    return convert<T>(r);
  } else if constexpr (std::is_signed_v<T>) {
    const T r = T(a % b);
    return r != 0 && (r < 0) != (b < 0) ? T(r + b) : r;
  } else {
    return T(a % b);
  }
}
// Ceiling division (integers).
template <class T, if_scalar<T> = 0>
TILE2CU_HD T cdiv(T a, T b) {
  static_assert(is_int_v<T>, "cdiv: integers only");
  if constexpr (std::is_signed_v<T>) return T(a / b + (a % b != 0 && (a < 0) == (b < 0)));
  else return T(a / b + (a % b != 0));
}

// ---- rounding and magnitude (identity on integers where it makes sense) ---------------------
template <class T, if_scalar<T> = 0>
TILE2CU_HD T floor(T a) {
  if constexpr (is_float_v<T>) return convert<T>(detail::floor(detail::wide(a)));
  else return a;
}
template <class T, if_scalar<T> = 0>
TILE2CU_HD T ceil(T a) {
  if constexpr (is_float_v<T>) return convert<T>(detail::ceil(detail::wide(a)));
  else return a;
}
template <class T, if_scalar<T> = 0>
TILE2CU_HD T abs(T a) {
  if constexpr (is_float_v<T>) return convert<T>(detail::fabs(detail::wide(a)));
  else if constexpr (is_signed_int_v<T>) return a < 0 ? negative(a) : a;
  else return a;
}

// minimum / maximum ignore NaN (one NaN operand: the other is returned); the _nan variants
// propagate it.
template <class T, if_scalar<T> = 0>
TILE2CU_HD T minimum(T a, T b) {
  if constexpr (is_float_v<T>) return convert<T>(detail::fmin(detail::wide(a), detail::wide(b)));
  else return b < a ? b : a;
}
template <class T, if_scalar<T> = 0>
TILE2CU_HD T maximum(T a, T b) {
  if constexpr (is_float_v<T>) return convert<T>(detail::fmax(detail::wide(a), detail::wide(b)));
  else return a < b ? b : a;
}
template <class T, if_scalar<T> = 0>
TILE2CU_HD T minimum_nan(T a, T b) { return isnan(a) ? a : isnan(b) ? b : minimum(a, b); }
template <class T, if_scalar<T> = 0>
TILE2CU_HD T maximum_nan(T a, T b) { return isnan(a) ? a : isnan(b) ? b : maximum(a, b); }

// ---- casts ---------------------------------------------------------------------------------
// astype<U>: convert() semantics (types.cuh). bitcast<U> (scalar form in types.cuh).
template <class U, class T, if_scalar<T> = 0>
TILE2CU_HD U astype(T x) { return convert<U>(x); }
template <class U, class T, class L>
TILE2CU_DEVICE Tile<U, L> astype(const Tile<T, L>& t) {
  if constexpr (std::is_same_v<T, __nv_bfloat16> && std::is_same_v<U, float> && L::kSlots % 2 == 0) {
    // bf16 is the top half of a float: a packed pair converts with one shift and one mask
    // (ptxas, given the halves one by one, first moves the upper half down: a third instruction).
    Tile<float, L> out;
#pragma unroll
    for (int s = 0; s < L::kSlots; s += 2) {
      uint32_t pair;
      memcpy(&pair, &t.v[s], 4);
      out.v[s] = bitcast<float>(pair << 16);
      out.v[s + 1] = bitcast<float>(pair & 0xffff0000u);
    }
    return out;
  } else {
    return map<L>([](T x) { return convert<U>(x); }, t);
  }
}
// astype with rounding_mode=RZ / RM / RP / RA between float dtypes (types.cuh).
#define TILE2CU_ASTYPE_DIRECTED(name, direction)                                          \
  template <class U, class T, if_scalar<T> = 0>                                           \
  TILE2CU_DEVICE U name(T x) { return detail::convert_directed<U, detail::Direction::direction>(x); } \
  template <class U, class T, class L>                                                    \
  TILE2CU_DEVICE Tile<U, L> name(const Tile<T, L>& t) {                                   \
    return map<L>([](T x) { return detail::convert_directed<U, detail::Direction::direction>(x); }, t); \
  }
TILE2CU_ASTYPE_DIRECTED(astype_rz, Zero)
TILE2CU_ASTYPE_DIRECTED(astype_rm, Down)
TILE2CU_ASTYPE_DIRECTED(astype_rp, Up)
TILE2CU_ASTYPE_DIRECTED(astype_ra, NearestAway)
#undef TILE2CU_ASTYPE_DIRECTED

template <class U, class T, class L>
TILE2CU_DEVICE Tile<U, L> bitcast(const Tile<T, L>& t) {
  return map<L>([](T x) { return bitcast<U>(x); }, t);
}

// ---- where ---------------------------------------------------------------------------------
template <class T, if_scalar<T> = 0>
TILE2CU_HD T where(bool cond, T a, T b) { return cond ? a : b; }

namespace detail {
template <class X> struct value_type_of { using type = X; };
template <class T, class L> struct value_type_of<Tile<T, L>> { using type = T; };
}  // namespace detail

// Tile form: any of cond (bool) / a / b may be tiles of one layout, the others scalars. The
// element type is that of the first tile among a, b (else a's type).
template <class C, class A, class B,
          std::enable_if_t<is_tile_v<C> || is_tile_v<A> || is_tile_v<B>, int> = 0>
TILE2CU_DEVICE auto where(const C& cond, const A& a, const B& b) {
  using L = typename first_tile_t<C, A, B>::layout;
  using AB = std::conditional_t<std::is_void_v<first_tile_t<A, B>>, A, first_tile_t<A, B>>;
  using T = typename detail::value_type_of<AB>::type;
  return map<L>([](bool c, T x, T y) { return c ? x : y; }, cond, a, b);
}

// ---- tile forms ----------------------------------------------------------------------------
TILE2CU_LIFT_BINARY(add)
TILE2CU_LIFT_BINARY(sub)
TILE2CU_LIFT_BINARY(mul)
TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS(truediv, truediv)  // tile / scalar: divide.cuh
TILE2CU_LIFT_UNARY(negative)
TILE2CU_LIFT_BINARY(bitwise_and)
TILE2CU_LIFT_BINARY(bitwise_or)
TILE2CU_LIFT_BINARY(bitwise_xor)
TILE2CU_LIFT_UNARY(bitwise_not)
TILE2CU_LIFT_BINARY(bitwise_lshift)
TILE2CU_LIFT_BINARY(bitwise_rshift)
TILE2CU_LIFT_BINARY(equal)
TILE2CU_LIFT_BINARY(not_equal)
TILE2CU_LIFT_BINARY(less)
TILE2CU_LIFT_BINARY(less_equal)
TILE2CU_LIFT_BINARY(greater)
TILE2CU_LIFT_BINARY(greater_equal)
TILE2CU_LIFT_UNARY(logical_not)
TILE2CU_LIFT_UNARY(isnan)
TILE2CU_LIFT_BINARY(floordiv)
TILE2CU_LIFT_BINARY(mod)
TILE2CU_LIFT_BINARY(cdiv)
TILE2CU_LIFT_UNARY(floor)
TILE2CU_LIFT_UNARY(ceil)
TILE2CU_LIFT_UNARY(abs)
TILE2CU_LIFT_BINARY(minimum)
TILE2CU_LIFT_BINARY(maximum)
TILE2CU_LIFT_BINARY(minimum_nan)
TILE2CU_LIFT_BINARY(maximum_nan)

TILE2CU_LIFT_BINARY_AS(operator+, add)
TILE2CU_LIFT_BINARY_AS(operator-, sub)
TILE2CU_LIFT_BINARY_AS(operator*, mul)
TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS(operator/, truediv)
TILE2CU_LIFT_BINARY_AS(operator&, bitwise_and)
TILE2CU_LIFT_BINARY_AS(operator|, bitwise_or)
TILE2CU_LIFT_BINARY_AS(operator^, bitwise_xor)
TILE2CU_LIFT_BINARY_AS(operator<<, bitwise_lshift)
TILE2CU_LIFT_BINARY_AS(operator>>, bitwise_rshift)
TILE2CU_LIFT_BINARY_AS(operator==, equal)
TILE2CU_LIFT_BINARY_AS(operator!=, not_equal)
TILE2CU_LIFT_BINARY_AS(operator<, less)
TILE2CU_LIFT_BINARY_AS(operator<=, less_equal)
TILE2CU_LIFT_BINARY_AS(operator>, greater)
TILE2CU_LIFT_BINARY_AS(operator>=, greater_equal)
TILE2CU_LIFT_UNARY_AS(operator-, negative)
TILE2CU_LIFT_UNARY_AS(operator~, bitwise_not)
TILE2CU_LIFT_UNARY_AS(operator!, logical_not)

}  // namespace tile2cu
