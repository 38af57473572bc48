// Host check of tile2cu::FloatDivisor (divide.cuh): its quotient must equal IEEE a / b bit for bit
// (NaN for NaN). Run by tests/runtime/run_host_test.sh (ctest runtime_divide):
//   nvcc -std=c++17 -I runtime -Xcompiler -ffp-contract=off tests/runtime/divide_test.cu
// The device counterpart, through the tile operator on the GPU, is tests/gpu/divide_check.cu.
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

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

static long checked = 0, wrong = 0;
static void check(float a, float b, const tile2cu::FloatDivisor& divide_by) {
  const float want = a / b, got = divide_by(a);
  ++checked;
  if (to_bits(want) == to_bits(got) || (std::isnan(want) && std::isnan(got))) return;
  if (++wrong <= 10) std::printf("MISMATCH %a / %a: got %a, IEEE %a\n", a, b, got, want);
}

int main() {
  std::mt19937 rng(20261124);
  // 1. Every significand of a in [1, 2) against divisors in [1, 2): the quotient's rounding
  //    depends only on the significands while nothing under- or overflows.
  const uint32_t edge_divisors[] = {0x3f800000u, 0x3f800001u, 0x3fffffffu, 0x3fc00000u,
                                    0x3faaaaabu, 0x40400000u};
  for (int k = 0; k < 16; ++k) {
    const float b = k < 6 ? from_bits(edge_divisors[k]) : from_bits(0x3f800000u | (rng() & 0x7fffffu));
    const tile2cu::FloatDivisor divide_by(b);
    for (uint32_t m = 0; m < (1u << 23); ++m) check(from_bits(0x3f800000u | m), b, divide_by);
  }
  // 2. Every pair of exponents (subnormals, inf and NaN included), random significands and signs:
  //    the range checks of the fast path at their boundaries.
  for (uint32_t ea = 0; ea < 256; ++ea)
    for (uint32_t eb = 0; eb < 256; ++eb)
      for (int k = 0; k < 8; ++k) {
        const float a = from_bits((rng() & 0x807fffffu) | (ea << 23));
        const float b = from_bits((rng() & 0x807fffffu) | (eb << 23));
        check(a, b, tile2cu::FloatDivisor(b));
      }
  // 3. Random bit patterns, and special values on either side.
  const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, FLT_MAX, -FLT_MAX, FLT_MIN,
                            from_bits(1), from_bits(0x807fffffu), 1.0f, -3.0f, 0x1p-100f,
                            0x1p-126f, 0x1p126f, 0x1p127f};
  for (float b : specials)
    for (float a : specials) check(a, b, tile2cu::FloatDivisor(b));
  for (int k = 0; k < 4000000; ++k) {
    const float a = from_bits(rng()), b = from_bits(rng());
    check(a, b, tile2cu::FloatDivisor(b));
  }
  std::printf("%ld quotients checked, %ld differ from IEEE division\n", checked, wrong);
  return wrong == 0 ? 0 : 1;
}
