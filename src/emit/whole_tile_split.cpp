#include "emit/whole_tile_split.hpp"

#include <algorithm>
#include <map>

namespace tile2cu {

namespace {

bool is_tile_access(const ir::Op& op) {
  return (op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) && !op.tile_shape.empty();
}

// The index operands of a load (all of them) or a store (all but the stored tile).
std::vector<ir::ValueId> index_operands(const ir::Op& op) {
  size_t n = op.kind == ir::OpKind::Store ? op.operands.size() - 1 : op.operands.size();
  return {op.operands.begin(), op.operands.begin() + static_cast<std::ptrdiff_t>(n)};
}

// Ops with no operands whose value every block knows from the start (a literal, the block id, an
// array extent, a scalar parameter): the emitter can spell them anywhere.
bool is_known_leaf(const ir::Op& op) {
  switch (op.kind) {
    case ir::OpKind::Constant: case ir::OpKind::BlockId: case ir::OpKind::NumBlocks:
    case ir::OpKind::ScalarParam: case ir::OpKind::ArrayDim: case ir::OpKind::ArrayStride:
      return op.operands.empty();
    default:
      return false;
  }
}

// Calls f on `op` and on every op nested in it, in program order.
void visit(const ir::Op& op, const std::function<void(const ir::Op&)>& f) {
  f(op);
  for (const ir::Block& r : op.regions) ir::for_each_op(r, f);
}

}  // namespace

WholeTileSplit find_whole_tile_split(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                     const std::function<bool(const ir::Op&)>& may_be_whole,
                                     bool block_known_tiles) {
  const std::vector<ir::Op>& top = fn.body.ops;
  WholeTileSplit none{top.size(), {}, false};
  bool has_main_loop = false;
  std::map<ir::ValueId, const ir::Op*> def;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    for (ir::ValueId r : op.results) def[r] = &op;
    has_main_loop = has_main_loop || op.kind == ir::OpKind::GemmLoop || op.kind == ir::OpKind::AttentionLoop;
  });
  if (has_main_loop) return none;
  // Where each top-level value is defined (statement index); values of nested regions are absent.
  std::map<ir::ValueId, size_t> top_def;
  for (size_t i = 0; i < top.size(); ++i)
    for (ir::ValueId r : top[i].results) top_def[r] = i;
  auto is_literal = [&](ir::ValueId v) {
    auto it = def.find(v);
    return it != def.end() && it->second->kind == ir::OpKind::Constant;
  };
  auto is_leaf = [&](ir::ValueId v) {
    auto it = def.find(v);
    return it != def.end() && is_known_leaf(*it->second);
  };
  // Whether the block knows `op`'s tile before statement `split`.
  auto known_before = [&](const ir::Op& op, size_t split) {
    for (ir::ValueId v : index_operands(op)) {
      if (is_leaf(v)) continue;
      auto it = top_def.find(v);
      if (it == top_def.end() || it->second >= split) return false;
    }
    return true;
  };
  auto eligible = [&](const ir::Op& op) {
    if (!is_tile_access(op) || !may_be_whole(op)) return false;
    if (!block_known_tiles && op.kind != ir::OpKind::Load) return false;
    if (op.kind == ir::OpKind::Load && broadcast_loads.absorbed.count(op.results[0])) return false;
    // A slice or list item may be a different array in each block: only parameters qualify.
    const ir::ArrayParam& a = fn.arrays[op.param];
    return a.slice_of < 0 && a.list_of < 0;
  };
  auto literal_index = [&](const ir::Op& op) {
    std::vector<ir::ValueId> index = index_operands(op);
    return std::all_of(index.begin(), index.end(), is_literal);
  };
  // Whether the split at `split` takes `op`.
  auto takes = [&](const ir::Op& op, size_t split) {
    return eligible(op) && (literal_index(op) || (block_known_tiles && known_before(op, split)));
  };

  // The first statement that makes such an access.
  size_t split = top.size();
  for (size_t i = 0; i < top.size() && split == top.size(); ++i) {
    visit(top[i], [&](const ir::Op& op) {
      if (takes(op, i)) split = i;
    });
  }
  if (split == top.size()) return none;
  // A Python statement lowers to several ops: the split goes before the first op of its line.
  while (split > 0 && top[split - 1].loc.line == top[split].loc.line && top[split - 1].loc_file == top[split].loc_file)
    --split;

  WholeTileSplit found{split, {}, block_known_tiles};
  for (size_t i = split; i < top.size(); ++i) {
    visit(top[i], [&](const ir::Op& op) {
      if (takes(op, split)) found.accesses.push_back(&op);
    });
  }
  // The line's earlier ops may compute the first access's own index: then it has none left.
  return found.accesses.empty() ? none : found;
}

}  // namespace tile2cu
