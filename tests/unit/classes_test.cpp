// Module-level classes in tile code (spec a, the syntax table): enum members are compile-time
// constants, frozen dataclass instances compile-time records of values. Both are decided in
// sema: what reaches the IR is only the arithmetic on their run-time fields.
#include "sema_test_util.hpp"

namespace tile2cu {
namespace {

using testing::compile_kernel;
using testing::ops_of_kind;

const char* kSig = "x=float32[?], y=float32[?], TILE=64";

const char* kEnums =
    "import enum\n"
    "from enum import Enum, auto\n"
    "class Act(Enum):\n"
    "    RELU = 'relu'\n"
    "    EXP = 'exp'\n"
    "    NONE = auto()\n"
    "class Color(enum.Enum):\n"
    "    RED = 1\n"
    "    GREEN = 2\n"
    "    CRIMSON = 1\n"  // an alias of RED
    "    BLUE = auto()\n"
    "class Level(enum.IntEnum):\n"
    "    LOW = 1\n"
    "    HIGH = 4\n"
    "DEFAULT_ACT = Act.EXP\n"
    "def activate(t, act):\n"
    "    if act == Act.RELU:\n"
    "        return ct.maximum(t, 0.0)\n"
    "    elif act == Act.EXP:\n"
    "        return ct.exp(t)\n"
    "    return t\n";

// The module above, then a kernel whose body is `lines` after loading t from x.
std::string enum_kernel(const std::string& lines) {
  return std::string(kEnums) +
         "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n" + lines;
}

TEST(Enums, MembersAreConstantsWithNameAndValue) {
  compile_kernel(enum_kernel("    ct.static_assert(Color.GREEN.name == 'GREEN')\n"
                             "    ct.static_assert(Color.GREEN.value == 2)\n"
                             "    ct.static_assert(Color.CRIMSON == Color.RED)\n"
                             "    ct.static_assert(Color.CRIMSON.name == 'RED')\n"
                             "    ct.static_assert(Color.BLUE.value == 3)\n"
                             "    ct.static_assert(Act.NONE.value == 1)\n"
                             "    ct.static_assert(Color(2) == Color.GREEN)\n"
                             "    ct.static_assert(Color(Color.BLUE) == Color.BLUE)\n"
                             "    ct.static_assert(Color.RED != Act.RELU)\n"
                             "    ct.static_assert(Color.RED in (Color.GREEN, Color.RED))\n"
                             "    ct.static_assert(str(Color.RED) == 'Color.RED')\n"
                             "    ct.static_assert(repr(Act.EXP) == \"<Act.EXP: 'exp'>\")\n"
                             "    ct.static_assert(ct.PaddingMode.ZERO.value == 'zero')\n"
                             "    ct.static_assert(ct.PaddingMode.ZERO != Color.RED)\n"
                             "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
  EXPECT_KERNEL_ERROR(enum_kernel("    ct.static_assert(Color.GREEN.value == 3, Color.GREEN)\n"), kSig,
                      ErrorKind::StaticAssertion, "Static assertion failed: Color.GREEN");
}

TEST(Enums, ComparisonsFoldAndSelectCodeInHelpersAndGlobals) {
  auto count = [](const ir::Function& fn, ir::UnaryKind kind) {
    size_t n = 0;
    for (const ir::Op* op : ops_of_kind(fn, ir::OpKind::Unary)) n += op->unary == kind;
    return n;
  };
  ir::Function fn = compile_kernel(enum_kernel("    mode = (Act.RELU, DEFAULT_ACT)\n"
                                               "    u = activate(t, mode[1])\n"
                                               "    u = activate(u, Act.NONE)\n"
                                               "    if DEFAULT_ACT != Act.EXP:\n"
                                               "        u = u * 2.0\n"
                                               "    ct.store(y, index=(ct.bid(0),), tile=u)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 0u);  // every condition folded
  EXPECT_EQ(count(fn, ir::UnaryKind::Exp), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 0u);  // no maximum, no multiply
}

TEST(Enums, IntEnumMembersAreIntsWithANameToo) {
  ir::Function fn = compile_kernel(enum_kernel("    ct.static_assert(Level.HIGH.name == 'HIGH')\n"
                                               "    ct.static_assert(Level.HIGH == 4 and Level(1) == Level.LOW)\n"
                                               "    ct.static_assert(str(Level.HIGH) == '4')\n"
                                               "    ct.static_assert(Level.LOW != Color.RED)\n"
                                               "    ct.store(y, index=(ct.bid(0),), tile=t * Level.HIGH)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 1u);
}

TEST(Enums, ErrorsAreCuTiles) {
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color(7)\n"), kSig, ErrorKind::Value, "7 is not a valid Color");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Act('gelu')\n"), kSig, ErrorKind::Value, "'gelu' is not a valid Act");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color(ct.bid(0))\n"), kSig, ErrorKind::Type,
                      "Enum constructor argument must be a constant");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color(value=1)\n"), kSig, ErrorKind::Type,
                      "Enum constructor takes exactly one positional argument");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color.RED < Color.BLUE\n"), kSig, ErrorKind::Type,
                      "'<' not supported between instances of 'Color' and 'Color'");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color.RED == 1\n"), kSig, ErrorKind::Type,
                      "Unsupported operand types for ==: <enum constant Color.RED> and int constant 1");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color.PURPLE\n"), kSig, ErrorKind::Type,
                      "'Color' object has no attribute 'PURPLE'");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color.RED.hue\n"), kSig, ErrorKind::Type,
                      "No such attribute 'hue' for object of type <enum constant Color.RED>");
  EXPECT_KERNEL_ERROR(enum_kernel("    c = Color.RED is Color.RED\n"), kSig, ErrorKind::Type,
                      "only supported against None");
}

