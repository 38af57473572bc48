// 0-d arrays (torch.ones(()), issue 23 item 4): a kernel parameter of rank 0 is a pointer to one
// element. cuTile's test_closure.py gathers and scatters them with `()` indices, and a launcher
// test loads one as a scalar. The transpiler accepted them but the runtime's Array and ArrayView
// took rank >= 1 only, so nvcc rejected the output.
#include <gtest/gtest.h>

#include "nvcc_compile.hpp"
#include "text_match.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {
namespace {

TEST(ZeroDArrays, GatherScatterAndScalarLoadsBuild) {
  TranspileOptions options;
  options.signatures = {"bump(x=int32[])", "scale(x=float16[?], y=float32[?], s=float32[], TILE=128)"};
  options.header_name = "k.cuh";
  TranspileResult r = transpile("k.py", R"(import cuda.tile as ct


@ct.kernel
def bump(x):
    val = ct.gather(x, ())
    ct.scatter(x, (), val + 20)


@ct.kernel
def scale(x, y, s, TILE: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)).astype(ct.float32)
    ct.store(y, index=(b,), tile=t * ct.load(s, index=(), shape=()))
)",
                                options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "const Array<int32_t, 0> x{x_data, {}, {}};")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "load_scalar(s, {})")) << r.cu;
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "k.cuh", "sm_80"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
