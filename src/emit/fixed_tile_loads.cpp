#include "emit/fixed_tile_loads.hpp"

#include <algorithm>
#include <map>

namespace tile2cu {

std::vector<const ir::Op*> find_fixed_tile_loads(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                                 const std::function<bool(const ir::Op&)>& may_be_whole) {
  std::map<ir::ValueId, const ir::Op*> def;
  bool has_main_loop = false;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    for (ir::ValueId r : op.results) def[r] = &op;
    has_main_loop = has_main_loop || op.kind == ir::OpKind::GemmLoop || op.kind == ir::OpKind::AttentionLoop;
  });
  std::vector<const ir::Op*> loads;
  if (has_main_loop) return loads;
  auto is_literal = [&](ir::ValueId v) {
    auto it = def.find(v);
    return it != def.end() && it->second->kind == ir::OpKind::Constant;
  };
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    if (op.kind != ir::OpKind::Load || op.tile_shape.empty()) return;
    if (broadcast_loads.absorbed.count(op.results[0]) || !may_be_whole(op)) return;
    // A slice or list item may be a different array in each block: only parameters qualify.
    const ir::ArrayParam& a = fn.arrays[op.param];
    if (a.slice_of >= 0 || a.list_of >= 0) return;
    if (std::all_of(op.operands.begin(), op.operands.end(), is_literal)) loads.push_back(&op);
  });
  return loads;
}

}  // namespace tile2cu
