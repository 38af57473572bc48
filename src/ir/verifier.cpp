#include "ir/verifier.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <unordered_set>

namespace tile2cu::ir {

namespace {

class Verifier {
 public:
  explicit Verifier(const Function& fn) : fn_(fn) {}

  void run() { block(fn_.body, {}, /*in_loop=*/false); }

 private:
  [[noreturn]] void error(const Op& op, const std::string& what) const {
    throw std::logic_error(fmt::format("IR verifier: {} op (line {}): {}", op_kind_name(op.kind),
                                       op.loc.line, what));
  }

  void define(ValueId v, std::unordered_set<ValueId>& scope, const Op* op) {
    if (v < 0 || v >= static_cast<ValueId>(fn_.values.size()))
      throw std::logic_error(fmt::format("IR verifier: value %{} out of range", v));
    if (defined_.count(v)) {
      if (op) error(*op, fmt::format("value %{} defined twice", v));
      throw std::logic_error(fmt::format("IR verifier: value %{} defined twice", v));
    }
    defined_.insert(v);
    scope.insert(v);
  }

  const TileType& type(ValueId v) const { return fn_.type(v); }

  void expect(bool ok, const Op& op, const char* what) const {
    if (!ok) error(op, what);
  }

  void block(const Block& b, std::unordered_set<ValueId> visible, bool in_loop) {
    for (ValueId a : b.args) define(a, visible, nullptr);
    for (const Op& op : b.ops) {
      for (ValueId v : op.operands)
        if (!visible.count(v)) error(op, fmt::format("operand %{} is not visible here", v));
      check(op, in_loop);
      for (size_t r = 0; r < op.regions.size(); ++r) {
        bool loop_body = op.kind == OpKind::For || op.kind == OpKind::While;
        block(op.regions[r], visible, loop_body || in_loop);
      }
      for (ValueId v : op.results) define(v, visible, &op);
    }
  }

