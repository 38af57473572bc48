// Sema: turns the kernel AST plus one signature into a Tile IR function. It resolves names,
// inlines helpers, folds constants and dead branches, and infers dtypes and shapes.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "frontend/ast.hpp"
#include "ir/ir.hpp"
#include "sema/signature.hpp"
#include "sema/value.hpp"

namespace tile2cu::sema {

// Finds and parses a module of the user's that a kernel file imports: `dotted` as written
// (`helpers`, `pkg.util`), `level` the leading dots of a relative import (`from .util import f`
// has 1), `importer` the path of the file that imports it (relative imports start there). Null
// when there is no such file; the name then stays opaque (an error if a kernel uses it). Sema
// reads no files itself: the driver passes the loader.
using ModuleLoader = std::function<std::shared_ptr<const ast::Module>(const std::string& dotted, int level,
                                                                      const std::string& importer)>;

// Evaluates a module's top level: imports, constants, helpers and @ct.kernel functions. The
// user's modules it imports are evaluated too, each once, through `load`.
std::shared_ptr<const ModuleScope> evaluate_module(std::shared_ptr<const ast::Module> module,
                                                   const ModuleLoader& load = {});

// Specializes `sig.kernel` on `sig`. Throws CompileError on any error in the kernel.
ir::Function specialize(const ModuleScope& scope, const KernelSignature& sig);

// The name a specialization gets when its signature names none.
std::string default_spec_name(const std::string& kernel, const KernelSignature& sig);

}  // namespace tile2cu::sema
