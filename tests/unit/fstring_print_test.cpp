// f-strings (spec a.5, c.12): values of print, whose replacement fields become printf
// conversions chosen by dtype or by their literal format spec; constant fields are printed at
// compile time as printf would print them; cuTile's rejections keep its error classes.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

std::string kernel(const std::string& lines) {
  return "@ct.kernel\n"
         "def k(x, y, n: int, TILE: ct.Constant[int]):\n"
         "    bid = ct.bid(0)\n"
         "    t = ct.load(x, index=(bid,), shape=(TILE,))\n" + lines +
         "    ct.store(y, index=(bid,), tile=t)\n";
}
const char* kSig = "x=float32[?], y=float32[?], n=int64, TILE=4";

std::vector<std::string> printed(const std::string& lines) {
  ir::Function fn = compile_kernel(kernel(lines), kSig);
  auto prints = ops_of_kind(fn, ir::OpKind::Print);
  if (prints.size() != 1) return {"<" + std::to_string(prints.size()) + " prints>"};
  return prints[0]->text;
}

TEST(FStringPrint, FieldsBecomeConversionsByDtype) {
  EXPECT_EQ(printed("    print(f'block {bid} of {n}: {t}')\n"),
            (std::vector<std::string>{"block ", "%d", " of ", "%lld", ": ", "%f", "\n"}));
  EXPECT_EQ(printed("    ct.print(f'{t.astype(ct.uint64)}', f'{bid > 0}', sep='|')\n"),
            (std::vector<std::string>{"", "%llu", "|", "%d", "\n"}));
}

TEST(FStringPrint, LiteralSpecsBecomePrintfFlags) {
  EXPECT_EQ(printed("    print(f'{t:>8.3f}|{bid:<5}|{bid:+05d}|{n:#x}|{t:e}')\n"),
            (std::vector<std::string>{"", "%8.3f", "|", "%-5d", "|", "%+05d", "|", "%#llx", "|", "%e", "\n"}));
}

TEST(FStringPrint, ConstantsAreFoldedAsPrintfWouldPrintThem) {
  // A constant field prints as cuTile's printf of it: ints %d, floats %f (as float32), bools %d.
  EXPECT_EQ(printed("    print(f'TILE={TILE:03d} {2.5} {True} {TILE:x} 100%')\n"),
            (std::vector<std::string>{"TILE=004 2.500000 1 4 100%%\n"}));
  // Strings, tuples and dtypes are str()-ed; tuples may hold run-time values.
  EXPECT_EQ(printed("    print(f\"{'s'} {(bid, TILE)} {x.dtype} {(1,)}\")\n"),
            (std::vector<std::string>{"s (", "%d", ", 4) float32 (1,)\n"}));
}

TEST(FStringPrint, FStringsAreValuesThatJoinWithStrings) {
  EXPECT_EQ(printed("    msg = f'b={bid}'\n    print(msg + '!', end=f' of {n}\\n')\n"),
            (std::vector<std::string>{"b=", "%d", "! of ", "%lld", "\n"}));
  EXPECT_EQ(printed("    print(f'[{f\"{bid}\"}]')\n"), (std::vector<std::string>{"[", "%d", "]\n"}));
  // An f-string is no constant string, even with only constants in it (as in cuTile).
  EXPECT_KERNEL_ERROR(kernel("    ct.assert_(bid >= 0, f'{TILE}')\n"), kSig, ErrorKind::Type,
                      "the message must be a constant string");
}

TEST(FStringPrint, RejectionsKeepCuTilesClasses) {
  EXPECT_KERNEL_ERROR(kernel("    print(f'{bid!r}')\n"), kSig, ErrorKind::Syntax,
                      "f-string: !r, !s, !a conversions are not supported");
  EXPECT_KERNEL_ERROR(kernel("    print(f'{bid=}')\n"), kSig, ErrorKind::Syntax,
                      "f-string: !r, !s, !a conversions are not supported");
  EXPECT_KERNEL_ERROR(kernel("    w = 4\n    print(f'{bid:{w}}')\n"), kSig, ErrorKind::Syntax,
                      "f-string: format spec must be a literal string");
  // Syntax is checked for the whole function, dead branches included.
  EXPECT_KERNEL_ERROR(kernel("    if False:\n        print(f'{bid!s}')\n"), kSig, ErrorKind::Syntax,
                      "conversions are not supported");
  EXPECT_KERNEL_ERROR(kernel("    print(f'{bid:.3f}')\n"), kSig, ErrorKind::Type,
                      "print(): format spec '.3f' is incompatible with dtype int32");
  EXPECT_KERNEL_ERROR(kernel("    print(f'{t:d}')\n"), kSig, ErrorKind::Type,
                      "print(): format spec 'd' is incompatible with dtype float32");
  EXPECT_KERNEL_ERROR(kernel("    print(f'{bid:*>5}')\n"), kSig, ErrorKind::Value,
                      "print(): unsupported format spec '*>5'");
  EXPECT_KERNEL_ERROR(kernel("    print(f'{(bid, 1):d}')\n"), kSig, ErrorKind::Type,
                      "f-string: cannot apply format spec to a value of type tuple");
}

// An array in an f-string is its compile-time text, as cuTile's proxy prints it (83157ed).
TEST(FStringPrint, ArrayIsItsProxyText) {
  EXPECT_EQ(printed("    print(f'x is {x}')\n"), (std::vector<std::string>{"x is <array[float32, (?,)]>\n"}));
}

}  // namespace
}  // namespace tile2cu
