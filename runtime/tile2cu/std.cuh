// tile2cu/std.cuh: the C++ standard library the device code uses, for nvcc and NVRTC alike.
//
// nvcc compiles with the host's standard library. NVRTC, which compiles a generated file's
// kernels in process (issue 29), has none: there libcu++ (cuda/std, part of the toolkit) gives
// the same templates and std:: is made to name them, so the runtime and the generated code read
// the same whichever compiler builds them. Type traits and limits are compile-time only: the
// kernels come out the same.
#pragma once

#if defined(__CUDACC_RTC__)
// One libcu++ header per trait the runtime uses: all of <cuda/std/type_traits> takes NVRTC's
// front end about 1.5 s to parse, these about 0.3 s (a third of an elementwise kernel's compile).
#include <cuda/std/__type_traits/conditional.h>
#include <cuda/std/__type_traits/decay.h>
#include <cuda/std/__type_traits/enable_if.h>
#include <cuda/std/__type_traits/extent.h>
#include <cuda/std/__type_traits/integral_constant.h>
#include <cuda/std/__type_traits/is_arithmetic.h>
#include <cuda/std/__type_traits/is_class.h>
#include <cuda/std/__type_traits/is_floating_point.h>
#include <cuda/std/__type_traits/is_integral.h>
#include <cuda/std/__type_traits/is_same.h>
#include <cuda/std/__type_traits/is_signed.h>
#include <cuda/std/__type_traits/is_void.h>
#include <cuda/std/__utility/integer_sequence.h>
#include <cuda/std/cstdint>
#include <cuda/std/limits>

namespace std {
using namespace cuda::std;
}  // namespace std

// <cmath>'s INFINITY and NAN, which the generated code writes, spelled as <cuda/std/cmath>
// spells them under NVRTC (token for token, so either may come first) without its parse time.
#ifndef INFINITY
#define INFINITY _CUDA_VSTD::numeric_limits<float>::infinity()
#endif
#ifndef NAN
#define NAN      _CUDA_VSTD::numeric_limits<float>::quiet_NaN()
#endif
#else
#include <cstdint>
#include <cstring>
#include <type_traits>
#endif
