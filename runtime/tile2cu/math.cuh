// tile2cu/math.cuh: floating-point math. Every function has float and double overloads; f16/bf16
// compute in float and round back; the tile forms apply it elementwise.
//
// Precise functions use the CUDA math library (same results as cuTile's default). The fast and
// rounding variants are separate names: *_approx (hardware approximations), *_ftz (subnormals
// flushed to zero), *_rn/_rz/_rm/_rp (IEEE op with that rounding). Their double overloads use the
// exact-rounding double version (or the plain op where no variant exists).
#pragma once

#include "tile.cuh"

namespace tile2cu {

// The _ROUNDED forms round an f16/bf16 result back from float in `dir` (detail::narrow,
// types.cuh): to nearest for all but the directed IEEE ops below.
#define TILE2CU_MATH_UNARY_ROUNDED(QUAL, name, f32, f64, dir)                    \
  QUAL float name(float x) { return f32(x); }                                    \
  QUAL double name(double x) { return f64(x); }                                  \
  template <class T, std::enable_if_t<is_half_like_v<T>, int> = 0>               \
  QUAL T name(T x) { return detail::narrow<T, detail::Direction::dir>(name(convert<float>(x))); } \
  TILE2CU_LIFT_UNARY(name)
#define TILE2CU_MATH_UNARY(QUAL, name, f32, f64) TILE2CU_MATH_UNARY_ROUNDED(QUAL, name, f32, f64, Nearest)

#define TILE2CU_MATH_BINARY_SCALAR_ROUNDED(QUAL, name, f32, f64, dir)            \
  QUAL float name(float x, float y) { return f32(x, y); }                        \
  QUAL double name(double x, double y) { return f64(x, y); }                     \
  template <class T, std::enable_if_t<is_half_like_v<T>, int> = 0>               \
  QUAL T name(T x, T y) {                                                        \
    return detail::narrow<T, detail::Direction::dir>(name(convert<float>(x), convert<float>(y))); \
  }
#define TILE2CU_MATH_BINARY_SCALAR(QUAL, name, f32, f64)                         \
  TILE2CU_MATH_BINARY_SCALAR_ROUNDED(QUAL, name, f32, f64, Nearest)
#define TILE2CU_MATH_BINARY(QUAL, name, f32, f64)                                \
  TILE2CU_MATH_BINARY_SCALAR(QUAL, name, f32, f64)                               \
  TILE2CU_LIFT_BINARY(name)

// ---- precise ------------------------------------------------------------------------------
TILE2CU_MATH_UNARY(TILE2CU_HD, exp, ::expf, ::exp)
TILE2CU_MATH_UNARY(TILE2CU_HD, exp2, ::exp2f, ::exp2)
TILE2CU_MATH_UNARY(TILE2CU_HD, log, ::logf, ::log)
TILE2CU_MATH_UNARY(TILE2CU_HD, log2, ::log2f, ::log2)
TILE2CU_MATH_UNARY(TILE2CU_HD, sqrt, ::sqrtf, ::sqrt)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, rsqrt, ::rsqrtf, ::rsqrt)
TILE2CU_MATH_UNARY(TILE2CU_HD, sin, ::sinf, ::sin)
TILE2CU_MATH_UNARY(TILE2CU_HD, cos, ::cosf, ::cos)
TILE2CU_MATH_UNARY(TILE2CU_HD, tan, ::tanf, ::tan)
TILE2CU_MATH_UNARY(TILE2CU_HD, sinh, ::sinhf, ::sinh)
TILE2CU_MATH_UNARY(TILE2CU_HD, cosh, ::coshf, ::cosh)
TILE2CU_MATH_UNARY(TILE2CU_HD, tanh, ::tanhf, ::tanh)
TILE2CU_MATH_BINARY(TILE2CU_HD, atan2, ::atan2f, ::atan2)
TILE2CU_MATH_BINARY(TILE2CU_HD, pow, ::powf, ::pow)

