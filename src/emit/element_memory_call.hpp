// How Gather / Scatter / Atomic ops print (runtime/tile2cu/gather.cuh, atomic.cuh), and which
// ops are block-uniform side effects that run once per block (runtime/tile2cu/block_uniform.cuh).
#pragma once

#include <functional>
#include <string>

#include "emit/layout_plan.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

struct OperandText {
  std::function<std::string(ir::ValueId)> text;     // the C++ expression of a value
  std::function<const ir::Op*(ir::ValueId)> def;    // the op defining it (nullptr for arguments)
};

// "gather<Layout_64>(x, indices(row, cols), mask, -INFINITY)", "atomic_cas<MemoryOrder::Acquire>(...)":
// the call, without a trailing semicolon.
std::string element_memory_call(const ir::Function& fn, const ir::Op& op, const LayoutPlan& plan,
                                const OperandText& operands);

// A scalar side effect (a one-element store, scatter or atomic) or a one-element read of an array
// the kernel also writes: the generated code runs it in thread 0 and hands its result to every
// thread (spec h.1, h.15), so the effect happens once and values that steer control flow agree.
bool is_block_uniform_effect(const ir::Function& fn, const ir::Op& op);

}  // namespace tile2cu
