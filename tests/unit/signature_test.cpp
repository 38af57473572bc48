// Kernel signatures in text form (--sig and sidecar files): arrays, scalars, constants,
// the `name = kernel(...)` form, and errors that point at the offending column.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

const ArrayConstraint& array_of(const ParameterConstraint& p) {
  const auto* a = std::get_if<ArrayConstraint>(&p.constraint);
  if (!a) throw std::runtime_error("not an array constraint: " + constraint_string(p));
  return *a;
}

const ScalarConstraint& scalar_of(const ParameterConstraint& p) {
  const auto* s = std::get_if<ScalarConstraint>(&p.constraint);
  if (!s) throw std::runtime_error("not a scalar constraint: " + constraint_string(p));
  return *s;
}

const ConstantLiteral& constant_of(const ParameterConstraint& p) {
  const auto* c = std::get_if<ConstantConstraint>(&p.constraint);
  if (!c) throw std::runtime_error("not a constant constraint: " + constraint_string(p));
  return c->value;
}

struct Failure {
  ErrorKind kind = ErrorKind::Usage;
  std::string message;
  SourceRange range;
  std::string path;
  std::string rendered;
  bool thrown = false;
};

template <class F>
Failure failure_of(F&& f) {
  Failure out;
  try {
    f();
  } catch (const CompileError& e) {
    out.thrown = true;
    out.kind = e.kind();
    out.message = e.message();
    if (!e.frames().empty()) {
      out.range = e.frames().front().range;
      if (e.frames().front().file) out.path = e.frames().front().file->path();
    }
    out.rendered = render_diagnostic(e);
  }
  return out;
}

Failure sig_failure(const std::string& text) {
  Failure f = failure_of([&] { parse_signature(text, "--sig"); });
  EXPECT_TRUE(f.thrown) << "expected a CompileError for: " << text;
  return f;
}

// ---- arrays -----------------------------------------------------------------------------------

TEST(Signature, ArrayWithDynamicAndStaticDims) {
  KernelSignature s = parse_signature("x=float32[?, 128, ?]", "--sig");
  ASSERT_EQ(s.params.size(), 1u);
  EXPECT_EQ(s.params[0].name, "x");
  const ArrayConstraint& a = array_of(s.params[0]);
  EXPECT_EQ(a.dtype, DType::Float32);
  ASSERT_EQ(a.dims.size(), 3u);
  EXPECT_FALSE(a.dims[0].has_value());
  EXPECT_EQ(a.dims[1], 128);
  EXPECT_FALSE(a.dims[2].has_value());
  EXPECT_FALSE(a.aligned16);
  EXPECT_FALSE(a.contiguous);
}

TEST(Signature, ArrayFlags) {
  KernelSignature s = parse_signature("a=f16[?] align16 contiguous, b=bf16[4, ?] contiguous, c=int8[?] align16", "--sig");
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_TRUE(array_of(s.params[0]).aligned16);
  EXPECT_TRUE(array_of(s.params[0]).contiguous);
  EXPECT_EQ(array_of(s.params[0]).dtype, DType::Float16);
  EXPECT_FALSE(array_of(s.params[1]).aligned16);
  EXPECT_TRUE(array_of(s.params[1]).contiguous);
  EXPECT_EQ(array_of(s.params[1]).dtype, DType::BFloat16);
  EXPECT_TRUE(array_of(s.params[2]).aligned16);
  EXPECT_FALSE(array_of(s.params[2]).contiguous);
  // Flags in the other order mean the same.
  KernelSignature t = parse_signature("a=f32[?] contiguous align16", "--sig");
  EXPECT_TRUE(array_of(t.params[0]).aligned16);
  EXPECT_TRUE(array_of(t.params[0]).contiguous);
}

TEST(Signature, ZeroDimensionalArray) {
  KernelSignature s = parse_signature("x=int64[]", "--sig");
  EXPECT_EQ(array_of(s.params[0]).dims.size(), 0u);
  EXPECT_EQ(array_of(s.params[0]).dtype, DType::Int64);
}

