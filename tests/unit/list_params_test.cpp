// Lists of arrays as kernel parameters (spec a.3, h.14): the signature form list[<array>],
// items picked with a run-time index, len(), and the host interface the emitter writes.
#include "emit/cuda_emitter.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kGrouped =
    "@ct.kernel\n"
    "def k(xs, ys, TILE: ct.Constant[int]):\n"
    "    for g in range(len(xs)):\n"
    "        x = xs[g]\n"
    "        t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n"
    "        ct.store(ys[g], index=(ct.bid(0),), tile=t)\n";

TEST(ListParams, SignatureForm) {
  KernelSignature s = parse_signature("xs=list[float16[?, 64] align16], n=int32", "--sig");
  ASSERT_EQ(s.params.size(), 2u);
  auto* l = std::get_if<ListConstraint>(&s.params[0].constraint);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->element.dtype, DType::Float16);
  EXPECT_EQ(l->element.dims.size(), 2u);
  EXPECT_TRUE(l->element.aligned16);
  EXPECT_EQ(constraint_string(s.params[0]), "xs=list[float16[?, 64] align16]");
  EXPECT_THROW(parse_signature("xs=list[int32]", "--sig"), CompileError);
  EXPECT_THROW(parse_signature("xs=list[float32[?]", "--sig"), CompileError);
}

TEST(ListParams, ItemsAreArraysPickedAtRunTime) {
  ir::Function fn = compile_kernel(kGrouped, "xs=list[float32[?]], ys=list[float32[?]], TILE=128");
  auto items = ops_of_kind(fn, ir::OpKind::ListItem);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::ListLength).size(), 1u);
  const ir::ArrayParam& x = fn.arrays[items[0]->param];
  EXPECT_EQ(x.name, "x");  // named after the Python variable it is bound to
  EXPECT_EQ(fn.arrays[x.list_of].name, "xs");
  EXPECT_TRUE(fn.arrays[x.list_of].is_list);
  const ir::ArrayParam& y = fn.arrays[items[1]->param];
  EXPECT_EQ(y.name, "ys_item3");  // never bound to a name
  EXPECT_TRUE(y.written);
  EXPECT_TRUE(fn.arrays[y.list_of].written);   // a store through an item writes the list
  EXPECT_FALSE(fn.arrays[x.list_of].written);  // xs stays const in the launcher
}

TEST(ListParams, HostInterfaceFollowsTheCutileAbi) {
  ir::Function fn = compile_kernel(kGrouped, "xs=list[float32[?]], ys=list[float32[?]], TILE=128");
  std::vector<ir::Function> specs;
  specs.push_back(std::move(fn));
  EmittedFiles out = emit_cuda(specs, EmitOptions{});
  // __global__: pointer to the packed 64-bit table and an int32 length per list.
  EXPECT_NE(out.cu.find("const int64_t* xs_table, int32_t xs_size"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("const auto x = xs[g];"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("g < xs.size"), std::string::npos) << out.cu;
  // Typed launcher takes lists of views; the C entry takes per-list host word tables.
  EXPECT_NE(out.cuh.find("const tile2cu::ArrayViewList<const float, 1>& xs"), std::string::npos) << out.cuh;
  EXPECT_NE(out.cuh.find("const tile2cu::ArrayViewList<float, 1>& ys"), std::string::npos) << out.cuh;
  EXPECT_NE(out.cuh.find("const int64_t* xs_words, int32_t xs_count"), std::string::npos) << out.cuh;
  // Both lists' tables go back to back into one upload; each kernel argument points at its part.
  EXPECT_NE(out.cu.find("pack_array_list<int32_t>(xs, tile2cu::ArrayFacts<1>{{-1}, false, false}, list_words)"),
            std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("pack_array_list<int32_t>(ys, tile2cu::ArrayFacts<1>{{-1}, false, false}, list_words)"),
            std::string::npos) << out.cu;
  EXPECT_EQ(out.cu.find("DeviceTable", out.cu.find("DeviceTable") + 1), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("list_table.data() + ys_at"), std::string::npos) << out.cu;
}

TEST(ListParams, Errors) {
  const char* sig = "xs=list[float32[?]], ys=list[float32[?]], TILE=128";
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(xs, ys, TILE: ct.Constant[int]):\n"
                      "    t = ct.load(xs, index=(0,), shape=(TILE,))\n",
                      sig, ErrorKind::Type, "Expected an array, but given value is List[Array[float32,1-d]]");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(xs, ys, TILE: ct.Constant[int]):\n"
                      "    x = xs[0.5]\n",
                      sig, ErrorKind::Type, "a list of arrays is indexed by an integer scalar, got float constant");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(xs, ys, TILE: ct.Constant[int]):\n"
                      "    x = xs[1:]\n",
                      sig, ErrorKind::Type, "a list of arrays can be indexed, not sliced");
  EXPECT_KERNEL_ERROR("@ct.kernel\ndef k(xs, ys, TILE: ct.Constant[int]):\n"
                      "    x = xs[-1]\n",
                      sig, ErrorKind::Type, "negative indices are not supported");
}

}  // namespace
}  // namespace tile2cu
