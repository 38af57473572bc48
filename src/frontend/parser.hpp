// The front end: Python source text -> kernel AST (frontend/ast.hpp).
#pragma once

#include <memory>

#include "frontend/ast.hpp"
#include "support/source.hpp"

namespace tile2cu {

// Parses a whole module with tree-sitter-python and lowers it to the kernel AST.
// Text that Python 3 itself would reject throws CompileError(ErrorKind::Syntax) at the
// offending place; an integer literal beyond 128 bits throws CompileError(ErrorKind::Value).
// Valid Python outside the tile subset is kept as Unsupported nodes, not rejected.
ast::Module parse_module(std::shared_ptr<const SourceFile> file);

}  // namespace tile2cu
