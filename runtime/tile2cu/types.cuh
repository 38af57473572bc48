// tile2cu/types.cuh: dtype aliases, type traits and the one conversion function every cast uses.
#pragma once

#include "std.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#define TILE2CU_HD __host__ __device__ __forceinline__
#define TILE2CU_DEVICE __device__ __forceinline__

namespace tile2cu {

// cuTile dtype names, for readable generated code.
using float16 = __half;
using bfloat16 = __nv_bfloat16;
using float32 = float;
using float64 = double;
using int8 = int8_t;
using int16 = int16_t;
using int32 = int32_t;
using int64 = int64_t;
using uint8 = uint8_t;
using uint16 = uint16_t;
using uint32 = uint32_t;
using uint64 = uint64_t;

// tfloat32: a float whose mantissa is rounded to 10 bits, the operand type of tf32 tensor-core
// mma. It only exists as a tile element made by astype (spec b.4: no arithmetic on it).
struct tfloat32 {
  float value;
};
using float8_e4m3fn = __nv_fp8_e4m3;
using float8_e5m2 = __nv_fp8_e5m2;
using float8_e8m0fnu = __nv_fp8_e8m0;  // powers of two 2**-127 .. 2**127 and NaN: scale factors

// Round a float to tf32 (10 mantissa bits, the low 13 bits zero), as cuTile's astype(ct.tfloat32)
// does: to nearest, ties to even, by default; rounding_mode=RA rounds ties away from zero and RZ
// truncates. Integer arithmetic on the bits, the same on host and device (cvt.rn.tf32.f32 needs
// sm_90). Infinity and NaN keep their bits; a value past tf32's largest rounds to infinity.
enum class Tf32Rounding { NearestEven, NearestAway, Zero };
template <Tf32Rounding R = Tf32Rounding::NearestEven>
TILE2CU_HD float round_to_tf32(float x) {
  uint32_t bits;
  memcpy(&bits, &x, 4);
  if ((bits & 0x7f800000u) != 0x7f800000u) {
    if constexpr (R == Tf32Rounding::NearestEven) bits += 0xfffu + ((bits >> 13) & 1u);
    else if constexpr (R == Tf32Rounding::NearestAway) bits += 0x1000u;
    bits &= 0xffffe000u;
  }
  float out;
  memcpy(&out, &bits, 4);
  return out;
}

// ---- traits -------------------------------------------------------------------------------
// 16-bit floats are stored as __half / __nv_bfloat16 and computed in float.
template <class T>
inline constexpr bool is_half_like_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_half_like_v<T>;
template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_signed_int_v = is_int_v<T> && std::is_signed_v<T>;
// Element types a tile may hold.
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;
// Restricted floats: converted and fed to mma only.
template <class T>
inline constexpr bool is_restricted_v = std::is_same_v<T, tfloat32> || is_fp8_v<T> || std::is_same_v<T, __nv_fp8_e8m0>;
template <class T>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<T> || is_half_like_v<T> || is_restricted_v<T>;

// Blocks template argument deduction: `f(Tile<T, L>, id_t<T>)` lets `t + 1` convert 1 to T.
template <class T>
struct identity { using type = T; };
template <class T>
using id_t = typename identity<T>::type;

// ---- conversion ---------------------------------------------------------------------------
// convert<U>(x) is cuTile's astype on one value:
//   float -> int truncates toward zero; anything -> bool is `x != 0`; bool -> number is 0 / 1;
//   integers wrap (modular); every conversion into f16/bf16 rounds once, to nearest even.
//   (Out-of-range float -> int is unspecified in cuTile; here it is what the C++ cast gives on
//   the GPU: saturate to 32/64 bits, then wrap to narrower types; NaN -> 0.)
template <class U, class T>
TILE2CU_HD U convert(T x) {
  static_assert(is_scalar_v<U> && is_scalar_v<T>, "convert: not a tile element type");
  if constexpr (std::is_same_v<U, T>) {
    return x;
  } else if constexpr (std::is_same_v<T, __half>) {  // exact to float, then on from there
    return convert<U>(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return convert<U>(__bfloat162float(x));
  } else if constexpr (std::is_same_v<T, tfloat32>) {
    return convert<U>(x.value);
  } else if constexpr (is_fp8_v<T> || std::is_same_v<T, __nv_fp8_e8m0>) {  // exact in float
    return convert<U>(static_cast<float>(x));
  } else if constexpr (std::is_same_v<U, tfloat32>) {
    return tfloat32{round_to_tf32(convert<float>(x))};  // f16 and bf16 are exact in tf32
  } else if constexpr (is_fp8_v<U>) {  // rounds to nearest, saturating to the largest finite value
    return U(convert<float>(x));
  } else if constexpr (std::is_same_v<U, bool>) {
    return x != T(0);
  } else if constexpr (std::is_same_v<T, bool>) {
    return convert<U>(static_cast<int32_t>(x));
  } else if constexpr (std::is_same_v<U, __half>) {
    if constexpr (std::is_same_v<T, float>) return __float2half_rn(x);
    else if constexpr (std::is_same_v<T, double>) return __double2half(x);
    else if constexpr (is_signed_int_v<T>) return __ll2half_rn(static_cast<long long>(x));
    else return __ull2half_rn(static_cast<unsigned long long>(x));
  } else if constexpr (std::is_same_v<U, __nv_bfloat16>) {
    if constexpr (std::is_same_v<T, float>) return __float2bfloat16_rn(x);
    else if constexpr (std::is_same_v<T, double>) return __double2bfloat16(x);
    else if constexpr (is_signed_int_v<T>) return __ll2bfloat16_rn(static_cast<long long>(x));
    else return __ull2bfloat16_rn(static_cast<unsigned long long>(x));
  } else {
    return static_cast<U>(x);  // C++ conversions: int<->int wraps, float->int truncates
  }
}

// Reinterpret the bits of x (same size) as a U.
template <class U, class T, std::enable_if_t<is_scalar_v<T>, int> = 0>
TILE2CU_HD U bitcast(T x) {
  static_assert(sizeof(U) == sizeof(T), "bitcast: sizes differ");
  U out;
  memcpy(&out, &x, sizeof(U));
  return out;
}

// ---- conversions with a directed rounding -------------------------------------------------
// Directed roundings compose: every f16/bf16 value is a float and every float a double, so
// rounding toward zero to float and then to f16 is rounding toward zero to f16. Nearest does
// too for the results of +, -, *, / and sqrt of 16-bit values, since float carries more than
// twice their bits (math.cuh's f16/bf16 forms of div_rz, add_rn, ... rely on both).
namespace detail {
// Nearest: ties to even; NearestAway: ties away from zero (astype's RA).
enum class Direction { Nearest, Zero, Down, Up, NearestAway };

template <class T, Direction D>
TILE2CU_HD T narrow(float x);

// A float rounded to the nearest f16 or bf16, ties away from zero: of the neighbours toward and
// away from zero, the one past the midpoint (exact in float). Past the largest finite value the
// neighbour away is infinity, and the midpoint half an ulp beyond that value.
template <class T>
TILE2CU_HD T round_nearest_away(float x) {
  const T toward = narrow<T, Direction::Zero>(x);
  const float t = convert<float>(toward);
  if (x != x || t == x) return toward;  // NaN, or a value of T
  uint16_t bits;
  memcpy(&bits, &toward, sizeof bits);
  const uint16_t away_bits = uint16_t(bits + 1), previous_bits = uint16_t(bits - 1);  // one more / less magnitude
  T away, previous;
  memcpy(&away, &away_bits, sizeof away);
  memcpy(&previous, &previous_bits, sizeof previous);
  float a = convert<float>(away);
  if (::isinf(a)) a = t + (t - convert<float>(previous));
  return ::fabsf(x) >= ::fabsf(0.5f * (t + a)) ? away : toward;
}

// A float rounded to f16 or bf16 in direction D.
template <class T, Direction D>
TILE2CU_HD T narrow(float x) {
  if constexpr (D == Direction::Nearest) return convert<T>(x);
  else if constexpr (D == Direction::NearestAway) return round_nearest_away<T>(x);
  else if constexpr (std::is_same_v<T, __half>)
    return D == Direction::Zero ? __float2half_rz(x) : D == Direction::Down ? __float2half_rd(x) : __float2half_ru(x);
  else
    return D == Direction::Zero ? __float2bfloat16_rz(x)
         : D == Direction::Down ? __float2bfloat16_rd(x) : __float2bfloat16_ru(x);
}

// astype between f16, bf16, f32 and f64 rounding in direction D (astype_rz, astype_rm,
// astype_rp, astype_ra in elementwise.cuh). A conversion into a format that holds every source value is
// exact and needs no direction.
template <class U, Direction D, class T>
TILE2CU_DEVICE U convert_directed(T x) {
  if constexpr (std::is_same_v<T, double> && !std::is_same_v<U, double>) {
    static_assert(D != Direction::NearestAway, "RA from float64 rounds twice (and cuTile has no such conversion)");
    const float f = D == Direction::Zero ? __double2float_rz(x)
                  : D == Direction::Down ? __double2float_rd(x)
                  : D == Direction::Up   ? __double2float_ru(x) : float(x);
    if constexpr (std::is_same_v<U, float>) return f;
    else return narrow<U, D>(f);
  } else if constexpr (std::is_same_v<U, tfloat32> && std::is_same_v<T, float>) {
    static_assert(D == Direction::Zero || D == Direction::NearestAway, "float32 -> tfloat32 rounds RN, RA or RZ");
    return tfloat32{round_to_tf32<D == Direction::Zero ? Tf32Rounding::Zero : Tf32Rounding::NearestAway>(x)};
  } else if constexpr (std::is_same_v<U, __nv_fp8_e8m0> && !std::is_same_v<T, U>) {
    // cuTile converts into float8_e8m0fnu toward zero (RZ) or up (RP) only; past 2**127 is NaN,
    // as its constants are (no saturation).
    static_assert(D == Direction::Zero || D == Direction::Up, "float8_e8m0fnu takes RZ or RP");
    constexpr cudaRoundMode mode = D == Direction::Zero ? cudaRoundZero : cudaRoundPosInf;
    __nv_fp8_e8m0 out;
    if constexpr (std::is_same_v<T, double>) out.__x = __nv_cvt_double_to_e8m0(x, __NV_NOSAT, mode);
    else out.__x = __nv_cvt_float_to_e8m0(convert<float>(x), __NV_NOSAT, mode);  // other formats are exact in float
    return out;
  } else if constexpr (is_half_like_v<U> && !std::is_same_v<T, U>) {
    return narrow<U, D>(convert<float>(x));  // from float, or the other 16-bit format (exact in float)
  } else {
    return convert<U>(x);  // widening, or the same type
  }
}
}  // namespace detail

// Values of T for special floats; integers (and bool) get 0 for all of them.
template <class T>
TILE2CU_HD T from_float(float x) {
  if constexpr (is_float_v<T>) return convert<T>(x);
  else return T(0);
}
template <class T>
TILE2CU_HD T quiet_nan() { return from_float<T>(bitcast<float>(0x7fc00000u)); }
template <class T>
TILE2CU_HD T infinity() { return from_float<T>(bitcast<float>(0x7f800000u)); }

}  // namespace tile2cu
