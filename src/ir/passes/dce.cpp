#include "ir/passes/dce.hpp"

#include <set>
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
bool defines_array(const Op& op) {
  return op.kind == OpKind::ListItem || op.kind == OpKind::ArraySlice || op.kind == OpKind::ArraySelect;
}

bool is_loop(const Op& op) { return op.kind == OpKind::For || op.kind == OpKind::While; }

// Index of carried value k's initial value among a loop's operands (For: lower, upper and
// step come first).
size_t init_operand(const Op& loop, size_t k) { return loop.kind == OpKind::For ? 3 + k : k; }
Block& loop_body(Op& loop) { return loop.regions.back(); }

// Whether carried value k of `loop`, whose result nobody reads, can reach anything but its own
// next iteration: an effect, another carried value, a loop condition. Forward taint from the
// body's arg k (and the condition region's, for a while), to a fixed point; nested ops with
// regions are treated coarsely (any tainted operand or handed-back value taints all they define).
class CarriedTaint {
 public:
  CarriedTaint(const Op& loop, size_t k) : loop_(loop), k_(k) {}

  bool escapes() {
    for (const Block& r : loop_.regions) taint(r.args[r.args.size() - loop_.results.size() + k_]);
    size_t before = 0;
    do {
      before = tainted_.size();
      for (const Block& r : loop_.regions) scan(r, &loop_, &loop_);
    } while (!escaped_ && tainted_.size() != before);
    return escaped_;
  }

 private:
  bool is_tainted(ValueId v) const { return tainted_.count(v) != 0; }
  void taint(ValueId v) { tainted_.insert(v); }
  void taint_all(const Op& op) {
    for (ValueId v : op.results) taint(v);
    for (const Block& r : op.regions)
      for (ValueId v : r.args) taint(v);
  }
  // A value handed from a region to `target` (its owner for a yield, its loop for break and
  // continue) at position j.
  void hand_back(const Op& target, size_t j) {
    if (&target == &loop_) escaped_ |= j != k_;
    else taint_all(target);
  }

  void scan(const Block& block, const Op* owner, const Op* innermost_loop) {
    for (const Op& op : block.ops) {
      bool any = false;
      for (ValueId v : op.operands) any |= is_tainted(v);
      switch (op.kind) {
        case OpKind::Yield:
          for (size_t j = 0; j < op.operands.size(); ++j)
            if (is_tainted(op.operands[j])) hand_back(*owner, j);
          continue;
        case OpKind::Break: case OpKind::Continue:
          for (size_t j = 0; j < op.operands.size(); ++j)
            if (is_tainted(op.operands[j])) hand_back(*innermost_loop, j);
          continue;
        default:
          break;
      }
      if (any && has_effects(op)) escaped_ = true;
      if (any) taint_all(op);
      for (const Block& r : op.regions) scan(r, &op, is_loop(op) ? &op : innermost_loop);
    }
  }

  const Op& loop_;
  size_t k_;
  std::set<ValueId> tainted_;
  bool escaped_ = false;
};

// Drops carried value k from the break and continue ops of the loop whose body `block` is part
// of (not from those of nested loops).
void drop_exit_operand(Block& block, size_t k, std::vector<int>& uses) {
  for (Op& op : block.ops) {
    if (op.kind == OpKind::Break || op.kind == OpKind::Continue) {
      --uses[op.operands[k]];
      op.operands.erase(op.operands.begin() + static_cast<std::ptrdiff_t>(k));
    }
    if (!is_loop(op))
      for (Block& r : op.regions) drop_exit_operand(r, k, uses);
  }
}

// The Yield that ends a region (an if branch or a loop body), if it has one.
Op* terminator_yield(Block& region) {
  if (region.ops.empty() || region.ops.back().kind != OpKind::Yield) return nullptr;
  return &region.ops.back();
}

// Removes the results of an if or a loop that nobody reads, with what hands them back, so the
// ops computing them die too (the region itself stays while it has an effect).
void drop_dead_results(Op& op, std::vector<int>& uses) {
  if (op.kind != OpKind::If && !is_loop(op)) return;
  for (size_t k = op.results.size(); k-- > 0;) {
    if (uses[op.results[k]] > 0) continue;
    const auto at = static_cast<std::ptrdiff_t>(k);
    if (op.kind == OpKind::If) {
      for (Block& r : op.regions)
        if (Op* y = terminator_yield(r)) {
          --uses[y->operands[k]];
          y->operands.erase(y->operands.begin() + at);
        }
    } else {
      if (CarriedTaint(op, k).escapes()) continue;
      --uses[op.operands[init_operand(op, k)]];
      op.operands.erase(op.operands.begin() + static_cast<std::ptrdiff_t>(init_operand(op, k)));
      for (Block& r : op.regions) {
        const size_t first_carried = r.args.size() - op.results.size();
        r.args.erase(r.args.begin() + static_cast<std::ptrdiff_t>(first_carried + k));
      }
      Block& body = loop_body(op);
      if (Op* y = terminator_yield(body)) {
        --uses[y->operands[k]];
        y->operands.erase(y->operands.begin() + at);
      }
      drop_exit_operand(body, k, uses);
    }
    op.results.erase(op.results.begin() + at);
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
    bool used = false;
    for (ValueId v : op.results) used |= uses[v] > 0;
    if (defines_array(op)) used = arrays_used[op.param];
    if (used || has_effects(op)) {
      const size_t results_before = op.results.size();
      drop_dead_results(op, uses);
      changed |= op.results.size() != results_before;
      for (Block& r : op.regions) changed |= sweep(r, uses, arrays_used);
      continue;
    }
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
    if (!sweep(fn.body, uses, referenced_arrays(fn))) break;
  }
}

}  // namespace tile2cu::ir
