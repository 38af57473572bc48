#include "ir/passes/attention_mask.hpp"

#include <map>
#include <set>

namespace tile2cu::ir {

namespace {

// How a value of the score region varies over one BM x BN tile.
enum class Shape2D {
  Uniform,  // the same for every element (constants, j, values from outside the region)
  Affine,   // an integer c0 + c1 * row + c2 * col, c0..c2 uniform
  Box,      // a bool that holds on the whole tile iff it holds at the four corners
  Other,
};

class MaskSplitter {
 public:
  MaskSplitter(Function& fn, Block& score) : fn_(fn), score_(score) {}

  Block run(const SourceRange& loc) {
    classify();
    Block mask;
    mask.args = {fn_.new_value({DType::Int32, {}}, "row"), fn_.new_value({DType::Int32, {}}, "col"),
                 fn_.new_value(fn_.type(score_.args[3]), fn_.values[score_.args[3]].name)};
    std::map<ValueId, ValueId> renamed = {
        {score_.args[1], mask.args[0]}, {score_.args[2], mask.args[1]}, {score_.args[3], mask.args[2]}};

    // The conditions that qualify, and every region op they are computed from.
    std::vector<ValueId> conditions;
    for (const Op& op : score_.ops)
      if (op.kind == OpKind::Select && shape_of(op.operands[0]) == Shape2D::Box) conditions.push_back(op.operands[0]);
    std::set<ValueId> needed;
    for (ValueId c : conditions) mark_needed(c, needed);
    for (const Op& op : score_.ops) {
      if (op.results.empty() || !needed.count(op.results[0])) continue;
      Op copy = op;
      for (ValueId& v : copy.operands)
        if (auto it = renamed.find(v); it != renamed.end()) v = it->second;
      for (ValueId& r : copy.results) {
        ValueId fresh = fn_.new_value(fn_.type(r), fn_.values[r].name);
        renamed[r] = fresh;
        r = fresh;
      }
      mask.ops.push_back(std::move(copy));
    }
    ValueId all = kNoValue;
    for (ValueId c : conditions) {
      ValueId mc = renamed.at(c);
      all = all == kNoValue ? mc : append(mask, binary(BinaryKind::BitAnd, all, mc, loc));
    }
    if (all == kNoValue) {
      Op t;
      t.kind = OpKind::Constant;
      t.literal = true;
      t.loc = loc;
      t.results = {fn_.new_value({DType::Bool, {}})};
      all = t.results[0];
      mask.ops.push_back(std::move(t));
    }
    Op y;
    y.kind = OpKind::Yield;
    y.operands = {all};
    y.loc = loc;
    mask.ops.push_back(std::move(y));

    // The score region: `interior | c` in place of each qualifying condition.
    const ValueId interior = fn_.new_value({DType::Bool, {}}, "interior");
    score_.args.push_back(interior);
    std::vector<Op> ops;
    for (Op& op : score_.ops) {
      if (op.kind == OpKind::Select && shape_of(op.operands[0]) == Shape2D::Box) {
        Op either = binary(BinaryKind::BitOr, interior, op.operands[0], op.loc);
        op.operands[0] = either.results[0];
        ops.push_back(std::move(either));
      }
      ops.push_back(std::move(op));
    }
    score_.ops = std::move(ops);
    return mask;
  }

 private:
  Function& fn_;
  Block& score_;
  std::map<ValueId, Shape2D> shape_;
  std::map<ValueId, const Op*> def_;

  Shape2D shape_of(ValueId v) const {
    auto it = shape_.find(v);
    return it == shape_.end() ? Shape2D::Uniform : it->second;  // defined outside the region
  }

  void classify() {
    shape_[score_.args[0]] = Shape2D::Other;  // s: the data
    shape_[score_.args[1]] = Shape2D::Affine;
    shape_[score_.args[2]] = Shape2D::Affine;
    shape_[score_.args[3]] = Shape2D::Uniform;
    for (const Op& op : score_.ops) {
      if (op.results.size() != 1) continue;
      def_[op.results[0]] = &op;
      shape_[op.results[0]] = classify(op);
    }
  }

  Shape2D classify(const Op& op) const {
    bool uniform = true;
    for (ValueId v : op.operands) uniform = uniform && shape_of(v) == Shape2D::Uniform;
    if (uniform && op.regions.empty()) return Shape2D::Uniform;
    const DType result = fn_.type(op.results[0]).dtype;
    auto linear = [&](ValueId v) { return shape_of(v) == Shape2D::Uniform || shape_of(v) == Shape2D::Affine; };
    switch (op.kind) {
      case OpKind::Binary:
        if (op.binary == BinaryKind::BitAnd && result == DType::Bool) {
          for (ValueId v : op.operands)
            if (shape_of(v) != Shape2D::Box && shape_of(v) != Shape2D::Uniform) return Shape2D::Other;
          return Shape2D::Box;
        }
        if (!is_integer(result) || !linear(op.operands[0]) || !linear(op.operands[1])) return Shape2D::Other;
        if (op.binary == BinaryKind::Add || op.binary == BinaryKind::Sub) return Shape2D::Affine;
        if (op.binary == BinaryKind::Mul &&
            (shape_of(op.operands[0]) == Shape2D::Uniform || shape_of(op.operands[1]) == Shape2D::Uniform))
          return Shape2D::Affine;
        return Shape2D::Other;
      case OpKind::Unary:
        return op.unary == UnaryKind::Neg && is_integer(result) && linear(op.operands[0]) ? Shape2D::Affine
                                                                                          : Shape2D::Other;
      case OpKind::Convert: {  // widening between integers keeps the value
        const DType from = fn_.type(op.operands[0]).dtype;
        return is_integer(from) && is_integer(result) && dtype_bytes(result) >= dtype_bytes(from) &&
                       linear(op.operands[0])
                   ? Shape2D::Affine
                   : Shape2D::Other;
      }
      case OpKind::Compare: {
        // != is not convex: it can hold at every corner and fail inside.
        if (op.compare == CompareKind::Ne || !linear(op.operands[0]) || !linear(op.operands[1])) return Shape2D::Other;
        return is_integer(fn_.type(op.operands[0]).dtype) && is_integer(fn_.type(op.operands[1]).dtype)
                   ? Shape2D::Box
                   : Shape2D::Other;
      }
      default:
        return Shape2D::Other;
    }
  }

  void mark_needed(ValueId v, std::set<ValueId>& needed) const {
    auto it = def_.find(v);
    if (it == def_.end() || !needed.insert(v).second) return;
    for (ValueId o : it->second->operands) mark_needed(o, needed);
  }

  Op binary(BinaryKind kind, ValueId a, ValueId b, const SourceRange& loc) {
    Op op;
    op.kind = OpKind::Binary;
    op.binary = kind;
    op.operands = {a, b};
    op.loc = loc;
    op.results = {fn_.new_value({DType::Bool, {}})};
    return op;
  }
  static ValueId append(Block& block, Op op) {
    ValueId r = op.results[0];
    block.ops.push_back(std::move(op));
    return r;
  }
};

}  // namespace

Block split_tile_mask(Function& fn, Block& score, const SourceRange& loc) {
  return MaskSplitter(fn, score).run(loc);
}

}  // namespace tile2cu::ir