// ---- fast / flush-to-zero -----------------------------------------------------------------
namespace detail {
#define TILE2CU_PTX_F32_UNARY(name, instr)                                        \
  TILE2CU_DEVICE float name(float x) {                                            \
    float y;                                                                      \
    asm(instr " %0, %1;" : "=f"(y) : "f"(x));                                     \
    return y;                                                                     \
  }
#define TILE2CU_PTX_F32_BINARY(name, instr)                                       \
  TILE2CU_DEVICE float name(float x, float y) {                                   \
    float z;                                                                      \
    asm(instr " %0, %1, %2;" : "=f"(z) : "f"(x), "f"(y));                         \
    return z;                                                                     \
  }
TILE2CU_PTX_F32_UNARY(ex2_approx, "ex2.approx.f32")
TILE2CU_PTX_F32_UNARY(ex2_approx_ftz, "ex2.approx.ftz.f32")
TILE2CU_PTX_F32_UNARY(sqrt_approx, "sqrt.approx.f32")
TILE2CU_PTX_F32_UNARY(sqrt_rn_ftz, "sqrt.rn.ftz.f32")
TILE2CU_PTX_F32_UNARY(sqrt_approx_ftz, "sqrt.approx.ftz.f32")
TILE2CU_PTX_F32_UNARY(rsqrt_approx_ftz, "rsqrt.approx.ftz.f32")
TILE2CU_PTX_F32_UNARY(rcp_approx_ftz, "rcp.approx.ftz.f32")
TILE2CU_PTX_F32_BINARY(div_approx, "div.approx.f32")
TILE2CU_PTX_F32_BINARY(div_approx_ftz, "div.approx.ftz.f32")
TILE2CU_PTX_F32_BINARY(div_full, "div.full.f32")
TILE2CU_PTX_F32_BINARY(div_full_ftz, "div.full.ftz.f32")
// Flush to zero under each IEEE rounding (an explicit rounding also keeps ptxas from fusing a
// multiply into an fma).
#define TILE2CU_PTX_F32_BINARY_FTZ(op)                                            \
  TILE2CU_PTX_F32_BINARY(op##_rn_ftz, #op ".rn.ftz.f32")                          \
  TILE2CU_PTX_F32_BINARY(op##_rz_ftz, #op ".rz.ftz.f32")                          \
  TILE2CU_PTX_F32_BINARY(op##_rm_ftz, #op ".rm.ftz.f32")                          \
  TILE2CU_PTX_F32_BINARY(op##_rp_ftz, #op ".rp.ftz.f32")
TILE2CU_PTX_F32_BINARY_FTZ(add)
TILE2CU_PTX_F32_BINARY_FTZ(sub)
TILE2CU_PTX_F32_BINARY_FTZ(mul)
TILE2CU_PTX_F32_BINARY_FTZ(div)
#undef TILE2CU_PTX_F32_BINARY_FTZ
TILE2CU_PTX_F32_UNARY(sqrt_rz_ftz, "sqrt.rz.ftz.f32")
TILE2CU_PTX_F32_UNARY(sqrt_rm_ftz, "sqrt.rm.ftz.f32")
TILE2CU_PTX_F32_UNARY(sqrt_rp_ftz, "sqrt.rp.ftz.f32")
TILE2CU_PTX_F32_BINARY(min_ftz, "min.ftz.f32")
TILE2CU_PTX_F32_BINARY(max_ftz, "max.ftz.f32")
TILE2CU_PTX_F32_BINARY(min_nan_ftz, "min.NaN.ftz.f32")
TILE2CU_PTX_F32_BINARY(max_nan_ftz, "max.NaN.ftz.f32")
#undef TILE2CU_PTX_F32_UNARY
#undef TILE2CU_PTX_F32_BINARY

TILE2CU_DEVICE float tanh_approx(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return ::tanhf(x);
#endif
}
TILE2CU_DEVICE double div(double x, double y) { return x / y; }
// Double forms of the float-only options (flush to zero is for float32): the plain op.
TILE2CU_DEVICE double fmin_nan(double x, double y) { return x != x || y != y ? x + y : ::fmin(x, y); }
TILE2CU_DEVICE double fmax_nan(double x, double y) { return x != x || y != y ? x + y : ::fmax(x, y); }
}  // namespace detail

TILE2CU_MATH_UNARY(TILE2CU_DEVICE, exp_approx, ::__expf, ::exp)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, exp2_approx, detail::ex2_approx, ::exp2)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, exp2_ftz, detail::ex2_approx_ftz, ::exp2)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, log_approx, ::__logf, ::log)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, tanh_approx, detail::tanh_approx, ::tanh)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_approx, detail::sqrt_approx, ::sqrt)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_approx_ftz, detail::sqrt_approx_ftz, ::sqrt)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_ftz, detail::sqrt_rn_ftz, ::sqrt)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_rz_ftz, detail::sqrt_rz_ftz, ::__dsqrt_rz)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_rm_ftz, detail::sqrt_rm_ftz, ::__dsqrt_rd)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, sqrt_rp_ftz, detail::sqrt_rp_ftz, ::__dsqrt_ru)
TILE2CU_MATH_UNARY(TILE2CU_DEVICE, rsqrt_ftz, detail::rsqrt_approx_ftz, ::rsqrt)
// truediv's APPROX and FULL modes, with and without flush to zero; tile / scalar forms in
// divide.cuh.
#define TILE2CU_RECIPROCAL_DIVISION(name)                                         \
  TILE2CU_MATH_BINARY_SCALAR(TILE2CU_DEVICE, name, detail::name, detail::div)    \
  TILE2CU_LIFT_BINARY_BUT_TILE_SCALAR_AS(name, name)