TEST(Signature, WhitespaceIsInsignificant) {
  KernelSignature s = parse_signature("  x =  float32 [ ? ,  8 ]  ,TILE= 64 ", "--sig");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(constraint_string(s.params[0]), "x=float32[?, 8]");
  EXPECT_EQ(constraint_string(s.params[1]), "TILE=64");
}

// ---- scalars ----------------------------------------------------------------------------------

TEST(Signature, Scalars) {
  KernelSignature s = parse_signature("n=int32, eps=float32, flag=bool, w=uint64, h=half", "--sig");
  ASSERT_EQ(s.params.size(), 5u);
  EXPECT_EQ(scalar_of(s.params[0]).dtype, DType::Int32);
  EXPECT_EQ(scalar_of(s.params[1]).dtype, DType::Float32);
  EXPECT_EQ(scalar_of(s.params[2]).dtype, DType::Bool);
  EXPECT_EQ(scalar_of(s.params[3]).dtype, DType::UInt64);
  EXPECT_EQ(scalar_of(s.params[4]).dtype, DType::Float16);
}

// ---- constants --------------------------------------------------------------------------------

TEST(Signature, IntegerConstants) {
  KernelSignature s = parse_signature("A=1024, B=-3, C=0, D=+7", "--sig");
  ASSERT_EQ(s.params.size(), 4u);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[0]).value), 1024);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[1]).value), -3);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[2]).value), 0);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[3]).value), 7);
}

TEST(Signature, BigIntegerConstantIsExact) {
  KernelSignature s = parse_signature("N=9223372036854775807, M=-9223372036854775808", "--sig");
  EXPECT_TRUE(std::get<__int128>(constant_of(s.params[0]).value) == INT64_MAX);
  EXPECT_TRUE(std::get<__int128>(constant_of(s.params[1]).value) == INT64_MIN);
}

// Numbers are read as int64 or uint64 (issue 28: 2^64 + 1024 used to wrap to 1024), refused at
// the digits.
TEST(Signature, IntegerPastUInt64IsALocatedError) {
  Failure f = sig_failure("a=float32[?], N=18446744073709551616");
  EXPECT_NE(f.message.find("integer out of range of int64 and uint64"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.col, 17);
}

// cuTile types an integer constant in [2**63, 2**64) uint64 (test_typeof_constant_int_arg).
TEST(Signature, ConstantInUInt64RangeIsExact) {
  KernelSignature s = parse_signature("N=9223372036854775808, M=18446744073709551615", "--sig");
  EXPECT_TRUE(std::get<__int128>(constant_of(s.params[0]).value) == static_cast<__int128>(INT64_MAX) + 1);
  EXPECT_TRUE(std::get<__int128>(constant_of(s.params[1]).value) == static_cast<__int128>(UINT64_MAX));
}

// A uint64 number is no shape: array dims stay int64.
TEST(Signature, ArrayDimPastInt64IsALocatedError) {
  Failure f = sig_failure("a=float32[9223372036854775808]");
  EXPECT_NE(f.message.find("integer out of range of int64"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.col, 11);
}

TEST(Signature, FloatConstants) {
  KernelSignature s = parse_signature("a=0.5, b=-2.25, c=1e-5, d=3.0, e=.5, f=2E3", "--sig");
  ASSERT_EQ(s.params.size(), 6u);
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[0]).value), 0.5);
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[1]).value), -2.25);
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[2]).value), 1e-5);
  // 3.0 is a float, not the int 3: the kernel sees a loosely typed float.
  ASSERT_TRUE(std::holds_alternative<double>(constant_of(s.params[3]).value));
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[3]).value), 3.0);
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[4]).value), 0.5);
  EXPECT_DOUBLE_EQ(std::get<double>(constant_of(s.params[5]).value), 2000.0);
}

TEST(Signature, BoolConstants) {
  KernelSignature s = parse_signature("CAUSAL=True, SWISH=False", "--sig");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(std::get<bool>(constant_of(s.params[0]).value), true);
  EXPECT_EQ(std::get<bool>(constant_of(s.params[1]).value), false);
}