  void check(const Op& op, bool in_loop) {
    auto n = op.operands.size();
    switch (op.kind) {
      case OpKind::Binary:
        expect(n == 2 && type(op.operands[0]) == type(op.operands[1]), op, "operand types differ");
        expect(op.results.size() == 1 && type(op.results[0]) == type(op.operands[0]), op,
               "result type differs from operands");
        break;
      case OpKind::Compare:
        expect(n == 2 && type(op.operands[0]) == type(op.operands[1]), op, "operand types differ");
        expect(type(op.results[0]).dtype == DType::Bool &&
                   type(op.results[0]).shape == type(op.operands[0]).shape,
               op, "result must be bool of the operand shape");
        break;
      case OpKind::Unary:
        expect(n == 1 && type(op.results[0]).shape == type(op.operands[0]).shape, op,
               "shape changed");
        break;
      case OpKind::Convert:
        expect(n == 1 && type(op.results[0]).shape == type(op.operands[0]).shape, op,
               "shape changed");
        break;
      case OpKind::Select:
        expect(n == 3 && type(op.operands[0]).dtype == DType::Bool, op, "condition must be bool");
        expect(type(op.operands[1]) == type(op.operands[2]) &&
                   type(op.operands[1]) == type(op.results[0]) &&
                   type(op.operands[0]).shape == type(op.results[0]).shape,
               op, "operand types differ");
        break;
      case OpKind::Broadcast: {
        const Shape& from = type(op.operands[0]).shape;
        const Shape& to = type(op.results[0]).shape;
        if (from.empty()) break;  // a scalar splats to any shape
        expect(from.size() == to.size(), op, "broadcast keeps the rank");
        for (size_t i = 0; i < from.size(); ++i)
          expect(from[i] == to[i] || from[i] == 1, op, "dims must match or be 1");
        break;
      }
      case OpKind::Reduce: {
        const Shape& from = type(op.operands[0]).shape;
        int64_t kept = shape_elements(from);
        for (int a : op.axes) {
          expect(a >= 0 && a < static_cast<int>(from.size()), op, "reduction axis out of range");
          kept /= from[a];
        }
        combiner(op);
        expect(op.results.size() == n, op, "one result per operand");
        for (size_t i = 0; i < n && i < op.results.size(); ++i) {
          expect(shape_elements(type(op.results[i]).shape) == kept, op, "result must hold one element per kept index");
          expect(op.arg ? type(op.results[i]).dtype == DType::Int32 : type(op.results[i]).dtype == type(op.operands[i]).dtype,
                 op, "reductions keep the dtype; argmax/argmin give int32");
        }
        break;
      }
      case OpKind::Scan:
        combiner(op);
        expect(op.results.size() == n, op, "one result per operand");
        for (size_t i = 0; i < n && i < op.results.size(); ++i)
          expect(type(op.results[i]) == type(op.operands[i]), op, "a scan keeps the type");
        expect(op.axis >= 0 && op.axis < static_cast<int>(type(op.operands[0]).shape.size()), op, "scan axis out of range");
        break;
      case OpKind::Permute: {
        const Shape& from = type(op.operands[0]).shape;
        const Shape& to = type(op.results[0]).shape;
        expect(n == 1 && op.order.size() == from.size() && to.size() == from.size(), op, "one axis per dim");
        for (size_t i = 0; i < to.size(); ++i)
          expect(op.order[i] >= 0 && op.order[i] < static_cast<int>(from.size()) && to[i] == from[op.order[i]], op,
                 "result dim i must be operand dim order[i]");
        break;
      }
      case OpKind::Cat: {
        const TileType &a = type(op.operands[0]), &b = type(op.operands[1]), &r = type(op.results[0]);
        expect(n == 2 && a.dtype == b.dtype && a.dtype == r.dtype && a.shape.size() == r.shape.size(), op,
               "cat joins two tiles of one dtype and rank");
        for (size_t i = 0; i < r.shape.size(); ++i)
          expect(static_cast<int>(i) == op.axis ? r.shape[i] == a.shape[i] + b.shape[i]
                                                : a.shape[i] == r.shape[i] && b.shape[i] == r.shape[i],
                 op, "cat: dims must agree off the axis and add up on it");
        break;
      }
      case OpKind::Extract: case OpKind::Insert: {
        const TileType& x = type(op.operands[0]);
        size_t first_index = op.kind == OpKind::Extract ? 1 : 2;
        const TileType& part = type(op.kind == OpKind::Extract ? op.results[0] : op.operands[1]);
        expect(n == first_index + x.shape.size(), op, "one grid index per axis");
        expect(part.dtype == x.dtype, op, "the sub-tile keeps the dtype");
        expect(part.is_scalar() || part.shape.size() == x.shape.size(), op, "the sub-tile keeps the rank");
        for (size_t i = 0; i < part.shape.size(); ++i)
          expect(x.shape[i] % part.shape[i] == 0, op, "the sub-tile shape must divide the tile shape");
        if (op.kind == OpKind::Insert) expect(type(op.results[0]) == x, op, "insert keeps the type");
        break;
      }
      case OpKind::Bitcast:
        expect(n == 1 && type(op.results[0]).shape == type(op.operands[0]).shape &&
                   dtype_bits(type(op.results[0]).dtype) == dtype_bits(type(op.operands[0]).dtype),
               op, "bitcast keeps the shape and the bit width");
        break;
      case OpKind::Reinterpret:
        expect(n == 1 && type(op.results[0]).shape.size() == 1 &&
                   shape_elements(type(op.results[0]).shape) * dtype_bits(type(op.results[0]).dtype) ==
                       shape_elements(type(op.operands[0]).shape) * dtype_bits(type(op.operands[0]).dtype),
               op, "reinterpret keeps the bytes and gives a rank-1 tile");
        break;
      case OpKind::Reshape:
        expect(shape_elements(type(op.operands[0]).shape) ==
                   shape_elements(type(op.results[0]).shape),
               op, "element count changed");
        break;
      case OpKind::Load: {
        const ArrayParam& a = fn_.arrays.at(op.param);
        expect(!a.is_list, op, "loads from an array, not a list");
        expect(static_cast<int>(n) == a.rank, op, "one index per array axis");
        expect(op.tile_shape.empty() || static_cast<int>(op.tile_shape.size()) == a.rank, op,
               "tile shape rank");
        expect(type(op.results[0]).dtype == a.dtype, op, "load keeps the array dtype");
        break;
      }
      case OpKind::Store: {
        const ArrayParam& a = fn_.arrays.at(op.param);
        expect(!a.is_list, op, "stores to an array, not a list");
        expect(static_cast<int>(n) == a.rank + 1, op, "one index per array axis, then the tile");
        expect(type(op.operands.back()).dtype == a.dtype, op, "store value dtype must match");
        break;
      }
      case OpKind::Gather: case OpKind::Scatter: case OpKind::Atomic:
        element_access(op);
        break;
      case OpKind::For:
        expect(n >= 3 && op.regions.size() == 1, op, "for needs bounds and one region");
        expect(op.regions[0].args.size() == n - 2, op, "iv + one arg per carried value");
        expect(op.results.size() == n - 3, op, "one result per carried value");
        terminator(op.regions[0], OpKind::Yield, op.results.size(), op);
        break;
      case OpKind::If:
        expect(n == 1 && type(op.operands[0]) == TileType{DType::Bool, {}}, op,
               "if takes a bool scalar");
        for (const Block& r : op.regions) terminator(r, OpKind::Yield, op.results.size(), op);
        break;
      case OpKind::While:
        expect(op.regions.size() == 2, op, "while has cond and body regions");
        terminator(op.regions[0], OpKind::Condition, 1, op);
        terminator(op.regions[1], OpKind::Yield, op.results.size(), op);
        break;
      case OpKind::Break: case OpKind::Continue:
        expect(in_loop, op, "outside a loop");
        break;
      case OpKind::ListItem: {
        const ArrayParam& item = fn_.arrays.at(op.param);
        expect(item.list_of >= 0 && fn_.arrays.at(item.list_of).is_list, op, "defines an item of a list parameter");
        expect(n == 1 && type(op.operands[0]) == TileType{DType::Int32, {}}, op, "takes an int32 index");
        break;
      }
      case OpKind::Print:
        expect(op.text.size() == 2 * n + 1, op, "one conversion per printed value");
        break;
      case OpKind::Assert:
        expect(n == 1 && type(op.operands[0]).dtype == DType::Bool && op.text.size() == 1, op,
               "asserts a bool tile with a message");
        break;
      case OpKind::ListLength:
        expect(fn_.arrays.at(op.param).is_list, op, "takes a list parameter");
        break;
      case OpKind::ArraySlice: {
        const ArrayParam& view = fn_.arrays.at(op.param);
        expect(view.slice_of >= 0 && view.slice_of < op.param, op, "defines a view of an earlier array");
        const ArrayParam& source = fn_.arrays.at(view.slice_of);
        expect(!source.is_list && source.dtype == view.dtype && source.rank == view.rank, op,
               "keeps the array's dtype and rank");
        expect(op.axis >= 0 && op.axis < view.rank, op, "slices an axis of the array");
        expect(n == 2 && op.results.empty(), op, "takes start and stop");
        for (ValueId v : op.operands)
          expect(type(v).is_scalar() && is_signed_integer(type(v).dtype), op, "bounds are signed-integer scalars");
        break;
      }
      case OpKind::ArraySelect: {
        const ArrayParam& choice = fn_.arrays.at(op.param);
        expect(choice.select_of.size() >= 2, op, "chooses between two arrays or more");
        for (int c : choice.select_of) {
          expect(c >= 0 && c < op.param, op, "chooses between earlier arrays");
          const ArrayParam& candidate = fn_.arrays.at(c);
          expect(!candidate.is_list && candidate.dtype == choice.dtype && candidate.rank == choice.rank, op,
                 "candidates share the choice's dtype and rank");
        }
        expect(n == 1 && op.results.empty() && type(op.operands[0]) == TileType{DType::Int32, {}}, op,
               "takes the candidate's index (int32)");
        break;
      }
      case OpKind::GemmLoop: {
        const ArrayParam& a = fn_.arrays.at(op.param);
        const ArrayParam& b = fn_.arrays.at(op.param_b);
        expect(static_cast<int>(n) == 2 + a.rank + b.rank + 1, op, "k bounds, A index, B index, acc");
        expect(type(op.results[0]) == type(op.operands.back()), op, "result must have acc's type");
        expect(op.stages >= 2, op, "a pipeline needs two stages or more");
        break;
      }
      case OpKind::AttentionLoop: {
        const ArrayParam& k = fn_.arrays.at(op.param);
        const ArrayParam& v = fn_.arrays.at(op.param_b);
        expect(static_cast<int>(n) == 3 + k.rank + v.rank + 3 && op.results.size() == 3, op,
               "j bounds, q, K index, V index, m, l, acc inits; m, l, acc back");
        for (size_t i = 0; i < 3 && op.results.size() == 3; ++i)
          expect(type(op.results[i]) == type(op.operands[n - 3 + i]), op, "results have the inits' types");
        expect(op.stages >= 2, op, "a pipeline needs two stages or more");
        expect(op.regions.size() == 2 && op.regions[0].args.size() == 3 && op.regions[1].args.size() == 5, op,
               "a mask region of (row, col, j) and a score region of (s, row, col, j, interior)");
        if (op.regions.size() != 2) break;
        terminator(op.regions[0], OpKind::Yield, 1, op);
        expect(type(op.regions[0].ops.back().operands[0]) == TileType{DType::Bool, {}}, op,
               "the mask region gives back one bool");
        terminator(op.regions[1], OpKind::Yield, 1, op);
        expect(type(op.regions[1].ops.back().operands[0]) == TileType{DType::Float32, {}}, op,
               "the score region gives back one float32");
        break;
      }
      case OpKind::Mma: {
        expect(n == 3 && type(op.results[0]) == type(op.operands[2]), op, "result must have acc's type");
        const Shape& x = type(op.operands[0]).shape;
        const Shape& y = type(op.operands[1]).shape;
        const Shape& acc = type(op.operands[2]).shape;
        bool ranks = x.size() >= 2 && x.size() == y.size() && x.size() == acc.size();
        expect(ranks, op, "x, y and acc need one rank, at least 2");
        size_t r = x.size();
        expect(x[r - 1] == y[r - 2] && acc[r - 2] == x[r - 2] && acc[r - 1] == y[r - 1], op,
               "shapes must be [..., M, K] x [..., K, N] -> [..., M, N]");
        for (size_t i = 0; i + 2 < r; ++i)
          expect(x[i] == acc[i] && y[i] == acc[i], op, "batch dims must be equal (sema broadcasts them)");
        break;
      }
      default:
        break;
    }
  }

