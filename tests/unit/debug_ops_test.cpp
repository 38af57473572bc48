// ct.print / print / ct.printf / ct.assert_ (spec c.12): one line per block from one thread,
// conversions chosen by dtype, collectives computed by every thread before the print.
#include "emit/cuda_emitter.hpp"
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

std::string kernel(const std::string& lines) {
  return "@ct.kernel\n"
         "def k(x, y, n: int, TILE: ct.Constant[int]):\n"
         "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n" + lines +
         "    ct.store(y, index=(ct.bid(0),), tile=t)\n";
}
const char* kSig = "x=float32[?], y=float32[?], n=int64, TILE=4";

std::string emitted(const std::string& body) {
  std::vector<ir::Function> specs;
  specs.push_back(compile_kernel(body, kSig));
  return emit_cuda(specs, EmitOptions{}).cu;
}

TEST(DebugOps, PrintBuildsOneFormatPerCall) {
  ir::Function fn = compile_kernel(kernel("    print('n =', n, 'of', 3, sep=' ', end='!\\n')\n"
                                          "    ct.print('100%', t)\n"),
                                   kSig);
  auto prints = ops_of_kind(fn, ir::OpKind::Print);
  ASSERT_EQ(prints.size(), 2u);
  EXPECT_EQ(prints[0]->text, (std::vector<std::string>{"n = ", "%lld", " of 3!\n"}));
  EXPECT_EQ(prints[1]->text, (std::vector<std::string>{"100%% ", "%f", "\n"}));
}

TEST(DebugOps, PrintfChecksSpecifiersAgainstDtypes) {
  ir::Function fn = compile_kernel(kernel("    ct.printf('%5.2f|%x|%%\\n', ct.sum(t), n)\n"), kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Print)[0]->text,
            (std::vector<std::string>{"", "%5.2f", "|", "%llx", "|%%\n"}));
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%d', t)\n"), kSig, ErrorKind::Type, "Format %d for arg #0 got unexpected type of Tile[float32,(4)]");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%f %f', t)\n"), kSig, ErrorKind::Type, "Not enough arguments for format string");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%f', t, n)\n"), kSig, ErrorKind::Type, "Too many arguments for format string");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%s', t)\n"), kSig, ErrorKind::Type, "Specifier s in %s is not supported");
}

// cuTile's test_printf_format: a restricted float (tfloat32, fp8) may be a typed constant,
// made from the float rounded by the type's own constructor (an fp8 one given an integer
// would take 3, not 3.14), and it prints through a float conversion.
TEST(DebugOps, PrintfTakesRestrictedFloatConstants) {
  const std::string cu = emitted(kernel("    ct.printf('%f', ct.tfloat32(3.14))\n"
                                        "    ct.printf('%f', ct.float8_e5m2(3.14))\n"
                                        "    ct.printf('%f', ct.float8_e4m3fn(3.14))\n"));
  EXPECT_NE(cu.find("convert<tfloat32>(3.14f)"), std::string::npos) << cu;
  EXPECT_NE(cu.find("__nv_fp8_e5m2(3.14f)"), std::string::npos) << cu;
  EXPECT_NE(cu.find("__nv_fp8_e4m3(3.14f)"), std::string::npos) << cu;
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%d', ct.tfloat32(3.14))\n"), kSig, ErrorKind::Type,
                      "Format %d for arg #0 got unexpected type of");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%f', ct.tfloat32(3.14) + 1)\n"), kSig, ErrorKind::Type, "");
}

TEST(DebugOps, PrintfPrintsPythonConstantsWithTheirDefaultDtype) {
  // cuTile's test_printf_format: an int constant prints as int32, a float one as float32.
  ir::Function fn = compile_kernel(kernel("    ct.printf('%d %u %f|%010d', -1, 123, 3.14, 1977)\n"), kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Print)[0]->text,
            (std::vector<std::string>{"", "%d", " ", "%u", " ", "%f", "|", "%010d", ""}));
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%f', 1)\n"), kSig, ErrorKind::Type,
                      "Format %f for arg #0 got unexpected type of Tile[int32,()]");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%%%+3', 1)\n"), kSig, ErrorKind::Type, "Invalid format string");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%!')\n"), kSig, ErrorKind::Type, "Invalid format string");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf('%c', 1)\n"), kSig, ErrorKind::Type, "Specifier c in %c is not supported");
  EXPECT_KERNEL_ERROR(kernel("    ct.printf(t)\n"), kSig, ErrorKind::Type,
                      "Invalid argument \"format\" of printf(): Expected a string constant, but given value is not constant");
}

TEST(DebugOps, OneThreadPrintsAfterEveryThreadComputed) {
  std::string cu = emitted(kernel("    ct.print('sum', ct.sum(t), 'tile', t)\n"));
  // The reduction runs in all threads, the tile is staged, then thread 0 makes one printf call.
  size_t reduce = cu.find("const auto printed_value0 = reduce_sum<Axes<0>>(t, smem);");
  size_t stage = cu.find("stage(t, smem + 0)");
  size_t print = cu.find("if (threadIdx.x == 0) print_line(\"sum %f tile [%f, %f, %f, %f]\\n\"");
  EXPECT_NE(reduce, std::string::npos) << cu;
  EXPECT_NE(stage, std::string::npos) << cu;
  EXPECT_NE(print, std::string::npos) << cu;
  EXPECT_LT(reduce, stage);
  EXPECT_LT(stage, print);
}

TEST(DebugOps, AssertOncePerBlockWithItsMessage) {
  ir::Function fn = compile_kernel(kernel("    ct.assert_(t > 0, 'positive only')\n"), kSig);
  const ir::Op* a = ops_of_kind(fn, ir::OpKind::Assert).at(0);
  EXPECT_EQ(a->text.at(0), "k.py:7: assertion failed: positive only");
  std::string cu = emitted(kernel("    ct.assert_(t > 0, message='positive only')\n"));
  EXPECT_NE(cu.find("assert_all(t > 0.0f, \"k.py:7: assertion failed: positive only\");"), std::string::npos) << cu;
  EXPECT_KERNEL_ERROR(kernel("    ct.assert_(t, 'x')\n"), kSig, ErrorKind::Type, "expects a bool tile or scalar");
  EXPECT_KERNEL_ERROR(kernel("    ct.assert_(t > 0, n)\n"), kSig, ErrorKind::Type, "the message must be a constant string");
}

}  // namespace
}  // namespace tile2cu
