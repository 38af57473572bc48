// Host check of argmax/argmin's combiner (reduce.cuh ArgOp) on NaN rows: folded from its identity
// in several orders, as the GPU's reduction folds it, it must give cuTile's answers for the rows
// of cuTile's test_reduction.py::test_reduce_argmaxmin_nan. Before, an all-NaN row kept the
// identity's index (2147483647 where cuTile gives 0: random kernels, seed 20261128 program 2335).
// max/min (MaxOp, MinOp) likewise for the values of test_reduce_maxmin_nan: folded from an
// identity of -inf / +inf, an all-NaN row gave that infinity where cuTile gives NaN.
// Run by tests/runtime/run_host_test.sh (ctest runtime_argmax_nan).
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>

static int failed = 0;

// cuTile's rows (test_reduction.py): every value kind, NaN placed first, in the middle and alone.
static const float kNan = NAN, kInf = INFINITY;
static const float kRows[5][8] = {{3.0f, 0.0f, 4.0f, 1.5f, 5.0f, 9.0f, 2.0f, 6.0f},
                                  {3.0f, kInf, kNan, 1.5f, 5.0f, -2.0f, 2.0f, 6.0f},
                                  {kNan, kNan, 7.0f, 1.0f, kNan, 8.0f, kNan, 0.5f},
                                  {5.0f, -3.0f, 2.0f, kNan, 4.0f, 0.0f, -kInf, 1.0f},
                                  {kNan, kNan, kNan, kNan, kNan, kNan, kNan, kNan}};

// Folds n elements of type V with Op in one of three orders, as the GPU's reduction may:
// 0 left to right from the identity, 1 right to left with the identity last, 2 a tree with an
// identity in every leaf pair.
template <class Op, class V>
static V fold(V (&acc)[8], int n, int order) {
  const V id = Op::template identity<V>();
  if (order == 0) {
    V r = id;
    for (int i = 0; i < n; ++i) r = Op::combine(r, acc[i]);
    return r;
  }
  if (order == 1) {
    V r = acc[n - 1];
    for (int i = n - 2; i >= 0; --i) r = Op::combine(acc[i], r);
    return Op::combine(r, id);
  }
  for (int w = n; w > 1; w /= 2)
    for (int i = 0; i < w / 2; ++i) acc[i] = Op::combine(Op::combine(acc[2 * i], id), acc[2 * i + 1]);
  return acc[0];
}

// argmax / argmin: the index each row folds to.
template <class Op>
static void check(const char* name, const int (&want)[5]) {
  for (int r = 0; r < 5; ++r)
    for (int order = 0; order < 3; ++order) {
      tile2cu::Indexed<float> acc[8];
      for (int i = 0; i < 8; ++i) acc[i] = {kRows[r][i], i};
      const int got = fold<Op>(acc, 8, order).index;
      if (got != want[r]) {
        ++failed;
        std::printf("FAIL %s row %d order %d: %d, cuTile %d\n", name, r, order, got, want[r]);
      }
    }
}

// max / min: the value each row folds to, NaN compared as NaN.
template <class Op>
static void check_value(const char* name, const float (&want)[5]) {
  for (int r = 0; r < 5; ++r)
    for (int order = 0; order < 3; ++order) {
      float acc[8];
      for (int i = 0; i < 8; ++i) acc[i] = kRows[r][i];
      const float got = fold<Op>(acc, 8, order);
      if (!(got == want[r] || (std::isnan(got) && std::isnan(want[r])))) {
        ++failed;
        std::printf("FAIL %s row %d order %d: %g, cuTile %g\n", name, r, order, got, want[r]);
      }
    }
}

int main() {
  using tile2cu::ArgOp;
  using tile2cu::MaxOp;
  using tile2cu::MinOp;
  const float nan = kNan, inf = kInf;
  check_value<MaxOp<false>>("max", {9.0f, inf, 8.0f, 5.0f, nan});
  check_value<MinOp<false>>("min", {0.0f, -2.0f, 0.5f, -inf, nan});
  check_value<MaxOp<true>>("max propagate_nan", {9.0f, nan, nan, nan, nan});
  check_value<MinOp<true>>("min propagate_nan", {0.0f, nan, nan, nan, nan});
  check<ArgOp<true, false>>("argmax", {5, 1, 5, 0, 0});
  check<ArgOp<false, false>>("argmin", {1, 5, 7, 6, 0});
  check<ArgOp<true, true>>("argmax propagate_nan", {5, 2, 0, 3, 0});
  check<ArgOp<false, true>>("argmin propagate_nan", {1, 2, 0, 3, 0});
  // -inf against a NaN and the identity: the element wins (cuTile ignores the NaN).
  tile2cu::Indexed<float> edge[8] = {{kNan, 0}, {-kInf, 1}};
  const int got = fold<ArgOp<true, false>>(edge, 2, 0).index;
  if (got != 1) ++failed, std::printf("FAIL argmax [nan, -inf]: %d, want 1\n", got);
  std::printf("%s\n", failed ? "FAILED" : "argmax/argmin/max/min NaN rows: ok");
  return failed ? 1 : 0;
}
