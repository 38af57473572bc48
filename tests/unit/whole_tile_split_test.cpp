// Whole-tile tests taken once per block (src/emit/whole_tile_split.cpp): the edges of what a block
// knows up front, checked in the generated text and by nvcc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nvcc_compile.hpp"
#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

// Row kernels that load three big bf16 tiles and ask for occupancy=4 (the block-known kind of
// split) at its edges:
// - views: a slice's extent and a list item's extent and stride are declared where the kernel
//   makes the view, so an index that uses them is not known up front;
// - a scalar compare of an arange's item is no tile mask;
// - an index computed on the first access's own line leaves that access untested;
// - a return before the split, and an index proven by a literal tile index above 0.
const char* kEdges = R"(import cuda.tile as ct

@ct.kernel(occupancy=4)
def slice_extent(X, w, b, y, n: int, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(X, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    seg = X.slice(0, 0, n)
    u = (ct.load(w, index=(0,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    ct.store(y, index=(seg.shape[0], 0), tile=(t * u).astype(y.dtype))

@ct.kernel(occupancy=4)
def item_extent(xs, w, b, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(y, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    t = t + (ct.load(w, index=(0,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    x = xs[row]
    ct.store(y, index=(x.shape[0], 0), tile=t.astype(y.dtype))
    ct.store(y, index=(x.strides[0], 0), tile=t.astype(y.dtype))

@ct.kernel(occupancy=4)
def scalar_compare(x, w, b, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    u = (ct.load(w, index=(0,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    if ct.arange(1, dtype=ct.int32).item() < w.shape[0]:
        ct.store(y, index=(row, 0), tile=(t * u).astype(y.dtype))

@ct.kernel(occupancy=4)
def same_line(x, w, b, y, TN: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0) * 2, 0), shape=(1, TN)).astype(ct.float32)
    u = (ct.load(w, index=(0,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    ct.store(y, index=(ct.bid(0) * 2, 0), tile=(t * u).astype(y.dtype))

@ct.kernel(occupancy=4)
def early_return(x, w, b, y, M: int, TN: ct.Constant[int]):
    row = ct.bid(0)
    if row >= M:
        return
    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    u = (ct.load(w, index=(1,), shape=(TN,)) + ct.load(b, index=(0,), shape=(TN,))).astype(ct.float32)[None, :]
    second = ct.arange(TN, dtype=ct.int32)[None, :] < w.shape[0] - TN
    ct.store(y, index=(row, 0), tile=ct.where(second, t * u, t).astype(y.dtype))
)";

TEST(WholeTileSplit, EdgesOfWhatABlockKnowsUpFront) {
  TranspileOptions options;
  options.header_name = "edges.cuh";
  options.signatures = {
      "slice_extent(X=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], n=int32, TN=8192)",
      "item_extent(xs=list[bfloat16[?]], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)",
      "scalar_compare(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)",
      "same_line(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)",
      "early_return(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], M=int32, TN=8192)"};
  TranspileResult r = transpile("edges.py", kEdges, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const std::string slice = spec_text(r.cu, "slice_extent_bf16_bf16_bf16_bf16_i32_8192");
  ASSERT_FALSE(slice.empty()) << r.cu;
  EXPECT_EQ(count(slice, "whole_tile<Layout_1x8192>(y, {seg."), 0u) << slice;  // seg is made later
  EXPECT_EQ(count(slice, "whole_tile<Layout_1x8192>(X, {row, 0})"), 1u) << slice;
  const std::string item = spec_text(r.cu, "item_extent_listbf16_bf16_bf16_bf16_8192");
  ASSERT_FALSE(item.empty()) << r.cu;
  EXPECT_EQ(count(item, "whole_tile<Layout_1x8192>(y, {x."), 0u) << item;  // x is the list item
  EXPECT_EQ(count(item, "whole_tile<Layout_1x8192>(y, {row, 0})"), 1u) << item;
  const std::string scalar = spec_text(r.cu, "scalar_compare_bf16_bf16_bf16_bf16_8192");
  EXPECT_EQ(count(scalar, "true_when_whole("), 0u) << scalar;
  const std::string same = spec_text(r.cu, "same_line_bf16_bf16_bf16_bf16_8192");
  EXPECT_EQ(count(same, "whole_tile<Layout_1x8192>(x"), 0u) << same;
  EXPECT_EQ(count(same, "whole_tile<Layout_8192>(w, {0})"), 1u) << same;
  const std::string early = spec_text(r.cu, "early_return_bf16_bf16_bf16_bf16_i32_8192");
  EXPECT_EQ(count(early, "with_whole_tiles_outlined("), 1u) << early;
  // w's tile at index 1 spans elements [TN, 2 TN): w.shape[0] - TN > every arange value.
  EXPECT_EQ(count(early, "true_when_whole(whole, "), 0u) << early;  // `- TN` is no extent: not proven
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "edges.cuh"), 0) << r.cu;
}

// The mask proof: a literal tile index i > 0 proves a.shape[d] >= (i + 1) * TN; `shape > arange`
// reads as `arange < shape`; an arange from 1 reaches TN, which a tile of TN does not prove.
// Kept to the plain split: two big 16-bit loads (RMS norm's shape), and three without an
// occupancy= request (which then gets 3 blocks per SM, the plan's own cap, and a copy for whole
// tiles on 512 threads). Both run the launcher's copy for whole tiles, whose answer proves their
// masks instead (whole_at_launch).
TEST(WholeTileSplit, MasksProvenByTheTests) {
  TranspileOptions options;
  options.header_name = "masks.cuh";
  options.signatures = {"masks(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=4096)",
                        "two_loads(x=bfloat16[?, ?], w=bfloat16[?], y=bfloat16[?, ?], TN=8192)",
                        "no_request(x=bfloat16[?, ?], w=bfloat16[?], b=bfloat16[?], y=bfloat16[?, ?], TN=8192)"};
  TranspileResult r = transpile("masks.py", R"(import cuda.tile as ct

@ct.kernel(occupancy=4)
def masks(x, w, b, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, 2 * TN)).astype(ct.float32)
    u = ct.load(w, index=(1,), shape=(2 * TN,)).astype(ct.float32)[None, :]
    u = u + ct.load(b, index=(0,), shape=(2 * TN,)).astype(ct.float32)[None, :]
    below = ct.arange(2 * TN, dtype=ct.int32)[None, :] < x.shape[1]
    twice = w.shape[0] > ct.arange(2 * TN, dtype=ct.int32, start=2 * TN)[None, :]
    from_one = ct.arange(2 * TN, dtype=ct.int32, start=1)[None, :] < x.shape[1]
    ct.store(y, index=(row, 0), tile=ct.where(below & twice & from_one, t * u, 0.0).astype(y.dtype))

@ct.kernel(occupancy=4)
def two_loads(x, w, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    inside = ct.arange(TN, dtype=ct.int32)[None, :] < x.shape[1]
    u = ct.where(inside, t, 0.0) * ct.load(w, index=(0,), shape=(TN,)).astype(ct.float32)[None, :]
    ct.store(y, index=(row, 0), tile=u.astype(y.dtype))

@ct.kernel
def no_request(x, w, b, y, TN: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TN)).astype(ct.float32)
    inside = ct.arange(TN, dtype=ct.int32)[None, :] < x.shape[1]
    u = ct.where(inside, t, 0.0) * ct.load(w, index=(0,), shape=(TN,)).astype(ct.float32)[None, :]
    u = u + ct.load(b, index=(0,), shape=(TN,)).astype(ct.float32)[None, :]
    ct.store(y, index=(row, 0), tile=u.astype(y.dtype))
)",
                                options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(count(r.cu, "const auto below = true_when_whole(whole, "), 1u) << r.cu;
  EXPECT_EQ(count(r.cu, "const auto twice = true_when_whole(whole, "), 1u) << r.cu;
  EXPECT_EQ(count(r.cu, "const auto from_one = true_when_whole("), 0u) << r.cu;
  EXPECT_EQ(count(r.cu, "true_when_whole(whole, "), 2u) << r.cu;  // none in two_loads, no_request
  EXPECT_EQ(count(r.cu, "const auto inside = true_when_whole(whole_at_launch, "), 2u) << r.cu;
  EXPECT_EQ(count(r.cu, "with_whole_tiles_outlined("), 1u) << r.cu;
  EXPECT_EQ(count(r.cu, "with_whole_tiles(fixed_tiles_whole, [&](auto whole) {"), 2u) << r.cu;
  EXPECT_EQ(count(r.cu, "__launch_bounds__(kThreads, 4)"), 2u) << r.cu;  // masks, two_loads: asked for
  EXPECT_EQ(count(r.cu, "__launch_bounds__(kTilesWhole ? kWholeThreads : kThreads, 3)"), 1u) << r.cu;  // no_request
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  EXPECT_EQ(testing::nvcc_compile(r.cu, r.cuh, "masks.cuh"), 0) << r.cu;
}

}  // namespace
}  // namespace tile2cu
