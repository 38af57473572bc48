// Host check of tile2cu::round_to_tf32 (types.cuh), the rounding of astype(ct.tfloat32): to
// nearest even by default, ties away for rounding_mode=RA, toward zero for RZ, as cuTile's
// test_astype_rounding_mode_f32_tf32 expects (1 + 2^-11 is 1 under RN and RZ, 1 + 2^-10 under RA).
// The reference picks between the two tf32 neighbours by exact distance (in double).
// Run by tests/runtime/run_host_test.sh (ctest runtime_tf32_rounding).
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

using tile2cu::Tf32Rounding;

static float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float reference(float x, Tf32Rounding mode) {
  if (!std::isfinite(x)) return x;
  const uint32_t toward_bits = to_bits(x) & 0xffffe000u;
  const float toward = from_bits(toward_bits);
  if (toward == x || mode == Tf32Rounding::Zero) return toward;
  const float away = from_bits(toward_bits + 0x2000u);  // one tf32 ulp more magnitude (may be inf)
  const int exponent = int((toward_bits >> 23) & 0xffu);  // a tf32 ulp is 2^13 float ulps
  const double ulp = std::ldexp(1.0, (exponent == 0 ? 1 : exponent) - 127 - 10);
  const double to_toward = std::fabs(double(x) - toward), to_away = ulp - to_toward;
  if (to_toward < to_away) return toward;
  if (to_away < to_toward) return away;
  if (mode == Tf32Rounding::NearestAway) return away;
  return (toward_bits & 0x2000u) ? away : toward;  // tie: the even one
}

static long checked = 0, wrong = 0;
template <Tf32Rounding M>
static void check(float x) {
  const float got = tile2cu::round_to_tf32<M>(x), want = reference(x, M);
  ++checked;
  if (to_bits(got) == to_bits(want) || (std::isnan(got) && std::isnan(want))) return;
  if (++wrong <= 10) std::printf("MISMATCH mode %d %a: got %a, want %a\n", int(M), x, got, want);
}
static void check_all(float x) {
  check<Tf32Rounding::NearestEven>(x);
  check<Tf32Rounding::NearestAway>(x);
  check<Tf32Rounding::Zero>(x);
}

int main() {
  // cuTile's cases, through astype's conversion (the default) and the explicit modes.
  const float val = 1.0f + std::ldexp(1.0f, -11), high = 1.0f + std::ldexp(1.0f, -10);
  if (tile2cu::convert<tile2cu::tfloat32>(val).value != 1.0f || tile2cu::convert<tile2cu::tfloat32>(-val).value != -1.0f ||
      tile2cu::round_to_tf32<Tf32Rounding::NearestAway>(val) != high ||
      tile2cu::round_to_tf32<Tf32Rounding::NearestAway>(-val) != -high ||
      tile2cu::round_to_tf32<Tf32Rounding::Zero>(val) != 1.0f) {
    std::printf("FAIL: cuTile's 1 + 2^-11 cases\n");
    return 1;
  }
  // Every low-13-bit pattern of a few exponents (ties, both parities), then random bits,
  // subnormals, the largest finite values (rounding to infinity), infinities and NaN.
  for (uint32_t high_bits : {0x3f800000u, 0x3f802000u, 0xbf800000u, 0x00000000u, 0x7f7fe000u, 0x00400000u})
    for (uint32_t low = 0; low < 0x2000u; ++low) check_all(from_bits(high_bits | low));
  std::mt19937 rng(20261128);
  for (int k = 0; k < 2000000; ++k) check_all(from_bits(rng()));
  for (uint32_t special : {0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0x7f7fffffu, 0xff7fffffu})
    check_all(from_bits(special));
  std::printf("%ld checked, %ld wrong\n", checked, wrong);
  return wrong == 0 ? 0 : 1;
}
