// Helpers imported from the user's other modules (spec a.4, h.10): found next to the kernel
// file, evaluated once, inlined like the kernel's own helpers, quoted from their own file in
// the generated code and in diagnostics.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tile2cu/tile2cu.hpp"
#include "text_match.hpp"

namespace tile2cu {
namespace {

namespace fs = std::filesystem;

// A folder of Python files for one test, removed afterwards.
class ModuleFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tile2cu_imports_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "pkg");
    write("helpers.py",
          "import cuda.tile as ct\n"
          "\n"
          "FACTOR = 2.0\n"
          "\n"
          "def scale(t):\n"
          "    u = ct.exp(t)\n"
          "    return u * FACTOR\n"
          "\n"
          "def broken(t):\n"
          "    return t + ct.full((3,), 1.0, ct.float32)\n");
    write("pkg/__init__.py", "");
    write("pkg/consts.py", "ONE = 1.0\n");
    write("pkg/util.py", "from .consts import ONE\n\ndef add_one(t):\n    return t + ONE\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

  TranspileResult transpile_kernel(const std::string& imports, const std::string& body, bool line_directives = false) {
    const std::string source = "import cuda.tile as ct\n" + imports +
                               "\n\n@ct.kernel\ndef k(a, b, TILE: ct.Constant[int]):\n"
                               "    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))\n" + body;
    TranspileOptions o;
    o.signatures = {"a=float32[?], b=float32[?], TILE=128"};
    o.header_name = "k.cuh";
    o.line_directives = line_directives;
    return transpile((dir_ / "k.py").string(), source, o);
  }

  fs::path dir_;
};

TEST_F(ModuleFolder, HelpersAndConstantsFromModulesAndPackages) {
  TranspileResult r = transpile_kernel(
      "import helpers\nfrom helpers import scale\nimport pkg.util as u\nfrom pkg import consts",
      "    ct.store(b, index=(ct.bid(0),), tile=scale(t) + helpers.FACTOR + u.add_one(t) * consts.ONE)\n",
      /*line_directives=*/true);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // scale() quoted from helpers.py, its global FACTOR read there; pkg/util.py's relative import.
  EXPECT_TRUE(contains(r.cu, "  // u = ct.exp(t)\n#line 6 \"" + (dir_ / "helpers.py").string() + "\"\n")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "tile2cu::exp(t)")) << r.cu;
  EXPECT_TRUE(contains(r.cu, "u * 2.0f + 2.0f + (t + 1.0f) * 1.0f")) << r.cu;
}

TEST_F(ModuleFolder, DottedImportReachesTheSubmodule) {
  // `import pkg.util` binds `pkg`; `pkg.util.add_one` walks into the package's module.
  TranspileResult r = transpile_kernel("import pkg.util", "    ct.store(b, index=(0,), tile=pkg.util.add_one(t))\n");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_TRUE(contains(r.cu, "store(b, {0}, t + 1.0f, whole_at_launch);")) << r.cu;
}

TEST_F(ModuleFolder, ErrorsPointIntoTheHelpersFile) {
  TranspileResult r = transpile_kernel("import helpers", "    ct.store(b, index=(0,), tile=helpers.broken(t))\n");
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, (dir_ / "helpers.py").string() + ":10:24: error[TileTypeError]")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "k.py:7:34: note: in the call to broken() inlined from here")) << r.diagnostics;
}

TEST_F(ModuleFolder, MissingNamesAndModules) {
  TranspileResult attr = transpile_kernel("import helpers", "    ct.store(b, index=(0,), tile=helpers.nothing(t))\n");
  EXPECT_TRUE(contains(attr.diagnostics, "error[TileTypeError]: module 'helpers' (" + (dir_ / "helpers.py").string() +
                                             ") has no attribute 'nothing'"))
      << attr.diagnostics;
  TranspileResult name = transpile_kernel("from helpers import nothing", "    ct.store(b, index=(0,), tile=nothing(t))\n");
  EXPECT_TRUE(contains(name.diagnostics, "cannot import name 'nothing' from 'helpers'")) << name.diagnostics;
  TranspileResult absent = transpile_kernel("import absent_module", "    ct.store(b, index=(0,), tile=absent_module.f(t))\n");
  EXPECT_TRUE(contains(absent.diagnostics, "module 'absent_module' is not supported in tile code yet (only cuda.tile, "
                                           "math, operator, numpy and torch dtypes are, and modules of yours found next "
                                           "to the kernel file as absent_module.py)"))
      << absent.diagnostics;
}

TEST_F(ModuleFolder, ImportCycleIsAnError) {
  write("ping.py", "import pong\n\ndef f(t):\n    return t\n");
  write("pong.py", "import ping\n");
  TranspileResult r = transpile_kernel("import ping", "    ct.store(b, index=(0,), tile=ping.f(t))\n");
  ASSERT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, "module 'ping' imports itself through a cycle")) << r.diagnostics;
}

}  // namespace
}  // namespace tile2cu
