#include "ir/passes/dce.hpp"

#include <vector>

namespace tile2cu::ir {

namespace {

// Whether an op must stay whatever reads its results: a store or an early exit, or a region
// holding one (a break inside an if steers the loop around it).
bool has_effects(const Op& op) {
  switch (op.kind) {
    case OpKind::Store: case OpKind::Scatter: case OpKind::Atomic: case OpKind::Return: case OpKind::Break: case OpKind::Continue:
    case OpKind::Yield: case OpKind::Condition:
      return true;
    default:
      break;
  }
  for (const Block& r : op.regions)
    for (const Op& inner : r.ops)
      if (inner.kind != OpKind::Yield && inner.kind != OpKind::Condition && has_effects(inner)) return true;
  return false;
}

void count_uses(const Op& op, std::vector<int>& uses, int delta) {
  for (ValueId v : op.operands) uses[v] += delta;
  for (const Block& r : op.regions)
    for (const Op& inner : r.ops) count_uses(inner, uses, delta);
}

// One backward sweep over a block and the regions in it; true if anything was removed.
bool sweep(Block& block, std::vector<int>& uses) {
  bool changed = false;
  for (size_t i = block.ops.size(); i-- > 0;) {
    Op& op = block.ops[i];
    for (Block& r : op.regions) changed |= sweep(r, uses);
    bool used = false;
    for (ValueId v : op.results) used |= uses[v] > 0;
    if (used || has_effects(op)) continue;
    count_uses(op, uses, -1);
    block.ops.erase(block.ops.begin() + static_cast<std::ptrdiff_t>(i));
    changed = true;
  }
  return changed;
}

}  // namespace

void eliminate_dead_code(Function& fn) {
  std::vector<int> uses(fn.values.size(), 0);
  for (const Op& op : fn.body.ops) count_uses(op, uses, +1);
  while (sweep(fn.body, uses)) {
  }
}

}  // namespace tile2cu::ir