  // A user combiner (Reduce / Scan with a region) over N operands of one shape: 2N scalar args
  // (the first N one side's values, the last N the other's), N scalars back, N identities.
  // Without a region: one operand.
  void combiner(const Op& op) {
    const size_t n = op.operands.size();
    if (op.regions.empty()) {
      expect(n == 1, op, "a built-in reduction or scan takes one operand");
      return;
    }
    expect(n >= 1 && op.regions.size() == 1 && op.identities.size() == n, op, "one identity per operand");
    for (ValueId v : op.operands)
      expect(type(v).shape == type(op.operands[0]).shape, op, "the operands of a combiner share one shape");
    const Block& r = op.regions[0];
    expect(r.args.size() == 2 * n, op, "a combiner takes two values per operand");
    for (size_t i = 0; i < r.args.size(); ++i)
      expect(type(r.args[i]) == TileType{type(op.operands[i % n]).dtype, {}}, op,
             "combiner arguments are scalars of their operand's dtype");
    terminator(r, OpKind::Yield, n, op);
    for (size_t i = 0; i < n; ++i)
      expect(type(r.ops.back().operands[i]) == TileType{type(op.operands[i]).dtype, {}}, op,
             "a combiner gives back one scalar of each operand's dtype");
  }

  // Gather/Scatter/Atomic: integer indices, one per axis, each a scalar or of the access shape;
  // then the op's own operands (see OpKind), scalars or of that shape too.
  void element_access(const Op& op) {
    const ArrayParam& a = fn_.arrays.at(op.param);
    const size_t indices = op.raw_offset ? 1 : static_cast<size_t>(a.rank);
    const bool atomic_mask = op.kind == OpKind::Atomic && op.raw_offset;
    size_t extra = op.kind == OpKind::Atomic ? (op.atomic == AtomicKind::Cas ? 2 : 1) + atomic_mask : 2;
    expect(op.operands.size() == indices + extra, op,
           op.raw_offset ? "one element offset, then the operands" : "one index per array axis, then the operands");
    Shape access;
    for (ValueId v : op.operands)
      if (!type(v).is_scalar()) access = type(v).shape;
    if (!op.results.empty()) access = type(op.results[0]).shape;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      const TileType& t = type(op.operands[i]);
      expect(t.is_scalar() || t.shape == access, op, "operands must be scalars or of the access shape");
      if (i < indices) expect(is_integer(t.dtype), op, "indices must be integers");
    }
    DType last = type(op.operands.back()).dtype;
    if (op.kind == OpKind::Gather) expect(last == a.dtype && type(op.operands[indices]).dtype == DType::Bool, op, "mask bool, padding of the array dtype");
    if (op.kind == OpKind::Scatter) expect(last == DType::Bool && type(op.operands[indices]).dtype == a.dtype, op, "value of the array dtype, mask bool");
    if (op.kind == OpKind::Atomic) {
      DType update = type(op.operands[op.operands.size() - 1 - atomic_mask]).dtype;
      expect(update == a.dtype && (!atomic_mask || last == DType::Bool), op, "update of the array dtype (then a bool mask)");
    }
    if (op.kind != OpKind::Scatter) expect(op.results.size() == 1 && type(op.results[0]).dtype == a.dtype, op, "result of the array dtype");
  }

  // Whether control never reaches the end of `b`: it ends in break/continue/return, or in an
  // if all of whose branches leave that way (`if c: break` / `else: continue` in a loop body).
  static bool always_leaves(const Block& b) {
    if (b.ops.empty()) return false;
    const Op& last = b.ops.back();
    if (last.kind == OpKind::Break || last.kind == OpKind::Continue || last.kind == OpKind::Return)
      return true;
    if (last.kind != OpKind::If) return false;
    for (const Block& r : last.regions)
      if (!always_leaves(r)) return false;
    return true;
  }

  void terminator(const Block& b, OpKind kind, size_t operands, const Op& parent) {
    // A region that always leaves by a jump yields nothing.
    if (b.ops.empty()) error(parent, "empty region");
    if (always_leaves(b)) return;
    const Op& last = b.ops.back();
    if (last.kind != kind) error(parent, fmt::format("region must end in {}", op_kind_name(kind)));
    if (last.operands.size() != operands) error(parent, "terminator operand count");
  }

  const Function& fn_;
  std::unordered_set<ValueId> defined_;
};

}  // namespace

void verify(const Function& fn) { Verifier(fn).run(); }

}  // namespace tile2cu::ir
