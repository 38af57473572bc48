// Host-only checks of tile2cu/host.hpp, built by a plain C++ compiler:
//   g++ -std=c++17 -Wall -Wextra -I runtime -I /usr/local/cuda/include tests/runtime/host_test.cpp
#include <tile2cu/host.hpp>

#include <cstdio>
#include <string>

static int passed = 0, failed = 0;
static void check(const char* name, bool ok) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAIL %s\n", name);
  }
}

int main() {
  using tile2cu::Array;
  using tile2cu::ArrayView;
  float buf[2 * 3 * 4] = {};

  // Contiguous constructor: row-major strides.
  const ArrayView<float, 3> v(buf, {2, 3, 4});
  check("contiguous shape", v.shape[0] == 2 && v.shape[1] == 3 && v.shape[2] == 4);
  check("contiguous strides", v.strides[0] == 12 && v.strides[1] == 4 && v.strides[2] == 1);
  check("data", v.data == buf);

  Array<float, 3> a{};
  check("fits int32", tile2cu::to_device_array<int32_t>(v, a));
  check("copied shape", a.shape[0] == 2 && a.shape[1] == 3 && a.shape[2] == 4);
  check("copied stride", a.stride[0] == 12 && a.stride[1] == 4 && a.stride[2] == 1);
  check("copied data", a.data == buf);

  // const element type -> non-const kernel pointer.
  const float* cbuf = buf;
  const ArrayView<const float, 1> cv(cbuf, {24});
  Array<float, 1, int64_t> ca{};
  check("const view", tile2cu::to_device_array<int64_t>(cv, ca) && ca.data == buf && ca.shape[0] == 24);

  // Explicit strides (a transposed view).
  const ArrayView<float, 2> t(buf, {4, 6}, {1, 4});
  Array<float, 2> ta{};
  check("strided", tile2cu::to_device_array<int32_t>(t, ta) && ta.stride[0] == 1 && ta.stride[1] == 4);

  // Shapes / strides that do not fit the index type, or negative strides.
  const ArrayView<float, 1> big(buf, {int64_t(1) << 31});
  Array<float, 1> big32{};
  Array<float, 1, int64_t> big64{};
  check("2^31 does not fit int32", !tile2cu::to_device_array<int32_t>(big, big32));
  check("2^31 fits int64", tile2cu::to_device_array<int64_t>(big, big64) && big64.shape[0] == (int64_t(1) << 31));
  const ArrayView<float, 1> edge(buf, {INT32_MAX});
  check("INT32_MAX fits int32", tile2cu::to_device_array<int32_t>(edge, big32) && big32.shape[0] == INT32_MAX);
  const ArrayView<float, 2> bigstride(buf, {2, 2}, {int64_t(1) << 40, 1});
  Array<float, 2> bs{};
  check("stride 2^40 does not fit int32", !tile2cu::to_device_array<int32_t>(bigstride, bs));
  const ArrayView<float, 2> neg(buf, {2, 2}, {-2, 1});
  Array<float, 2, int64_t> bs64{};
  check("negative stride rejected", !tile2cu::to_device_array<int64_t>(neg, bs64) &&
                                        !tile2cu::to_device_array<int32_t>(neg, bs));
  const ArrayView<float, 1> negshape(buf, {-1});
  check("negative shape rejected", !tile2cu::to_device_array<int32_t>(negshape, big32));
  const ArrayView<float, 1> empty(buf, {0});
  check("empty ok", tile2cu::to_device_array<int32_t>(empty, big32) && big32.shape[0] == 0);
  Array<float, 1, int16_t> small{};
  check("int16 index", !tile2cu::to_device_array<int16_t>(ArrayView<float, 1>(buf, {40000}), small) &&
                           tile2cu::to_device_array<int16_t>(ArrayView<float, 1>(buf, {32767}), small));

  // Grid checks.
  check("grid 1", tile2cu::grid_ok(1));
  check("grid max", tile2cu::grid_ok((1 << 24) - 1, (1 << 24) - 1, (1 << 24) - 1));
  check("grid too big", !tile2cu::grid_ok(1 << 24));
  check("grid zero", !tile2cu::grid_ok(0) && !tile2cu::grid_ok(1, 0) && !tile2cu::grid_ok(1, 1, 0));
  check("grid negative", !tile2cu::grid_ok(-5));
  check("ceil_div", tile2cu::ceil_div(10, 4) == 3 && tile2cu::ceil_div(8, 4) == 2 && tile2cu::ceil_div(0, 4) == 0);
  static_assert(tile2cu::ceil_div(1025, 1024) == 2, "constexpr ceil_div");

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
