#include "ir/passes/cse.hpp"

#include <deque>
#include <map>
#include <tuple>
#include <vector>

namespace tile2cu::ir {

namespace {

// Ops that move a tile's elements between threads: the ones worth sharing. Mma is left alone
// (the loop recognisers match its operands' chain).
bool is_exchange(const Function& fn, const Op& op) {
  if (!op.regions.empty() || op.results.size() != 1 || op.operands.empty()) return false;
  switch (op.kind) {
    case OpKind::Broadcast: case OpKind::Reshape: case OpKind::Permute: case OpKind::Cat:
    case OpKind::Extract: case OpKind::Insert: case OpKind::Reduce: case OpKind::Scan:
      return !fn.type(op.operands[0]).is_scalar();  // a splat of a scalar moves nothing
    default:
      return false;
  }
}

// Ops whose value depends only on their operands and attributes: numbered, so that the
// exchanges reading them compare by value, but left where they are written. Array extents
// count only for parameters: a list item, a slice or a run-time choice is a different array on each visit of the
// op that defines it.
bool is_numbered(const Function& fn, const Op& op) {
  if (!op.regions.empty() || op.results.size() != 1) return false;
  switch (op.kind) {
    case OpKind::ArrayDim: case OpKind::ArrayStride: {
      const ArrayParam& a = fn.arrays.at(static_cast<size_t>(op.param));
      return a.list_of < 0 && a.slice_of < 0 && a.select_of.empty() && !a.is_list;
    }
    case OpKind::Broadcast: case OpKind::Arange: case OpKind::Bitcast: case OpKind::Reinterpret:
      return true;
    default:
      return is_value_arithmetic(op.kind);
  }
}

// What two ops must share to compute the same value (with same_attributes): kind, operands
// by value number, result type.
using Key = std::tuple<OpKind, std::vector<ValueId>, TileType>;

struct KeyLess {
  bool operator()(const Key& a, const Key& b) const {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) < std::get<0>(b);
    if (std::get<1>(a) != std::get<1>(b)) return std::get<1>(a) < std::get<1>(b);
    const TileType& ta = std::get<2>(a);
    const TileType& tb = std::get<2>(b);
    return std::tie(ta.dtype, ta.shape) < std::tie(tb.dtype, tb.shape);
  }
};

// Ops by key; each entry lists the candidates in program order.
using Table = std::map<Key, std::vector<const Op*>, KeyLess>;

class Eliminator {
 public:
  explicit Eliminator(Function& fn)
      : fn_(fn), replacement_(fn.values.size(), kNoValue), number_(fn.values.size(), kNoValue) {}

  void run() { visit(fn_.body); }

 private:
  ValueId resolve(ValueId v) const {
    while (replacement_[static_cast<size_t>(v)] != kNoValue) v = replacement_[static_cast<size_t>(v)];
    return v;
  }
  ValueId number(ValueId v) const {
    return number_[static_cast<size_t>(v)] == kNoValue ? v : number_[static_cast<size_t>(v)];
  }

  // What a block adds to `exchanges_` is taken out again when it ends: it does not dominate what
  // follows the op that owns the block.
  void visit(Block& block) {
    const size_t scope_start = added_.size();
    std::vector<Op> kept;
    kept.reserve(block.ops.size());
    for (Op& op : block.ops) {
      for (ValueId& v : op.operands) v = resolve(v);
      const bool exchange = is_exchange(fn_, op);
      if (exchange) {
        if (const Op* earlier = find(exchanges_, op)) {
          replacement_[static_cast<size_t>(op.results[0])] = earlier->results[0];
          continue;
        }
      } else if (is_numbered(fn_, op)) {
        give_number(op);
      }
      for (Block& region : op.regions) visit(region);
      kept.push_back(std::move(op));
      if (exchange) {  // the pointer stays valid: `kept` was reserved for every op of the block
        auto it = exchanges_.try_emplace(key_of(kept.back())).first;
        it->second.push_back(&kept.back());
        added_.push_back(it);
      }
    }
    while (added_.size() > scope_start) {
      added_.back()->second.pop_back();
      added_.pop_back();
    }
    block.ops = std::move(kept);
  }

  Key key_of(const Op& op) const {
    std::vector<ValueId> operands = op.operands;
    for (ValueId& v : operands) v = number(v);
    return {op.kind, std::move(operands), fn_.type(op.results[0])};
  }

  const Op* find(const Table& table, const Op& op) const {
    auto it = table.find(key_of(op));
    if (it == table.end()) return nullptr;
    for (const Op* candidate : it->second)
      if (same_attributes(*candidate, op)) return candidate;
    return nullptr;
  }

  // The op's value number: the first value computed the same way. Where that value was
  // defined does not matter (it only names the value), so this table is not scoped.
  void give_number(const Op& op) {
    if (const Op* first = find(numbered_, op)) {
      number_[static_cast<size_t>(op.results[0])] = first->results[0];
      return;
    }
    numbered_copies_.push_back(op);  // a copy: `op` moves with its block
    numbered_[key_of(op)].push_back(&numbered_copies_.back());
  }

  Function& fn_;
  std::vector<ValueId> replacement_;    // per value: the earlier exchange result that replaces it
  std::vector<ValueId> number_;         // per numbered value: the first value equal to it
  Table exchanges_;                     // exchanges of the enclosing blocks, in program order
  std::vector<Table::iterator> added_;  // which entry each visible exchange went into, innermost last
  Table numbered_;                      // the first op of each value number
  std::deque<Op> numbered_copies_;      // copies of those ops (stable addresses)
};

}  // namespace

void eliminate_common_subexpressions(Function& fn) { Eliminator(fn).run(); }

}  // namespace tile2cu::ir
