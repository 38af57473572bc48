// Sema: turns the kernel AST plus one signature into a Tile IR function. It resolves names,
// inlines helpers, folds constants and dead branches, and infers dtypes and shapes.
#pragma once

#include <memory>

#include "frontend/ast.hpp"
#include "ir/ir.hpp"
#include "sema/signature.hpp"
#include "sema/value.hpp"

namespace tile2cu::sema {

// Evaluates a module's top level: imports, constants, helpers and @ct.kernel functions.
std::shared_ptr<const ModuleScope> evaluate_module(std::shared_ptr<const ast::Module> module);

// Specializes `sig.kernel` on `sig`. Throws CompileError on any error in the kernel.
ir::Function specialize(const ModuleScope& scope, const KernelSignature& sig);

// The name a specialization gets when its signature names none.
std::string default_spec_name(const std::string& kernel, const KernelSignature& sig);

}  // namespace tile2cu::sema
