// ct.astile (spec: scalar -> 0-d tile; nested tuple of scalars -> the tile of that shape). cuTile's
// test_astile.py checks the values on a GPU and these error messages with pytest.raises(match=).
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "transpile_one.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TEST(Astile, NestedTuplesOfRuntimeAndConstantScalarsBuild) {
  TranspileResult r = transpile_one(R"(def k(X, Y, Z, a: int, c: float, d: bool):
    ct.store(X, (0, 0), ct.astile(((a, 2), (c, d)), dtype=ct.bool_))
    ct.store(Y, (0, 0, 0), ct.astile((((1, 2), (3, 4)), ((5, 6), (7, 8))), dtype=ct.int32))
    ct.store(Z, 0, ct.astile(5.5, dtype=ct.int32))
)",
                                    "X=bool[?, ?], Y=int32[?, ?, ?], Z=int32[?], a=int64, c=float32, d=bool");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "insert_element(full<Layout_2x2>(false), astype<bool>(a), {0, 0}), true, {0, 1})")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "8, {1, 1, 1})")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "store_scalar(Z, {0}, 5)")) << r.cu;  // a float literal into int32 truncates, as full()
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

TEST(Astile, ErrorsNameThePlaceInTheTuple) {
  const std::pair<const char*, const char*> cases[] = {
      {"ct.astile((), dtype=ct.int32)", "Tuple length 0 at value is not a power of 2"},
      {"ct.astile((1, 2, 3), dtype=ct.int32)", "Tuple length 3 at value is not a power of 2"},
      {"ct.astile((1, \"a\"), dtype=ct.int32)", "Expected scalar elements at value[1]"},
      {"ct.astile(((1,), (ct.full((2, 2), 1, dtype=ct.int32),)), dtype=ct.int32)",
       "Expected scalar elements at value[1][0]"},
      {"ct.astile(((1, 2), (3,)), dtype=ct.int32)", "Tuple has non-uniform inner shapes at value[1]"},
      {"ct.astile(((1, 2), 3), dtype=ct.int32)", "Tuple has non-uniform inner shapes at value[1]"},
      {"ct.astile(ct.full((4,), 1, dtype=ct.int32), dtype=ct.int32)",
       "Expected a scalar or (possibly nested) tuple of scalars"},
      {"ct.astile(1)", "astile() missing required keyword argument 'dtype'"},
  };
  for (const auto& [call, message] : cases) {
    TranspileResult r = transpile_one(std::string("def k(X):\n    t = ") + call + "\n", "X=int32[?]");
    EXPECT_FALSE(r.ok) << call;
    EXPECT_TRUE(contains(r.diagnostics, "error[TileTypeError]: " + std::string(message))) << call << "\n" << r.diagnostics;
  }
}

}  // namespace
}  // namespace tile2cu
