#include "emit/element_memory_call.hpp"

#include <fmt/format.h>

#include <variant>

namespace tile2cu {

namespace {

bool is_constant(const OperandText& o, ir::ValueId v, const ir::Literal& value) {
  const ir::Op* d = o.def(v);
  if (!d || d->kind != ir::OpKind::Constant) return false;
  if (auto* b = std::get_if<bool>(&d->literal); b && std::holds_alternative<bool>(value)) return *b == std::get<bool>(value);
  if (auto* i = std::get_if<__int128>(&d->literal); i && std::holds_alternative<__int128>(value))
    return *i == std::get<__int128>(value);
  return false;
}

// The access shape: the result's, or for a scatter that of any tile operand (none: scalar).
ir::Shape access_shape(const ir::Function& fn, const ir::Op& op) {
  if (!op.results.empty()) return fn.type(op.results[0]).shape;
  for (ir::ValueId v : op.operands)
    if (!fn.type(v).is_scalar()) return fn.type(v).shape;
  return {};
}

}  // namespace

std::string element_memory_call(const ir::Function& fn, const ir::Op& op, const LayoutPlan& plan,
                                const OperandText& o) {
  const ir::ArrayParam& a = fn.arrays[op.param];
  // indices(i, j) per array axis, or raw_offset(offs) from the data pointer.
  const size_t rank = op.raw_offset ? 1 : static_cast<size_t>(a.rank);
  std::vector<std::string> idx;
  for (size_t k = 0; k < rank; ++k) idx.push_back(o.text(op.operands[k]));
  std::vector<std::string> args{a.name, fmt::format("{}({})", op.raw_offset ? "raw_offset" : "indices", fmt::join(idx, ", "))};
  for (size_t k = rank; k < op.operands.size(); ++k) args.push_back(o.text(op.operands[k]));
  // Trailing operands that hold their defaults go unsaid: mask true, padding 0.
  if (op.kind == ir::OpKind::Gather) {
    if (is_constant(o, op.operands[rank + 1], __int128(0))) {
      args.pop_back();
      if (is_constant(o, op.operands[rank], true)) args.pop_back();
    }
  }
  if (op.kind == ir::OpKind::Scatter && is_constant(o, op.operands[rank + 1], true)) args.pop_back();
  if (op.kind == ir::OpKind::Atomic && op.raw_offset && is_constant(o, op.operands.back(), true)) args.pop_back();

  // Template arguments: the layout (tiles only), then order, scope and bounds where they
  // differ from cuTile's defaults (AcqRel, Device, Checked); earlier ones are spelled out when
  // a later one is needed.
  ir::Shape shape = access_shape(fn, op);
  std::vector<std::string> targs;
  if (!shape.empty()) targs.push_back(plan.layout(shape).name);
  std::vector<std::string> optional;
  bool atomic = op.kind == ir::OpKind::Atomic;
  if (atomic) {
    static const char* kOrders[] = {"", "Relaxed", "Acquire", "Release", "AcqRel"};
    static const char* kScopes[] = {"", "Block", "", "Device", "Sys"};
    optional.push_back(fmt::format("MemoryOrder::{}", kOrders[static_cast<int>(op.memory_order)]));
    optional.push_back(fmt::format("MemoryScope::{}", kScopes[static_cast<int>(op.memory_scope)]));
  }
  // A raw offset has no bounds to check: Bounds stays at its default, unsaid.
  optional.push_back(op.check_bounds || op.raw_offset ? "Bounds::Checked" : "Bounds::Unchecked");
  const std::vector<std::string> defaults = atomic
      ? std::vector<std::string>{"MemoryOrder::AcqRel", "MemoryScope::Device", "Bounds::Checked"}
      : std::vector<std::string>{"Bounds::Checked"};
  size_t needed = optional.size();
  while (needed > 0 && optional[needed - 1] == defaults[needed - 1]) --needed;
  targs.insert(targs.end(), optional.begin(), optional.begin() + static_cast<std::ptrdiff_t>(needed));

  std::string name = op.kind == ir::OpKind::Gather ? "gather"
                   : op.kind == ir::OpKind::Scatter ? "scatter"
                   : fmt::format("atomic_{}", ir::atomic_kind_name(op.atomic));
  std::string t = targs.empty() ? "" : fmt::format("<{}>", fmt::join(targs, ", "));
  return fmt::format("{}{}({})", name, t, fmt::join(args, ", "));
}

bool is_block_uniform_effect(const ir::Function& fn, const ir::Op& op) {
  switch (op.kind) {
    case ir::OpKind::Store: return op.tile_shape.empty();
    case ir::OpKind::Scatter: return access_shape(fn, op).empty();
    case ir::OpKind::Atomic: return fn.type(op.results[0]).is_scalar();
    // Reading one element is safe in every thread, unless the kernel writes that array: then
    // another block (or this one) may change it between the threads' reads.
    case ir::OpKind::Gather: return fn.type(op.results[0]).is_scalar() && fn.arrays[op.param].written;
    default: return false;
  }
}

}  // namespace tile2cu
