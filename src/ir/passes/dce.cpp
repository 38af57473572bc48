#include "ir/passes/dce.hpp"

#include <vector>

namespace tile2cu::ir {

namespace {

// Whether an op must stay whatever reads its results: a store or an early exit, or a region
// holding one (a break inside an if steers the loop around it).
bool has_effects(const Op& op) {
  switch (op.kind) {
    case OpKind::Store: case OpKind::Scatter: case OpKind::Atomic: case OpKind::Return:
    case OpKind::Break: case OpKind::Continue: case OpKind::Yield: case OpKind::Condition:
    case OpKind::Print: case OpKind::Assert:
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

// Ops that define an array entry (a list's item, a slice view) rather than read one.
bool defines_array(const Op& op) { return op.kind == OpKind::ListItem || op.kind == OpKind::ArraySlice; }

// Arrays that some op other than the one defining them reads or writes. A slice reads the
// array it narrows.
void referenced_arrays(const Block& block, const std::vector<ArrayParam>& arrays, std::vector<bool>& out) {
  for (const Op& op : block.ops) {
    if (op.kind == OpKind::ArraySlice) out[arrays[op.param].slice_of] = true;
    else if (op.param >= 0 && !defines_array(op) && op.kind != OpKind::ScalarParam &&
             static_cast<size_t>(op.param) < out.size())
      out[op.param] = true;
    for (const Block& r : op.regions) referenced_arrays(r, arrays, out);
  }
}

// One backward sweep over a block and the regions in it; true if anything was removed.
// A ListItem or ArraySlice stays while the array it defines is referenced. Dead ops are marked,
// then removed in one compaction (erasing one at a time is quadratic in a long straight-line
// kernel).
bool sweep(Block& block, std::vector<int>& uses, const std::vector<bool>& arrays_used) {
  bool changed = false;
  std::vector<bool> dead(block.ops.size(), false);
  bool any_dead = false;
  for (size_t i = block.ops.size(); i-- > 0;) {
    Op& op = block.ops[i];
    for (Block& r : op.regions) changed |= sweep(r, uses, arrays_used);
    bool used = false;
    for (ValueId v : op.results) used |= uses[v] > 0;
    if (defines_array(op)) used = arrays_used[op.param];
    if (used || has_effects(op)) continue;
    count_uses(op, uses, -1);
    dead[i] = true;
    any_dead = true;
  }
  if (!any_dead) return changed;
  size_t kept = 0;
  for (size_t i = 0; i < block.ops.size(); ++i) {
    if (dead[i]) continue;
    if (kept != i) block.ops[kept] = std::move(block.ops[i]);
    ++kept;
  }
  block.ops.erase(block.ops.begin() + static_cast<std::ptrdiff_t>(kept), block.ops.end());
  return true;
}

}  // namespace

void eliminate_dead_code(Function& fn) {
  std::vector<int> uses(fn.values.size(), 0);
  for (const Op& op : fn.body.ops) count_uses(op, uses, +1);
  while (true) {
    std::vector<bool> arrays_used(fn.arrays.size(), false);
    referenced_arrays(fn.body, fn.arrays, arrays_used);
    if (!sweep(fn.body, uses, arrays_used)) break;
  }
}

}  // namespace tile2cu::ir
