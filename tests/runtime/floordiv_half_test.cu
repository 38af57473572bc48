// Host check of tile2cu::floordiv on 16-bit floats (elementwise.cuh): the quotient is rounded to
// the element type before the floor, as a division in that type followed by floor() computes it
// (cuTile's test_array_div_float[bf16-bf16-//] compares with torch.floor(x / y) in bf16).
// Run by tests/runtime/run_host_test.sh (ctest runtime_floordiv_half).
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>

template <class T>
static long check_all(const char* name) {
  long wrong = 0;
  // Every pair of a grid of values in [0.37, 148) over divisors in [1.14, 11.4): the same grid
  // as the upstream test's rand() * 100 and rand() * 100 + 1, coarser.
  for (int i = 1; i < 400; ++i)
    for (int j = 1; j < 80; ++j) {
      const T a = tile2cu::convert<T>(float(i) * 0.37f), b = tile2cu::convert<T>(1.01f + float(j) * 0.13f);
      const float rounded = tile2cu::convert<float>(tile2cu::convert<T>(tile2cu::convert<float>(a) / tile2cu::convert<float>(b)));
      const float want = std::floor(rounded), got = tile2cu::convert<float>(tile2cu::floordiv(a, b));
      if (want != got && ++wrong <= 5)
        std::printf("MISMATCH %s %g // %g: got %g, want %g\n", name, tile2cu::convert<float>(a), tile2cu::convert<float>(b), got, want);
    }
  return wrong;
}

int main() {
  const float case13 = tile2cu::convert<float>(
      tile2cu::floordiv(tile2cu::convert<__nv_bfloat16>(14.8125f), tile2cu::convert<__nv_bfloat16>(1.140625f)));
  if (case13 != 13.0f) {
    std::printf("FAIL: bf16 14.8125 // 1.140625 = %g, want 13 (the quotient 12.986 is 13 in bf16)\n", case13);
    return 1;
  }
  const long wrong = check_all<__nv_bfloat16>("bf16") + check_all<__half>("f16") + check_all<float>("f32");
  std::printf("%ld wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