TEST(Signature, TupleConstants) {
  KernelSignature s = parse_signature("SHAPE=(64, 128), ONE=(5,), EMPTY=(), NEST=((1, 2), -0.5, True)", "--sig");
  ASSERT_EQ(s.params.size(), 4u);
  const auto& shape = std::get<std::vector<ConstantLiteral>>(constant_of(s.params[0]).value);
  ASSERT_EQ(shape.size(), 2u);
  EXPECT_EQ(std::get<__int128>(shape[0].value), 64);
  EXPECT_EQ(std::get<__int128>(shape[1].value), 128);
  const auto& one = std::get<std::vector<ConstantLiteral>>(constant_of(s.params[1]).value);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(std::get<__int128>(one[0].value), 5);
  EXPECT_TRUE(std::get<std::vector<ConstantLiteral>>(constant_of(s.params[2]).value).empty());
  const auto& nest = std::get<std::vector<ConstantLiteral>>(constant_of(s.params[3]).value);
  ASSERT_EQ(nest.size(), 3u);
  EXPECT_EQ(std::get<std::vector<ConstantLiteral>>(nest[0].value).size(), 2u);
  EXPECT_DOUBLE_EQ(std::get<double>(nest[1].value), -0.5);
  EXPECT_EQ(std::get<bool>(nest[2].value), true);

  EXPECT_EQ(constraint_string(s.params[0]), "SHAPE=(64, 128)");
  EXPECT_EQ(constraint_string(s.params[1]), "ONE=(5,)");  // Python's one-tuple spelling
  EXPECT_EQ(constraint_string(s.params[2]), "EMPTY=()");
}

// ---- positional and named ---------------------------------------------------------------------

TEST(Signature, PositionalAndNamed) {
  KernelSignature s = parse_signature("float32[?], int32, 256, TILE=64", "--sig");
  ASSERT_EQ(s.params.size(), 4u);
  EXPECT_EQ(s.params[0].name, "");
  EXPECT_EQ(s.params[1].name, "");
  EXPECT_EQ(s.params[2].name, "");
  EXPECT_EQ(s.params[3].name, "TILE");
  EXPECT_EQ(array_of(s.params[0]).dtype, DType::Float32);
  EXPECT_EQ(scalar_of(s.params[1]).dtype, DType::Int32);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[2]).value), 256);
  EXPECT_TRUE(s.spec_name.empty());
  EXPECT_TRUE(s.kernel.empty());
  EXPECT_EQ(constraint_string(s.params[0]), "float32[?]");
}

TEST(Signature, KeepsTheTextAsWritten) {
  const std::string text = "a=float32[?],  TILE=1024";
  EXPECT_EQ(parse_signature(text, "--sig").text, text);
}

TEST(Signature, EmptyParameterList) {
  EXPECT_TRUE(parse_signature("", "--sig").params.empty());
  KernelSignature s = parse_signature("k()", "--sig");
  EXPECT_EQ(s.kernel, "k");
  EXPECT_TRUE(s.params.empty());
}

// ---- name = kernel(...) ---------------------------------------------------------------------

TEST(Signature, NamedSpecializationOfAKernel) {
  KernelSignature s = parse_signature("gelu_f16 = gelu(x=float16[?], y=float16[?], TILE=2048)", "--sig");
  EXPECT_EQ(s.spec_name, "gelu_f16");
  EXPECT_EQ(s.kernel, "gelu");
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.params[0].name, "x");
  EXPECT_EQ(array_of(s.params[1]).dtype, DType::Float16);
  EXPECT_EQ(std::get<__int128>(constant_of(s.params[2]).value), 2048);
}

TEST(Signature, KernelCallWithoutSpecName) {
  KernelSignature s = parse_signature("vector_add(float32[?], float32[?], float32[?], 1024)", "--sig");
  EXPECT_EQ(s.spec_name, "");
  EXPECT_EQ(s.kernel, "vector_add");
  EXPECT_EQ(s.params.size(), 4u);
}