TILE2CU_RECIPROCAL_DIVISION(div_approx)
TILE2CU_RECIPROCAL_DIVISION(div_approx_ftz)
TILE2CU_RECIPROCAL_DIVISION(div_full)
TILE2CU_RECIPROCAL_DIVISION(div_full_ftz)
#undef TILE2CU_RECIPROCAL_DIVISION
// Flush to zero, alone (round to nearest) and with each directed rounding; min / max too.
// (The double forms, never selected, are the plain directed ops.)
#define TILE2CU_MATH_BINARY_FTZ(op)                                               \
  TILE2CU_MATH_BINARY(TILE2CU_DEVICE, op##_ftz, detail::op##_rn_ftz, ::__d##op##_rn) \
  TILE2CU_MATH_BINARY(TILE2CU_DEVICE, op##_rz_ftz, detail::op##_rz_ftz, ::__d##op##_rz) \
  TILE2CU_MATH_BINARY(TILE2CU_DEVICE, op##_rm_ftz, detail::op##_rm_ftz, ::__d##op##_rd) \
  TILE2CU_MATH_BINARY(TILE2CU_DEVICE, op##_rp_ftz, detail::op##_rp_ftz, ::__d##op##_ru)
TILE2CU_MATH_BINARY_FTZ(add)
TILE2CU_MATH_BINARY_FTZ(sub)
TILE2CU_MATH_BINARY_FTZ(mul)
TILE2CU_MATH_BINARY_FTZ(div)
#undef TILE2CU_MATH_BINARY_FTZ
TILE2CU_MATH_BINARY(TILE2CU_DEVICE, minimum_ftz, detail::min_ftz, ::fmin)
TILE2CU_MATH_BINARY(TILE2CU_DEVICE, maximum_ftz, detail::max_ftz, ::fmax)
TILE2CU_MATH_BINARY(TILE2CU_DEVICE, minimum_nan_ftz, detail::min_nan_ftz, detail::fmin_nan)
TILE2CU_MATH_BINARY(TILE2CU_DEVICE, maximum_nan_ftz, detail::max_nan_ftz, detail::fmax_nan)

// ---- explicit IEEE rounding: rn (nearest even), rz (toward 0), rm (-inf), rp (+inf) --------
// f16/bf16 compute in float and round back in the same direction.
#define TILE2CU_DIRECTED_UNARY(name, f32, f64, dir) TILE2CU_MATH_UNARY_ROUNDED(TILE2CU_DEVICE, name, f32, f64, dir)
#define TILE2CU_DIRECTED_BINARY(name, f32, f64, dir)                              \
  TILE2CU_MATH_BINARY_SCALAR_ROUNDED(TILE2CU_DEVICE, name, f32, f64, dir)        \
  TILE2CU_LIFT_BINARY(name)
// sqrt_rn, sqrt_rz, sqrt_rm, sqrt_rp; div_rn, ...; add_, sub_, mul_ likewise (CUDA's
// __fsqrt_rz, __dsqrt_rz, ...).
#define TILE2CU_DIRECTED_FAMILY(KIND, op)                                         \
  TILE2CU_DIRECTED_##KIND(op##_rn, ::__f##op##_rn, ::__d##op##_rn, Nearest)      \
  TILE2CU_DIRECTED_##KIND(op##_rz, ::__f##op##_rz, ::__d##op##_rz, Zero)         \
  TILE2CU_DIRECTED_##KIND(op##_rm, ::__f##op##_rd, ::__d##op##_rd, Down)         \
  TILE2CU_DIRECTED_##KIND(op##_rp, ::__f##op##_ru, ::__d##op##_ru, Up)
TILE2CU_DIRECTED_FAMILY(UNARY, sqrt)
TILE2CU_DIRECTED_FAMILY(BINARY, div)
TILE2CU_DIRECTED_FAMILY(BINARY, add)
TILE2CU_DIRECTED_FAMILY(BINARY, sub)
TILE2CU_DIRECTED_FAMILY(BINARY, mul)
#undef TILE2CU_DIRECTED_FAMILY
#undef TILE2CU_DIRECTED_BINARY
#undef TILE2CU_DIRECTED_UNARY

#undef TILE2CU_MATH_UNARY
#undef TILE2CU_MATH_UNARY_ROUNDED
#undef TILE2CU_MATH_BINARY
#undef TILE2CU_MATH_BINARY_SCALAR
#undef TILE2CU_MATH_BINARY_SCALAR_ROUNDED

}  // namespace tile2cu