TEST(Enums, BuiltinEnumsStillConfigureOps) {
  ir::Function fn = compile_kernel(
      "@ct.kernel\n"
      "def k(x, y, TILE: ct.Constant[int]):\n"
      "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.NEG_INF)\n"
      "    ct.store(y, index=(ct.bid(0),), tile=t)\n",
      kSig);
  auto loads = ops_of_kind(fn, ir::OpKind::Load);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0]->padding, ir::PaddingMode::NegInf);
}

const char* kDataclasses =
    "import dataclasses\n"
    "from dataclasses import dataclass, field\n"
    "@dataclass(frozen=True)\n"
    "class Inner:\n"
    "    v: float\n"
    "@dataclasses.dataclass(frozen=True)\n"
    "class Cfg:\n"
    "    scale: float\n"
    "    shift: int = 1\n"
    "    inner: Inner = Inner(0.5)\n"
    "    tag: str = field(default='cfg')\n"
    "    LIMIT = 8\n"  // a class attribute, not a field
    "    @property\n"
    "    def twice(self):\n"
    "        return self.scale * 2\n"
    "    def apply(self, t):\n"
    "        return t * self.scale + self.shift\n"
    "    def __call__(self, t):\n"
    "        return t - self.shift\n"
    "    def __getitem__(self, i):\n"
    "        return (self.scale, self.shift)[i]\n"
    "@dataclass(frozen=True)\n"
    "class Positive:\n"
    "    n: int\n"
    "    def __post_init__(self):\n"
    "        ct.static_assert(self.n > 0, 'n must be positive')\n"
    "@dataclass(frozen=True)\n"
    "class Sub(Cfg):\n"
    "    extra: int = 3\n"
    "    def apply(self, t):\n"
    "        return t + self.extra\n"
    "@dataclass\n"
    "class Mutable:\n"
    "    x: int\n"
    "@dataclass(frozen=True)\n"
    "class Factory:\n"
    "    x: tuple = field(default_factory=tuple)\n"
    "@dataclass(frozen=True)\n"
    "class NoInit:\n"
    "    x: int = field(default=1, init=False)\n"
    "class Plain:\n"
    "    def __init__(self, x):\n"
    "        self.x = x\n"
    "GLOBAL_CFG = Cfg(3.0, shift=2)\n";

std::string dataclass_kernel(const std::string& lines) {
  return std::string(kDataclasses) +
         "@ct.kernel\n"
         "def k(x, y, TILE: ct.Constant[int]):\n"
         "    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))\n" + lines;
}

TEST(Dataclasses, ConstructionBindsArgumentsAndDefaults) {
  compile_kernel(dataclass_kernel("    c = Cfg(2.0)\n"
                                  "    d = Cfg(scale=1.5, tag='d', shift=4)\n"
                                  "    ct.static_assert(c.scale == 2.0 and c.shift == 1 and c.tag == 'cfg')\n"
                                  "    ct.static_assert(c.inner.v == 0.5 and c.LIMIT == 8 and Cfg.LIMIT == 8)\n"
                                  "    ct.static_assert(Cfg.shift == 1)\n"  // a default is a class attribute
                                  "    ct.static_assert(d.shift == 4 and d.tag == 'd')\n"
                                  "    ct.static_assert(GLOBAL_CFG.shift == 2)\n"
                                  "    ct.static_assert(str(Inner(1.0)) == 'Inner(v=1.0)')\n"
                                  "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
                 kSig);
}

TEST(Dataclasses, FieldsHoldTilesArraysTuplesAndOtherDataclasses) {
  ir::Function fn = compile_kernel(
      std::string(kDataclasses) +
          "@dataclass(frozen=True)\n"
          "class Views:\n"
          "    src: object\n"
          "    dst: object\n"
          "    sizes: tuple\n"
          "    def load(self):\n"
          "        return ct.load(self.src, index=(ct.bid(0),), shape=(self.sizes[0],))\n"
          "def make(x, y, TILE):\n"
          "    return Views(x, y, (TILE, 2 * TILE))\n"
          "@ct.kernel\n"
          "def k(x, y, TILE: ct.Constant[int]):\n"
          "    v = make(x, y, TILE)\n"
          "    held = Inner(v.load())\n"
          "    ct.store(v.dst, index=(ct.bid(0),), tile=held.v * v.sizes[1])\n",
      kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Load).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Store).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 1u);
}