TEST(Signature, TrailingCommaInsideTheCall) {
  KernelSignature s = parse_signature("k2 = k(a=int32[?], N=3,)", "--sig");
  EXPECT_EQ(s.spec_name, "k2");
  EXPECT_EQ(s.kernel, "k");
  EXPECT_EQ(s.params.size(), 2u);
}

TEST(Signature, FirstParameterNamedLikeADtypeIsNotASpecName) {
  // "a=float32[?]" must not be read as spec 'a' of kernel 'float32'.
  KernelSignature s = parse_signature("a=float32[?], b=int32", "--sig");
  EXPECT_EQ(s.spec_name, "");
  EXPECT_EQ(s.kernel, "");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].name, "a");
}

// ---- round trip -------------------------------------------------------------------------------

// constraint_string is what the generated code and the IR print as the signature; reading it
// back must give the same constraint (an int constant must stay an int, a float a float).
TEST(Signature, ConstraintStringRoundTrips) {
  const char* cases[] = {
      "x=float32[?, 64] align16 contiguous", "n=int64", "T=1024", "B=-3", "S=0.5", "F=1.0",
      "E=1e-05", "C=True", "SH=(64, 128)", "ONE=(5,)", "N=9223372036854775807",
      "NEG=(-1, 2.5, False)",
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    KernelSignature s = parse_signature(text, "--sig");
    ASSERT_EQ(s.params.size(), 1u);
    std::string printed = constraint_string(s.params[0]);
    KernelSignature again = parse_signature(printed, "--sig");
    ASSERT_EQ(again.params.size(), 1u);
    EXPECT_EQ(constraint_string(again.params[0]), printed);
    EXPECT_EQ(s.params[0].constraint.index(), again.params[0].constraint.index());
    if (auto* c = std::get_if<ConstantConstraint>(&s.params[0].constraint)) {
      const auto& d = std::get<ConstantConstraint>(again.params[0].constraint);
      EXPECT_EQ(c->value.value.index(), d.value.value.index()) << "printed as " << printed;
    }
  }
  EXPECT_EQ(constraint_string(parse_signature("F=1.0", "--sig").params[0]), "F=1.0");
  EXPECT_EQ(constraint_string(parse_signature("N=-9223372036854775808", "--sig").params[0]),
            "N=-9223372036854775808");
}

