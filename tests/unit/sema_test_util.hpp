// Helpers for sema tests: compile a small kernel from source text on one signature, or
// expect it to fail. (sema_test.cpp predates this header and keeps its own copy.)
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/parser.hpp"
#include "ir/ir.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu::testing {

inline ir::Function compile_kernel(const std::string& body, const std::string& sig) {
  auto file = std::make_shared<SourceFile>("k.py", "import math\nimport cuda.tile as ct\n\n" + body);
  auto module = std::make_shared<const ast::Module>(parse_module(file));
  auto scope = sema::evaluate_module(module);
  KernelSignature s = parse_signature(sig, "--sig");
  if (s.kernel.empty()) {
    if (scope->kernel_order.size() != 1) throw std::runtime_error("test kernel count");
    s.kernel = scope->kernel_order[0];
  }
  ir::Function fn = sema::specialize(*scope, s);
  ir::verify(fn);
  return fn;
}

struct CompileFailure {
  bool thrown = false;
  ErrorKind kind = ErrorKind::Usage;
  std::string message;
  SourceRange range;
};

inline CompileFailure compile_kernel_failure(const std::string& body, const std::string& sig) {
  CompileFailure f;
  try {
    ir::Function fn = compile_kernel(body, sig);
    ADD_FAILURE() << "expected a CompileError; got IR:\n" << ir::print_function(fn);
  } catch (const CompileError& e) {
    f.thrown = true;
    f.kind = e.kind();
    f.message = e.message();
    if (!e.frames().empty()) f.range = e.frames().front().range;
  }
  return f;
}

inline void collect_ops(const ir::Block& b, ir::OpKind kind, std::vector<const ir::Op*>& out) {
  for (const ir::Op& op : b.ops) {
    if (op.kind == kind) out.push_back(&op);
    for (const ir::Block& r : op.regions) collect_ops(r, kind, out);
  }
}

inline std::vector<const ir::Op*> ops_of_kind(const ir::Function& fn, ir::OpKind kind) {
  std::vector<const ir::Op*> out;
  collect_ops(fn.body, kind, out);
  return out;
}

}  // namespace tile2cu::testing

#define EXPECT_KERNEL_ERROR(body, sig, kind_, substring)                              \
  do {                                                                                \
    ::tile2cu::testing::CompileFailure f_ = ::tile2cu::testing::compile_kernel_failure(body, sig); \
    EXPECT_TRUE(f_.thrown);                                                           \
    EXPECT_EQ(f_.kind, kind_) << f_.message;                                          \
    EXPECT_NE(f_.message.find(substring), std::string::npos) << f_.message;           \
  } while (0)