TEST(Dataclasses, MethodsPropertiesAndDundersAreInlined) {
  ir::Function fn = compile_kernel(dataclass_kernel("    c = Cfg(2.0)\n"
                                                    "    ct.static_assert(c.twice == 4.0 and c[1] == 1)\n"
                                                    "    u = c.apply(t)\n"  // two ops
                                                    "    u = c(u)\n"        // one op
                                                    "    f = c.apply\n"
                                                    "    u = f(u)\n"        // two ops
                                                    "    s = Sub(1.0)\n"
                                                    "    ct.static_assert(s.twice == 2.0 and s.extra == 3)\n"
                                                    "    u = s.apply(u)\n"  // the override: one op
                                                    "    ct.store(y, index=(ct.bid(0),), tile=u)\n"),
                                   kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Binary).size(), 6u);
}

TEST(Dataclasses, ReplaceAndEquality) {
  ir::Function fn = compile_kernel(
      dataclass_kernel("    c = Cfg(2.0)\n"
                       "    d = dataclasses.replace(c, shift=5)\n"
                       "    ct.static_assert(d.shift == 5 and d.scale == 2.0)\n"
                       "    ct.static_assert(c != d and c == Cfg(2.0) and c != Inner(2.0))\n"
                       "    r = Inner(ct.sum(t))\n"
                       "    if r == Inner(1.0):\n"  // a run-time comparison of the field
                       "        t = t + 1.0\n"
                       "    ct.store(y, index=(ct.bid(0),), tile=t)\n"),
      kSig);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::If).size(), 1u);
  EXPECT_EQ(ops_of_kind(fn, ir::OpKind::Compare).size(), 1u);
}

TEST(Dataclasses, PostInitRunsOnEveryConstruction) {
  compile_kernel(dataclass_kernel("    p = Positive(3)\n    ct.store(y, index=(ct.bid(0),), tile=t)\n"), kSig);
  EXPECT_KERNEL_ERROR(dataclass_kernel("    p = Positive(0)\n"), kSig, ErrorKind::StaticAssertion,
                      "Static assertion failed: n must be positive");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    p = dataclasses.replace(Positive(2), n=-1)\n"), kSig,
                      ErrorKind::StaticAssertion, "n must be positive");
}

TEST(Dataclasses, RejectionsAreCuTiles) {
  EXPECT_KERNEL_ERROR(dataclass_kernel("    m = Mutable(1)\n"), kSig, ErrorKind::Type,
                      "Only frozen dataclasses are supported");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    m = Factory()\n"), kSig, ErrorKind::Type,
                      "Dataclasses with default_factory fields are not supported");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    m = NoInit()\n"), kSig, ErrorKind::Type,
                      "Dataclasses with init=False fields are not supported");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    m = Plain(1)\n"), kSig, ErrorKind::UnsupportedCall,
                      "Creating instances of type \"Plain\" is not supported in device code");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(2.0)\n    c.scale = 1.0\n"), kSig, ErrorKind::Syntax,
                      "assigning an attribute is not supported in tile code");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(2.0)\n    c[0] = 1.0\n"), kSig, ErrorKind::Type,
                      "'Cfg' object does not support item assignment");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(2.0).nope\n"), kSig, ErrorKind::Type,
                      "'Cfg' object has no attribute 'nope'");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(2.0, 1, Inner(1.0), 'a', 5)\n"), kSig, ErrorKind::Type,
                      "Cfg(): too many positional arguments");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg()\n"), kSig, ErrorKind::Type,
                      "Cfg(): missing a required argument: 'scale'");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(1.0, scale=2.0)\n"), kSig, ErrorKind::Type,
                      "Cfg(): multiple values for argument 'scale'");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(1.0, bad=2)\n"), kSig, ErrorKind::Type,
                      "Cfg(): got an unexpected keyword argument 'bad'");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = dataclasses.replace(Cfg(1.0), nope=2)\n"), kSig, ErrorKind::Type,
                      "Dataclass 'Cfg' has no such field 'nope'");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Cfg(1.0) + t\n"), kSig, ErrorKind::Type,
                      "Unsupported operand types for +");
  EXPECT_KERNEL_ERROR(dataclass_kernel("    c = Inner(1.0)\n    c(t)\n"), kSig, ErrorKind::Type,
                      "Cannot call an object of type Inner");
  // Instances carried through loops and run-time ifs: carried_records_test.cpp.
}

}  // namespace
}  // namespace tile2cu