TEST(Signature, DefaultSpecNamesDistinguishIntAndFloatConstants) {
  KernelSignature as_int = parse_signature("k(x=float32[?], S=1)", "--sig");
  KernelSignature as_float = parse_signature("k(x=float32[?], S=1.0)", "--sig");
  EXPECT_NE(sema::default_spec_name("k", as_int), sema::default_spec_name("k", as_float));
  KernelSignature neg = parse_signature("k(x=float32[?], S=-1)", "--sig");
  EXPECT_NE(sema::default_spec_name("k", as_int), sema::default_spec_name("k", neg));
  // A default name is a C identifier.
  for (const KernelSignature* s : {&as_int, &as_float, &neg}) {
    std::string name = sema::default_spec_name("k", *s);
    for (char c : name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_') << name;
  }
  EXPECT_EQ(sema::default_spec_name("k", parse_signature("x=float32[?], n=int32", "--sig")), "k_f32_i32");
}

// ---- sidecar files ----------------------------------------------------------------------------

TEST(SignatureFile, CommentsAndBlankLines) {
  const std::string text =
      "# vector_add(a, b, c, TILE)\n"
      "\n"
      "add_f32 = vector_add(a=float32[?], b=float32[?], c=float32[?], TILE=1024)  # fast path\n"
      "   \n"
      "\t# indented comment\n"
      "vector_add(a=float16[?], b=float16[?], c=float16[?], TILE=2048)\r\n"
      "a=int32[?], b=int32[?], c=int32[?], TILE=256";  // no final newline
  std::vector<KernelSignature> sigs = parse_signature_file(text, "vector_add.sigs");
  ASSERT_EQ(sigs.size(), 3u);
  EXPECT_EQ(sigs[0].spec_name, "add_f32");
  EXPECT_EQ(sigs[0].kernel, "vector_add");
  EXPECT_EQ(sigs[0].params.size(), 4u);
  EXPECT_EQ(sigs[1].spec_name, "");
  EXPECT_EQ(sigs[1].kernel, "vector_add");
  EXPECT_EQ(array_of(sigs[1].params[0]).dtype, DType::Float16);
  EXPECT_EQ(sigs[2].kernel, "");
  EXPECT_EQ(std::get<__int128>(constant_of(sigs[2].params[3]).value), 256);
}

TEST(SignatureFile, EmptyFile) {
  EXPECT_TRUE(parse_signature_file("", "x.sigs").empty());
  EXPECT_TRUE(parse_signature_file("# only a comment\n\n", "x.sigs").empty());
}

TEST(SignatureFile, ErrorPointsAtTheLineAndColumnInTheFile) {
  const std::string text =
      "# header\n"
      "\n"
      "k(a=float32[?])\n"
      "k(a=floot32[?])\n";
  Failure f = failure_of([&] { parse_signature_file(text, "kern.sigs"); });
  ASSERT_TRUE(f.thrown);
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_EQ(f.range.line, 4);
  EXPECT_EQ(f.range.col, 5);  // the 'f' of floot32
  EXPECT_EQ(f.path, "kern.sigs");
  EXPECT_NE(f.message.find("floot32"), std::string::npos) << f.message;
  EXPECT_NE(f.rendered.find("kern.sigs:4:5"), std::string::npos) << f.rendered;
  EXPECT_NE(f.rendered.find("k(a=floot32[?])"), std::string::npos) << f.rendered;
}

// ---- malformed input --------------------------------------------------------------------------

TEST(SignatureErrors, UnknownDtype) {
  Failure f = sig_failure("x=float32[?], y=floot32[?]");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_NE(f.message.find("unknown dtype 'floot32'"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.line, 1);
  EXPECT_EQ(f.range.col, 17);
  EXPECT_EQ(f.path, "--sig");
  Failure g = sig_failure("n=integer");
  EXPECT_EQ(g.kind, ErrorKind::Signature);
  EXPECT_EQ(g.range.col, 3);
}

TEST(SignatureErrors, MissingClosingBracket) {
  Failure f = sig_failure("x=float32[?, 4");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_NE(f.message.find("]"), std::string::npos) << f.message;
  EXPECT_EQ(f.range.col, 15);  // just past the end
  Failure g = sig_failure("x=float32[? y=int32");
  EXPECT_EQ(g.kind, ErrorKind::Signature);
  EXPECT_EQ(g.range.col, 13);  // at 'y'
}

TEST(SignatureErrors, BadDimension) {
  Failure zero = sig_failure("x=float32[0]");
  EXPECT_EQ(zero.kind, ErrorKind::Signature);
  EXPECT_EQ(zero.range.col, 11);
  EXPECT_NE(zero.message.find("dimension"), std::string::npos) << zero.message;
  Failure neg = sig_failure("x=float32[?, -4]");
  EXPECT_EQ(neg.kind, ErrorKind::Signature);
  EXPECT_EQ(neg.range.col, 14);
  Failure frac = sig_failure("x=float32[2.5]");
  EXPECT_EQ(frac.kind, ErrorKind::Signature);
  EXPECT_EQ(frac.range.col, 11);
  Failure word = sig_failure("x=float32[n]");
  EXPECT_EQ(word.kind, ErrorKind::Signature);
  EXPECT_EQ(word.range.col, 11);
}

TEST(SignatureErrors, RankAboveFive) {
  Failure f = sig_failure("x=float32[?, ?, ?, ?, ?, ?]");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_NE(f.message.find("rank"), std::string::npos) << f.message;
}

TEST(SignatureErrors, MissingCloseParen) {
  Failure f = sig_failure("k(a=float32[?]");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_EQ(f.range.col, 15);
  EXPECT_NE(f.message.find(")"), std::string::npos) << f.message;
}

TEST(Signature, TupleParameters) {
  // A tuple with an array or scalar in it (at any depth) is a tuple parameter; constants alone
  // make a constant.
  KernelSignature s = parse_signature("io=(float32[?, ?], list[int8[?]]), nest=(int32, (float16[4] align16,)), c=(1, (2,))", "--sig");
  ASSERT_EQ(s.params.size(), 3u);
  const auto* io = std::get_if<TupleConstraint>(&s.params[0].constraint);
  ASSERT_NE(io, nullptr);
  ASSERT_EQ(io->items.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<ArrayConstraint>(io->items[0].constraint));
  EXPECT_TRUE(std::holds_alternative<ListConstraint>(io->items[1].constraint));
  const auto* nest = std::get_if<TupleConstraint>(&s.params[1].constraint);
  ASSERT_NE(nest, nullptr);
  EXPECT_TRUE(std::holds_alternative<ScalarConstraint>(nest->items[0].constraint));
  EXPECT_TRUE(std::holds_alternative<TupleConstraint>(nest->items[1].constraint));
  EXPECT_TRUE(std::holds_alternative<ConstantConstraint>(s.params[2].constraint));
  EXPECT_EQ(constraint_string(s.params[0]), "io=(float32[?, ?], list[int8[?]])");
  EXPECT_EQ(constraint_string(s.params[1]), "nest=(int32, (float16[4] align16,))");
  EXPECT_EQ(constraint_string(s.params[2]), "c=(1, (2,))");
}

TEST(SignatureErrors, TrailingGarbage) {
  Failure f = sig_failure("k(a=float32[?]) extra");
  EXPECT_EQ(f.kind, ErrorKind::Signature);
  EXPECT_EQ(f.range.col, 17);
  Failure g = sig_failure("x=float32[?] align32");
  EXPECT_EQ(g.kind, ErrorKind::Signature);
  EXPECT_EQ(g.range.col, 14);  // the unknown flag
}

TEST(SignatureErrors, BadConstants) {
  Failure unterminated = sig_failure("S=(64, 128");
  EXPECT_EQ(unterminated.kind, ErrorKind::Signature);
  EXPECT_EQ(unterminated.range.col, 11);
  Failure lone_minus = sig_failure("S=-");
  EXPECT_EQ(lone_minus.kind, ErrorKind::Signature);
  EXPECT_EQ(lone_minus.range.col, 3);
  Failure missing = sig_failure("S=");
  EXPECT_EQ(missing.kind, ErrorKind::Signature);
  EXPECT_EQ(missing.range.col, 3);
  Failure huge = sig_failure("S=1000000000000000000000000000000000000000000");
  EXPECT_EQ(huge.kind, ErrorKind::Signature);
  EXPECT_EQ(huge.range.col, 3);
}

TEST(SignatureErrors, RenderedWithCaret) {
  Failure f = sig_failure("x=float32[?], y=floot32[?]");
  EXPECT_NE(f.rendered.find("--sig:1:17: error[SignatureError]"), std::string::npos) << f.rendered;
  EXPECT_NE(f.rendered.find("x=float32[?], y=floot32[?]\n"), std::string::npos) << f.rendered;
  EXPECT_NE(f.rendered.find("\n                    ^"), std::string::npos) << f.rendered;
}


TEST(Signature, DeepNestingIsALocatedErrorNotACrash) {
  // 30,000 nested parentheses overflowed the stack of the recursive-descent parser.
  for (std::string open : {"(", "list["}) {
    std::string text = "a=";
    for (int i = 0; i < 30000; ++i) text += open;
    Failure f = sig_failure(text + "float32[?]");
    EXPECT_EQ(f.kind, ErrorKind::Signature);
    EXPECT_EQ(f.message, "nesting too deep (more than 100 levels of tuples and lists)");
    EXPECT_EQ(f.range.col, 3 + 100 * int(open.size()));  // at the first level too many
  }
  Failure c = sig_failure("X=" + std::string(30000, '(') + "1");  // a constant tuple
  EXPECT_EQ(c.message, "nesting too deep (more than 100 levels of tuples and lists)");
  std::string ok = "a=" + std::string(99, '(') + "float32[?]" + std::string(99, ')');
  EXPECT_NO_THROW(parse_signature(ok, "--sig"));
}

}  // namespace
}  // namespace tile2cu
