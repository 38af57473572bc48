#include "emit/launch_whole_tiles.hpp"

#include <climits>
#include <map>

namespace tile2cu {

std::vector<LaunchWholeAccess> find_launch_whole_accesses(const ir::Function& fn, const BroadcastLoads& broadcast_loads,
                                                          const std::function<bool(const ir::Op&)>& may_be_whole) {
  std::map<ir::ValueId, const ir::Op*> def;
  bool has_main_loop = false;
  std::vector<const ir::Op*> accesses;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    for (ir::ValueId r : op.results) def[r] = &op;
    has_main_loop = has_main_loop || op.kind == ir::OpKind::GemmLoop || op.kind == ir::OpKind::AttentionLoop;
    if ((op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store) && !op.tile_shape.empty()) accesses.push_back(&op);
  });
  if (has_main_loop) return {};
  std::vector<LaunchWholeAccess> found;
  for (const ir::Op* op : accesses) {
    const ir::ArrayParam& a = fn.arrays[static_cast<size_t>(op->param)];
    if (a.slice_of >= 0 || a.list_of >= 0 || !a.select_of.empty() || !may_be_whole(*op)) continue;
    if (op->kind == ir::OpKind::Load && broadcast_loads.absorbed.count(op->results[0])) continue;
    bool identity = true;
    for (size_t k = 0; k < op->order.size(); ++k) identity = identity && op->order[k] == static_cast<int>(k);
    if (!identity) continue;
    LaunchWholeAccess entry{op, {}};
    for (size_t k = 0; k < op->tile_shape.size(); ++k) {
      auto it = def.find(op->operands[k]);
      const ir::Op* d = it == def.end() ? nullptr : it->second;
      if (d && d->kind == ir::OpKind::BlockId) {
        entry.index.push_back({d->axis, 0});
      } else if (const auto* v = d && d->kind == ir::OpKind::Constant ? std::get_if<__int128>(&d->literal) : nullptr;
                 v && *v >= 0 && *v <= INT32_MAX) {
        entry.index.push_back({-1, static_cast<int64_t>(*v)});
      } else {
        break;
      }
    }
    if (entry.index.size() == op->tile_shape.size()) found.push_back(std::move(entry));
  }
  return found;
}

}  // namespace tile2cu
