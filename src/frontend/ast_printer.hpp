// A stable text dump of the kernel AST, for `--emit=ast` and golden tests.
#pragma once

#include <string>

#include "frontend/ast.hpp"

namespace tile2cu {

// One statement per line, indented two spaces per nesting level and suffixed with its
// position (@line:col); expressions are S-expressions on their statement's line:
//
//   (module
//     (import (cuda.tile as ct)) @1:1
//     (def add (params a (TILE : (subscript (attr (name ct) Constant) (name int))))
//          (decorators (attr (name ct) kernel))) @4:1
//       (assign (name x) = (binop + (name a) 1)) @5:5
//       (if (compare (name x) < 0)) @6:5
//         (pass) @7:9
//       else
//         (return (name x)) @9:9
//   )
//
// (The def header is one line; it is wrapped above only for width.) Integers print exactly,
// floats in their shortest round-trip form, strings double-quoted with C-style escapes.
std::string print_ast(const ast::Module& module);

// The S-expression of one expression, as print_ast writes it ("_" for null).
std::string print_expr(const ast::ExprPtr& expr);

}  // namespace tile2cu
