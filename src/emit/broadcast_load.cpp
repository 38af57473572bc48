#include "emit/broadcast_load.hpp"

#include <algorithm>

namespace tile2cu {

namespace {

// Ops that read at most, so a load may move past them. Anything else (stores, control flow,
// ops added later) keeps the broadcast going through registers.
bool writes_nothing(const ir::Op& op) {
  switch (op.kind) {
    case ir::OpKind::Constant: case ir::OpKind::BlockId: case ir::OpKind::NumBlocks:
    case ir::OpKind::ScalarParam: case ir::OpKind::ArrayDim: case ir::OpKind::ArrayStride:
    case ir::OpKind::Binary: case ir::OpKind::Compare: case ir::OpKind::Unary: case ir::OpKind::Convert:
    case ir::OpKind::Select: case ir::OpKind::Broadcast: case ir::OpKind::Reshape: case ir::OpKind::Arange:
    case ir::OpKind::Reduce: case ir::OpKind::Load:
      return true;
    default:
      return false;
  }
}

bool in_axis_order(const ir::Op& load) {
  for (size_t k = 0; k < load.order.size(); ++k)
    if (load.order[k] != static_cast<int>(k)) return false;
  return true;
}

void count_uses(const ir::Block& b, std::map<ir::ValueId, int>& uses) {
  for (const ir::Op& op : b.ops) {
    for (ir::ValueId v : op.operands) ++uses[v];
    for (const ir::Block& r : op.regions) count_uses(r, uses);
  }
}

constexpr int kMinRoundTripsToFold = 2;

void find_in_block(const ir::Function& fn, const ir::Block& b, const std::map<ir::ValueId, int>& uses,
                   const std::function<bool(const ir::Shape&, const ir::Shape&)>& same_placement,
                   BroadcastLoads& out, int& round_trips) {
  std::map<ir::ValueId, size_t> position;  // result -> index of its op in this block
  for (size_t i = 0; i < b.ops.size(); ++i) {
    for (ir::ValueId r : b.ops[i].results) position[r] = i;
    for (const ir::Block& r : b.ops[i].regions) find_in_block(fn, r, uses, same_placement, out, round_trips);
  }
  auto used_once = [&](ir::ValueId v) { auto it = uses.find(v); return it != uses.end() && it->second == 1; };
  for (size_t i = 0; i < b.ops.size(); ++i) {
    const ir::Op& bc = b.ops[i];
    if (bc.kind != ir::OpKind::Broadcast || fn.type(bc.operands[0]).is_scalar()) continue;
    std::vector<ir::ValueId> chain;
    FoldedBroadcast fold;
    ir::ValueId v = bc.operands[0];
    auto is_link = [&](const ir::Op& op) {
      return (op.kind == ir::OpKind::Reshape || op.kind == ir::OpKind::Convert) &&
             !fn.type(op.operands[0]).is_scalar();
    };
    int trips = 1;  // the broadcast's own
    while (position.count(v) && used_once(v) && is_link(b.ops[position[v]])) {
      const ir::Op& link = b.ops[position[v]];
      if (link.kind == ir::OpKind::Convert) fold.converts.insert(fold.converts.begin(), &link);
      if (link.kind == ir::OpKind::Reshape && !same_placement(fn.type(link.operands[0]).shape, fn.type(v).shape))
        ++trips;
      chain.push_back(v);
      v = link.operands[0];
    }
    if (!position.count(v) || !used_once(v)) continue;
    const ir::Op& load = b.ops[position[v]];
    if (load.kind != ir::OpKind::Load || load.tile_shape.empty() || !in_axis_order(load)) continue;
    if (!std::all_of(b.ops.begin() + static_cast<std::ptrdiff_t>(position[v]) + 1,
                     b.ops.begin() + static_cast<std::ptrdiff_t>(i), writes_nothing))
      continue;
    fold.load = &load;
    round_trips += trips;
    out.folded[bc.results[0]] = fold;
    out.absorbed.insert(v);
    out.absorbed.insert(chain.begin(), chain.end());
  }
}

}  // namespace

BroadcastLoads find_broadcast_loads(const ir::Function& fn,
                                    const std::function<bool(const ir::Shape&, const ir::Shape&)>& same_placement) {
  std::map<ir::ValueId, int> uses;
  count_uses(fn.body, uses);
  BroadcastLoads out;
  int round_trips = 0;
  find_in_block(fn, fn.body, uses, same_placement, out, round_trips);
  if (round_trips < kMinRoundTripsToFold) return {};
  return out;
}

}  // namespace tile2cu
