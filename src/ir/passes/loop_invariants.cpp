#include "ir/passes/loop_invariants.hpp"

#include <set>
#include <vector>

namespace tile2cu::ir {

namespace {

// A tile changing hands between threads (the emitter moves it through shared memory: one
// owner per element, so even a 1 x 1 tile spreads that way). A scalar is in every thread.
bool exchanges_tile(const Function& fn, const Op& op) {
  switch (op.kind) {
    case OpKind::Broadcast: case OpKind::Reshape: case OpKind::Permute:
      return !fn.type(op.operands[0]).is_scalar();
    default:
      return false;
  }
}

void collect_definitions(const Block& block, std::set<ValueId>& values, std::set<int>& arrays) {
  for (ValueId a : block.args) values.insert(a);
  for (const Op& op : block.ops) {
    for (ValueId r : op.results) values.insert(r);
    if (op.kind == OpKind::ListItem || op.kind == OpKind::ArraySlice || op.kind == OpKind::ArraySelect)
      arrays.insert(op.param);
    for (const Block& r : op.regions) collect_definitions(r, values, arrays);
  }
}

// The ops of `body` (its own list, not nested regions) to move in front of `loop`: every
// invariant exchange and the invariant ops it reads, in their order.
std::vector<bool> ops_to_hoist(const Function& fn, const Op& loop, const Block& body) {
  std::set<ValueId> defined_inside;  // by any region of the loop (a while's condition too)
  std::set<int> arrays_inside;
  for (const Block& r : loop.regions) collect_definitions(r, defined_inside, arrays_inside);
  const size_t n = body.ops.size();
  std::vector<bool> invariant(n, false);
  std::set<ValueId> invariant_values;
  for (size_t i = 0; i < n; ++i) {
    const Op& op = body.ops[i];
    if (!op.regions.empty() || op.results.size() != 1) continue;
    const bool pure = is_value_arithmetic(op.kind) || op.kind == OpKind::Broadcast || op.kind == OpKind::Reshape ||
                      op.kind == OpKind::Permute || op.kind == OpKind::Arange || op.kind == OpKind::Bitcast;
    if (!pure) continue;
    if ((op.kind == OpKind::ArrayDim || op.kind == OpKind::ArrayStride) && arrays_inside.count(op.param)) continue;
    bool operands_invariant = true;
    for (ValueId v : op.operands)
      operands_invariant = operands_invariant && (!defined_inside.count(v) || invariant_values.count(v));
    if (!operands_invariant) continue;
    invariant[i] = true;
    invariant_values.insert(op.results[0]);
  }
  // Walk back from the invariant exchanges: they and the invariant ops they read move.
  std::vector<bool> hoist(n, false);
  std::set<ValueId> needed;
  for (size_t i = n; i-- > 0;) {
    const Op& op = body.ops[i];
    if (!invariant[i] || (!exchanges_tile(fn, op) && !needed.count(op.results[0]))) continue;
    hoist[i] = true;
    for (ValueId v : op.operands) needed.insert(v);
  }
  return hoist;
}

// A hoisted exchange is read by name inside the loop: `mean` spread to 16 x 128 is `mean_16x128`.
void name_after_operand(Function& fn, const Op& op) {
  if (!exchanges_tile(fn, op)) return;
  const ValueId r = op.results[0];
  const std::string& base = fn.values[op.operands[0]].name;
  if (!fn.values[r].name.empty() || base.empty()) return;
  std::string dims;
  for (int64_t d : fn.type(r).shape) dims += (dims.empty() ? "" : "x") + std::to_string(d);
  fn.values[r].name = base + "_" + dims;
}

void hoist_in(Function& fn, Block& block) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    for (Block& r : block.ops[i].regions) hoist_in(fn, r);  // inner loops first
    const OpKind kind = block.ops[i].kind;
    if (kind != OpKind::For && kind != OpKind::While) continue;
    Block& body = block.ops[i].regions[kind == OpKind::For ? 0 : 1];
    const std::vector<bool> hoist = ops_to_hoist(fn, block.ops[i], body);
    std::vector<Op> moved, kept;
    for (size_t k = 0; k < body.ops.size(); ++k) (hoist[k] ? moved : kept).push_back(std::move(body.ops[k]));
    body.ops = std::move(kept);
    for (Op& op : moved) {
      op.hoisted = true;
      name_after_operand(fn, op);
    }
    const size_t count = moved.size();
    block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(i), std::make_move_iterator(moved.begin()),
                     std::make_move_iterator(moved.end()));
    i += count;  // back on the loop
  }
}

}  // namespace

void hoist_loop_invariants(Function& fn) { hoist_in(fn, fn.body); }

}  // namespace tile2cu::ir
