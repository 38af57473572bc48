// Host check of tile2cu::Values (values.cuh), the element of ct.reduce / ct.scan over a tuple of
// tiles. Run by tests/runtime/run_host_test.sh (ctest runtime_values):
//   nvcc -std=c++17 -I runtime tests/runtime/values_test.cu
// 1. Its size is what the emitter sizes scratch with (layout_plan.cpp: carried_element_bytes).
// 2. combine_elements hands a tuple combiner a's fields, then b's (cuTile's argument order).
// 3. cuTile's two tuple reductions (test_reduction.py: minimum_with_index, welford), folded
//    through combine_elements in order and as a tree (the order the GPU's reduce may take),
//    give cuTile's expected values.
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

using tile2cu::Values;
using tile2cu::combine_elements;
using tile2cu::field;

// The emitter's rule for Values<T0, ..., TN-1>, over the fields' sizes (each its own alignment).
template <class... T>
constexpr size_t emitter_bytes() {
  const size_t sizes[] = {sizeof(T)...};
  size_t size = 0, align = 1;
  for (size_t i = sizeof...(T); i-- > 0;) {
    if (size == 0) {
      size = align = sizes[i];
      continue;
    }
    const size_t rest_at = (sizes[i] + align - 1) / align * align;
    align = align > sizes[i] ? align : sizes[i];
    size = (rest_at + size + align - 1) / align * align;
  }
  return size;
}
template <class... T>
constexpr bool same_size() { return sizeof(Values<T...>) == emitter_bytes<T...>(); }
static_assert(same_size<int32_t>() && same_size<int32_t, int32_t>() && same_size<float, float, float>());
static_assert(same_size<float, float, float, int32_t>() && same_size<int8_t, double, int8_t>());
static_assert(same_size<int8_t, int8_t, double>() && same_size<double, int8_t, int8_t>());
static_assert(same_size<__half, int8_t>() && same_size<int8_t, __half, int64_t, bool>());
static_assert(same_size<__nv_bfloat16, double, __half>() && same_size<bool, bool, bool>());
static_assert(sizeof(Values<int8_t, double, int8_t>) == 24, "the nesting, not a flat struct (16)");

static int passed = 0, failed = 0;
static void check(const char* name, bool ok) {
  if (ok) ++passed;
  else {
    ++failed;
    std::printf("FAIL %s\n", name);
  }
}

// cuTile's minimum_with_index (test_custom_reduction_minimum_with_index), on scalars.
static Values<int32_t, int32_t> minimum_with_index(int32_t a_val, int32_t a_idx, int32_t b_val, int32_t b_idx) {
  const bool mask = a_val < b_val || (a_val == b_val && a_idx < b_idx);
  return {mask ? a_val : b_val, mask ? a_idx : b_idx};
}

// cuTile's Welford combine (test_custom_reduction_welford), on scalars.
static Values<float, float, float> welford(float mean_a, float m2_a, float weight_a, float mean_b, float m2_b,
                                           float weight_b) {
  const float delta = mean_b - mean_a;
  const float new_weight = weight_a + weight_b;
  const float wb_normalized = new_weight == 0 ? 0.0f : weight_b / new_weight;
  return {mean_a + delta * wb_normalized, m2_a + m2_b + delta * delta * weight_a * wb_normalized, new_weight};
}

// Left to right from the identity, and as a tree of neighbours (identity-padded to a power of 2).
template <class V, class F>
static V fold_in_order(const std::vector<V>& xs, F f, V identity) {
  V acc = identity;
  for (const V& x : xs) acc = combine_elements(f, acc, x);
  return acc;
}
template <class V, class F>
static V fold_as_tree(std::vector<V> xs, F f, V identity) {
  while (xs.size() > 1) {
    if (xs.size() % 2) xs.push_back(identity);
    std::vector<V> next;
    for (size_t i = 0; i < xs.size(); i += 2) next.push_back(combine_elements(f, xs[i], xs[i + 1]));
    xs = next;
  }
  return xs[0];
}

int main() {
  // 2. a's fields, then b's.
  const Values<int32_t, float, int8_t> a{1, 2.5f, 3}, b{10, 20.5f, 30};
  const auto got = combine_elements(
      [](int32_t a0, float a1, int8_t a2, int32_t b0, float b1, int8_t b2) -> Values<int32_t, float, int8_t> {
        return {a0 * 100 + b0, a1 - b1, int8_t(a2 * 10 + b2)};
      },
      a, b);
  check("argument order", field<0>(got) == 110 && field<1>(got) == -18.0f && field<2>(got) == 60);
  check("scalar combine", combine_elements([](int x, int y) { return x - y; }, 7, 2) == 5);

  // 3a. Rows of cuTile's x; y_ref = [-4, 2, 10, 9], yi_ref = [6, 0, 7, 4].
  const int32_t x[4][8] = {{5, 10, 7, 23, 8, 9, -4, 4},
                           {2, 2, 2, 2, 2, 2, 2, 2},
                           {17, 16, 15, 14, 13, 12, 11, 10},
                           {13, 13, 12, 12, 9, 9, 11, 11}};
  const int32_t y_ref[4] = {-4, 2, 10, 9}, yi_ref[4] = {6, 0, 7, 4};
  const Values<int32_t, int32_t> min_identity{2147483647, 0};
  for (int row = 0; row < 4; ++row) {
    std::vector<Values<int32_t, int32_t>> xs;
    for (int j = 0; j < 8; ++j) xs.push_back({x[row][j], j});
    for (const auto& r : {fold_in_order(xs, minimum_with_index, min_identity), fold_as_tree(xs, minimum_with_index, min_identity)})
      check("minimum_with_index", field<0>(r) == y_ref[row] && field<1>(r) == yi_ref[row]);
  }

  // 3b. Welford over 1024 weighted values against the two-pass mean and (weighted) variance.
  std::mt19937 rng(20261128);
  std::normal_distribution<float> normal(1.5f, 3.0f);
  std::uniform_int_distribution<int> weight(0, 99);
  std::vector<Values<float, float, float>> xs;
  double w_sum = 0, mean = 0, var = 0;
  std::vector<double> xv, wv;
  for (int i = 0; i < 1024; ++i) {
    xv.push_back(normal(rng));
    wv.push_back(weight(rng));
    xs.push_back({float(xv.back()), 0.0f, float(wv.back())});
    w_sum += wv.back();
  }
  for (int i = 0; i < 1024; ++i) mean += xv[i] * wv[i] / w_sum;
  for (int i = 0; i < 1024; ++i) var += wv[i] * (xv[i] - mean) * (xv[i] - mean);
  var /= w_sum;  // as the test divides m2 by the weights' sum
  const Values<float, float, float> zero{0.0f, 0.0f, 0.0f};
  for (const auto& r : {fold_in_order(xs, welford, zero), fold_as_tree(xs, welford, zero)}) {
    check("welford mean", std::fabs(field<0>(r) - mean) < 1e-3);
    check("welford variance", std::fabs(field<1>(r) / w_sum - var) < 1e-3 * std::max(1.0, var));
    check("welford weight", field<2>(r) == float(w_sum));
  }

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
