// Tuple kernel parameters (cuTile 1.5 and later, spec a.3, h.17): a tuple of arrays, scalars,
// lists and tuples is a tuple in the kernel, and each leaf is a parameter of the generated kernel
// and launcher, named after the tuple and its place.
#include "emit/cuda_emitter.hpp"
#include "nvcc_compile.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::compile_kernel_failure;

const char* kPairs =
    "@ct.kernel\n"
    "def k(io, scale, TILE: ct.Constant[int]):\n"
    "    src, (dst, spare) = io\n"
    "    factor, bias = scale\n"
    "    t = ct.load(src, index=(ct.bid(0),), shape=(TILE,))\n"
    "    ct.store(dst, index=(ct.bid(0),), tile=t * factor + bias)\n"
    "    ct.store(spare, index=(ct.bid(0),), tile=t * len(io))\n";

const char* kPairsSig = "io=(float32[?], (float32[?], float32[?])), scale=(float32, float32), TILE=128";

TEST(TupleParams, LeavesAreParametersNamedByPlace) {
  ir::Function fn = compile_kernel(kPairs, kPairsSig);
  ASSERT_EQ(fn.arrays.size(), 3u);
  EXPECT_EQ(fn.arrays[0].name, "io_0");
  EXPECT_EQ(fn.arrays[1].name, "io_1_0");
  EXPECT_EQ(fn.arrays[2].name, "io_1_1");
  EXPECT_FALSE(fn.arrays[0].written);
  EXPECT_TRUE(fn.arrays[1].written);
  ASSERT_EQ(fn.scalars.size(), 2u);
  EXPECT_EQ(fn.scalars[0].name, "scale_0");
  EXPECT_EQ(fn.scalars[1].name, "scale_1");
  EXPECT_EQ(fn.spec_name, "k_t_f32_t_f32_f32_t_f32_f32_128");
  EXPECT_EQ(fn.signature, "io=(float32[?], (float32[?], float32[?])), scale=(float32, float32), TILE=128");
}

TEST(TupleParams, LauncherTakesTheLeavesInOrder) {
  std::vector<ir::Function> specs;
  specs.push_back(compile_kernel(kPairs, kPairsSig));
  EmittedFiles out = emit_cuda(specs, EmitOptions{});
  EXPECT_NE(out.cu.find("float* io_0_data, int32_t io_0_shape_0, int32_t io_0_stride_0,\n"
                        "    float* io_1_0_data"),
            std::string::npos)
      << out.cu;
  EXPECT_NE(out.cu.find("float scale_0,\n    float scale_1)"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("store(io_1_0, {block_x}, t * scale_0 + scale_1, whole_at_launch);"), std::string::npos) << out.cu;
  EXPECT_NE(out.cu.find("t * 2.0f"), std::string::npos) << out.cu;  // len(io) is a constant
  EXPECT_NE(out.cuh.find("tile2cu::ArrayView<const float, 1> io_0,"), std::string::npos) << out.cuh;
}

TEST(TupleParams, GeneratedCudaCompilesWithNvcc) {
  if (!testing::have_nvcc()) GTEST_SKIP() << "no nvcc";
  std::vector<ir::Function> specs;
  specs.push_back(compile_kernel(kPairs, kPairsSig));
  EmitOptions o;
  o.header_name = "tuple_params.cuh";
  EmittedFiles out = emit_cuda(specs, o);
  EXPECT_EQ(testing::nvcc_compile(out.cu, out.cuh, "tuple_params.cuh"), 0) << out.cu;
}

TEST(TupleParams, ConstantItemsAreRefused) {
  auto f = compile_kernel_failure(kPairs, "io=(float32[?], (float32[?], float32[?])), scale=(float32, 0.5), TILE=128");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_NE(f.message.find("tuple parameter 'scale' holds a constant"), std::string::npos) << f.message;
}

}  // namespace
}  // namespace tile2cu
