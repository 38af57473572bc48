#include "emit/whole_tile_split.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <optional>

namespace tile2cu {

namespace {

bool is_tile_access(const ir::Op& op) {
  return (op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) && !op.tile_shape.empty();
}

std::vector<ir::ValueId> index_operands(const ir::Op& op) {
  return {op.operands.begin(), op.operands.begin() + static_cast<std::ptrdiff_t>(tile_index_count(op))};
}

// Ops with no operands whose value every block knows from the start (a literal, the block id, a
// kernel parameter array's extent or stride, a scalar parameter): the emitter can spell them
// anywhere. A view's extent is not one: the view is declared where the kernel makes it.
bool is_known_leaf(const ir::Function& fn, const ir::Op& op) {
  if (!op.operands.empty()) return false;
  switch (op.kind) {
    case ir::OpKind::Constant: case ir::OpKind::BlockId: case ir::OpKind::NumBlocks: case ir::OpKind::ScalarParam:
      return true;
    case ir::OpKind::ArrayDim: case ir::OpKind::ArrayStride: {
      const ir::ArrayParam& a = fn.arrays[static_cast<size_t>(op.param)];
      return a.slice_of < 0 && a.list_of < 0 && a.select_of.empty();
    }
    default:
      return false;
  }
}

// Calls f on `op` and on every op nested in it, in program order.
void visit(const ir::Op& op, const std::function<void(const ir::Op&)>& f) {
  f(op);
  for (const ir::Block& r : op.regions) ir::for_each_op(r, f);
}

std::optional<int64_t> literal_int(const ir::Op* op) {
  if (!op || op->kind != ir::OpKind::Constant) return std::nullopt;
  const auto* v = std::get_if<__int128>(&op->literal);
  if (!v || *v < 0 || *v > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(*v);
}

// Whether `op` is `arange(start, step) < a.shape[d]` (through reshapes and broadcasts, either
// way round) with every arange value below the extent that one of `accesses` proves: a whole
// tile of extent E along axis d at literal tile index i means a.shape[d] >= (i + 1) * E, at any
// other index a.shape[d] >= E (whole_tile_fast: the tile starts at or after 0).
bool mask_true_when_whole(const ir::Function& fn, const ir::Op& op, const std::vector<const ir::Op*>& accesses,
                          const std::map<ir::ValueId, const ir::Op*>& def) {
  if (op.kind != ir::OpKind::Compare || fn.type(op.results[0]).is_scalar()) return false;
  if (op.compare != ir::CompareKind::Lt && op.compare != ir::CompareKind::Gt) return false;
  auto defining = [&](ir::ValueId v) -> const ir::Op* {
    auto it = def.find(v);
    return it == def.end() ? nullptr : it->second;
  };
  auto source = [&](ir::ValueId v) {  // the value behind reshapes and broadcasts
    const ir::Op* d = defining(v);
    while (d && (d->kind == ir::OpKind::Reshape || d->kind == ir::OpKind::Broadcast)) d = defining(d->operands[0]);
    return d;
  };
  const bool lt = op.compare == ir::CompareKind::Lt;
  const ir::Op* range = source(op.operands[lt ? 0 : 1]);
  const ir::Op* extent = source(op.operands[lt ? 1 : 0]);
  if (!range || !extent || range->kind != ir::OpKind::Arange || extent->kind != ir::OpKind::ArrayDim) return false;
  std::optional<int64_t> start = literal_int(defining(range->operands[0]));
  std::optional<int64_t> step = literal_int(defining(range->operands[1]));
  const int64_t length = ir::shape_elements(fn.type(range->results[0]).shape);
  if (!start || !step || length < 1 || *step > INT32_MAX || *start > INT32_MAX) return false;
  const int64_t largest = *start + *step * (length - 1);
  return std::any_of(accesses.begin(), accesses.end(), [&](const ir::Op* a) {
    if (a->param != extent->param || extent->dim >= static_cast<int>(a->tile_shape.size())) return false;
    for (size_t k = 0; k < a->order.size(); ++k)
      if (a->order[k] != static_cast<int>(k)) return false;
    const int64_t tile_extent = a->tile_shape[static_cast<size_t>(extent->dim)];
    std::optional<int64_t> index = literal_int(defining(a->operands[static_cast<size_t>(extent->dim)]));
    const int64_t proven = index && *index < INT32_MAX ? (*index + 1) * tile_extent : tile_extent;
    return largest < proven;
  });
}

}  // namespace

std::string accessed_arrays(const ir::Function& fn, const std::vector<const ir::Op*>& accesses) {
  std::vector<std::string> names;
  for (const ir::Op* op : accesses) {
    const std::string& name = fn.arrays[static_cast<size_t>(op->param)].name;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.size() < 2) return names.empty() ? "" : names[0];
  std::string out;
  for (size_t i = 0; i + 1 < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out + " and " + names.back();
}

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
    return it != def.end() && is_known_leaf(fn, *it->second);
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
    return a.slice_of < 0 && a.list_of < 0 && a.select_of.empty();
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
  // The line's earlier ops may compute the first access's own index, and that of every later
  // one: then nothing is tested, and the kernel has no split.
  if (found.accesses.empty()) return none;
  found.masks_true_when_whole = masks_true_when_whole(fn, split, found.accesses);
  return found;
}

std::vector<const ir::Op*> masks_true_when_whole(const ir::Function& fn, size_t first_statement,
                                                 const std::vector<const ir::Op*>& accesses) {
  std::map<ir::ValueId, const ir::Op*> def;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    for (ir::ValueId r : op.results) def[r] = &op;
  });
  std::vector<const ir::Op*> masks;
  for (size_t i = first_statement; i < fn.body.ops.size(); ++i)
    visit(fn.body.ops[i], [&](const ir::Op& op) {
      if (mask_true_when_whole(fn, op, accesses, def)) masks.push_back(&op);
    });
  return masks;
}

}  // namespace tile2cu
