// The front end's check for lines indented past column 255 (tree-sitter-python's limit):
// only lines that start a statement count, not lines inside brackets, strings or after '\'.
#include <gtest/gtest.h>

#include <string>

#include "frontend/parser.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {
namespace {

void parse(std::string text) {
  (void)parse_module(std::make_shared<SourceFile>("test.py", std::move(text)));
}

const std::string kWide(300, ' ');

TEST(IndentWidth, StatementIndentedPastColumn255IsReportedAtThatLine) {
  try {
    parse("def f():\n    if x:\n" + kWide + "y = 1\n");
    FAIL() << "accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::UnsupportedFeature);
    EXPECT_NE(e.message().find("indented 300 columns"), std::string::npos) << e.message();
    ASSERT_FALSE(e.frames().empty());
    EXPECT_EQ(e.frames().front().range.line, 3);
    EXPECT_EQ(e.frames().front().range.col, 301);
  }
}

TEST(IndentWidth, TabsCountEightColumns) {
  EXPECT_THROW(parse("if x:\n" + std::string(32, '\t') + "y = 1\n"), CompileError);
  EXPECT_NO_THROW(parse("if x:\n" + std::string(31, '\t') + "y = 1\n"));
}

TEST(IndentWidth, LinesThatDoNotStartAStatementAreFine) {
  EXPECT_NO_THROW(parse("y = (1 +\n" + kWide + "2)\n"));                 // inside brackets
  EXPECT_NO_THROW(parse("y = [\n" + kWide + "'a', \"b\",\n]\n"));
  EXPECT_NO_THROW(parse("s = '''\n" + kWide + "text \\''' \"\n" + kWide + "'''\n"));  // in a string
  EXPECT_NO_THROW(parse("y = 1 + \\\n" + kWide + "2\n"));               // after a backslash
  EXPECT_NO_THROW(parse("y = 1\n" + kWide + "# a comment\n"));          // comment lines
  EXPECT_NO_THROW(parse("y = 1\n" + kWide + "\n"));                     // blank lines
  // Brackets in strings and comments do not open anything: the next line starts a statement.
  EXPECT_THROW(parse("y = '('  # (\nif x:\n" + kWide + "z = 2\n"), CompileError);
}

}  // namespace
}  // namespace tile2cu
