#include "emit/array_order.hpp"

#include <compare>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "emit/element_memory_call.hpp"

namespace tile2cu {

namespace {

using ir::Op;
using ir::OpKind;

struct Access {
  const Op* op;
  int array;  // the root array: a list for its items, the viewed array for a slice, each candidate of a choice
  bool writes;
  auto operator<=>(const Access&) const = default;
};
using Pending = std::set<Access>;  // accesses since the last barrier every thread passed

Pending merged(Pending a, const Pending& b) {
  a.insert(b.begin(), b.end());
  return a;
}

class Walker {
 public:
  Walker(const ir::Function& fn, const BroadcastLoads& broadcast_loads) : fn_(fn), broadcast_loads_(broadcast_loads) {}

  ArrayBarriers barriers;

  Pending walk(const ir::Block& b, Pending pending) {
    for (const Op& op : b.ops) {
      if (visits_left_ > 0) --visits_left_;
      // once_per_block: a barrier before thread 0's access and one after it.
      if ((op.kind == OpKind::Atomic || op.kind == OpKind::Gather) && is_block_uniform_effect(fn_, op)) {
        pending.clear();
        continue;
      }
      std::vector<Access> accesses = accesses_of(op);
      for (const Access& a : accesses)
        for (const Access& p : pending)
          if (conflict(p, a)) barriers[&op] = fn_.arrays[a.array].name;
      if (barriers.count(&op)) pending.clear();
      pending.insert(accesses.begin(), accesses.end());
      switch (op.kind) {
        case OpKind::If:
          pending = merged(walk(op.regions[0], pending),
                           op.regions.size() > 1 ? walk(op.regions[1], pending) : pending);
          break;
        case OpKind::For: case OpKind::While:
          pending = loop(op, pending);
          break;
        case OpKind::Break: case OpKind::Continue:
          loops_.back().jumps.insert(pending.begin(), pending.end());
          break;
        case OpKind::Return:
          pending.clear();  // nothing after it runs
          break;
        default:
          break;
      }
    }
    return pending;
  }

 private:
  struct Loop { Pending jumps; };  // the state at its breaks and continues

  // The body runs again and again: what is pending at the end of one iteration meets the start
  // of the next, so walk it until that state stops growing. Each loop remembers its answer for
  // an input: the outer loops' rounds ask again with the same one, and nests are deep.
  Pending loop(const Op& op, const Pending& in) {
    auto key = std::make_pair(&op, in);
    if (auto it = loop_exits_.find(key); it != loop_exits_.end()) return it->second;
    const bool is_while = op.kind == OpKind::While;
    // Past a few rounds or the walk's budget (pathological nests), one last round from a start
    // that already holds every access of the body: more barriers than needed, never fewer.
    bool conservative = visits_left_ == 0;
    Pending back = conservative ? accesses_within(op) : Pending{}, exit;
    for (int round = 0;; ++round) {
      loops_.push_back({});
      Pending start = merged(in, back);
      Pending after_cond = is_while ? walk(op.regions[0], start) : start;
      Pending body_end = walk(op.regions[is_while ? 1 : 0], after_cond);
      const Pending jumps = std::move(loops_.back().jumps);  // walk may have grown loops_: look now
      loops_.pop_back();
      Pending end = merged(body_end, jumps);
      exit = merged(is_while ? after_cond : merged(in, end), jumps);
      if (end == back || conservative) break;
      back = merged(back, end);
      if (visits_left_ == 0 || round == 7) {
        conservative = true;
        back = merged(back, accesses_within(op));
      }
    }
    loop_exits_.emplace(std::move(key), exit);
    return exit;
  }

  Pending accesses_within(const Op& loop) const {
    Pending all;
    for (const ir::Block& r : loop.regions)
      ir::for_each_op(r, [&](const Op& op) {
        for (const Access& a : accesses_of(op)) all.insert(a);
      });
    return all;
  }

  // The kernel parameters an access of `param` may touch: a list for its items, the viewed
  // array for a slice, every candidate of a run-time choice.
  void roots(int param, std::vector<int>& out) const {
    const ir::ArrayParam& a = fn_.arrays[param];
    if (a.slice_of >= 0) return roots(a.slice_of, out);
    if (a.list_of >= 0) return roots(a.list_of, out);
    if (a.select_of.empty()) return out.push_back(param);
    for (int candidate : a.select_of) roots(candidate, out);
  }

  std::vector<Access> touching(const Op& op, std::initializer_list<int> params, bool writes) const {
    std::vector<int> arrays;
    for (int p : params) roots(p, arrays);
    std::vector<Access> out;
    for (int a : arrays) out.push_back({&op, a, writes});
    return out;
  }

  std::vector<Access> accesses_of(const Op& op) const {
    switch (op.kind) {
      case OpKind::Load: case OpKind::Gather: return touching(op, {op.param}, false);
      case OpKind::Store: case OpKind::Scatter: case OpKind::Atomic: return touching(op, {op.param}, true);
      case OpKind::GemmLoop: case OpKind::AttentionLoop: return touching(op, {op.param, op.param_b}, false);
      default: return {};
    }
  }

  // A tile load or store of a parameter, as the layout deals it out (not read by a broadcast in
  // the broadcast's layout instead).
  bool dealt_by_layout(const Op& op) const {
    if ((op.kind != OpKind::Load && op.kind != OpKind::Store) || op.tile_shape.empty()) return false;
    return op.kind == OpKind::Store || !broadcast_loads_.absorbed.count(op.results[0]);
  }

  static std::vector<int> axis_order(const Op& op) {
    if (!op.order.empty()) return op.order;
    std::vector<int> identity(op.tile_shape.size());
    for (size_t k = 0; k < identity.size(); ++k) identity[k] = static_cast<int>(k);
    return identity;
  }

  // Every element of the array goes to the same thread in both: the same array cut into tiles of
  // one shape, walked in one order (an element's place in its tile fixes its thread).
  bool same_owners(const Op& a, const Op& b) const {
    return dealt_by_layout(a) && dealt_by_layout(b) && a.param == b.param && a.tile_shape == b.tile_shape &&
           axis_order(a) == axis_order(b);
  }

  static bool commuting_atomics(const Op& a, const Op& b) {
    if (a.kind != OpKind::Atomic || b.kind != OpKind::Atomic || a.atomic != b.atomic) return false;
    return a.atomic != ir::AtomicKind::Xchg && a.atomic != ir::AtomicKind::Cas;
  }

  bool conflict(const Access& earlier, const Access& later) const {
    return earlier.array == later.array && (earlier.writes || later.writes) && !same_owners(*earlier.op, *later.op) &&
           !commuting_atomics(*earlier.op, *later.op);
  }

  const ir::Function& fn_;
  const BroadcastLoads& broadcast_loads_;
  std::vector<Loop> loops_;
  std::map<std::pair<const Op*, Pending>, Pending> loop_exits_;
  long visits_left_ = 1'000'000;  // ops walked before loops stop iterating (see loop())
};

}  // namespace

ArrayBarriers find_array_barriers(const ir::Function& fn, const BroadcastLoads& broadcast_loads) {
  Walker walker(fn, broadcast_loads);
  walker.walk(fn.body, {});
  return walker.barriers;
}

}  // namespace tile2cu
