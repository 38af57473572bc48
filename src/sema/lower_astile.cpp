// ct.astile(value, dtype=...): a scalar becomes a 0-d tile; a nested tuple of scalars becomes the
// tile whose shape is the nesting, element by element in row-major order.
#include <fmt/format.h>

#include <functional>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

Value KernelLowering::astile(CallArgs& args, SourceRange range) {
  Bound b(*this, "astile", args, {"value"}, {"dtype"}, 1, range);
  if (!b.get("dtype")) error(ErrorKind::Type, range, "astile() missing required keyword argument 'dtype'");
  const DType dt = const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
  const Value& value = b.at("value");
  const SourceRange at = b.range_of("value");
  // One element in the tile's dtype: a literal as full() takes its fill value, a runtime scalar
  // converted.
  auto element = [&](const Value& v) {
    if (v.is<LooseFloat>() && !is_float(dt))
      return to_runtime_as(make(LooseInt{int_of_float(v.as<LooseFloat>()->value, at)}), dt, at);
    if (v.is_loose()) return to_runtime_as(v, dt, at);
    return convert(to_runtime(v, at), dt);
  };
  auto is_scalar = [&](const Value& v) { return value_dtype(v).has_value() && value_shape(v).empty(); };
  if (!value.is<TupleValue>()) {
    if (!is_scalar(value))
      error(ErrorKind::Type, at,
            fmt::format("Expected a scalar or (possibly nested) tuple of scalars, got {}", describe(value)));
    return make(Runtime{element(value)});
  }
  // The shape is the nesting: every tuple at one depth has the same power-of-two length.
  ir::Shape shape;
  std::vector<const Value*> leaves;
  std::function<void(const Value&, size_t, const std::string&)> walk = [&](const Value& v, size_t depth,
                                                                           const std::string& path) {
    const auto* t = v.as<TupleValue>();
    if (!t) {
      if (depth != shape.size()) error(ErrorKind::Type, at, fmt::format("Tuple has non-uniform inner shapes at {}", path));
      if (!is_scalar(v)) error(ErrorKind::Type, at, fmt::format("Expected scalar elements at {}, got {}", path, describe(v)));
      leaves.push_back(&v);
      return;
    }
    const int64_t n = static_cast<int64_t>(t->items.size());
    if (depth == shape.size() && leaves.empty()) {  // the first tuple at this depth sets its length
      if (!is_power_of_two(n)) error(ErrorKind::Type, at, fmt::format("Tuple length {} at {} is not a power of 2", n, path));
      shape.push_back(n);
    } else if (depth >= shape.size() || shape[depth] != n) {
      error(ErrorKind::Type, at, fmt::format("Tuple has non-uniform inner shapes at {}", path));
    }
    for (size_t i = 0; i < t->items.size(); ++i) walk(t->items[i], depth + 1, fmt::format("{}[{}]", path, i));
  };
  walk(value, 0, "value");
  // A tile of zeros, then each element inserted at its index (one register write each).
  ir::ValueId tile = broadcast(to_runtime_as(make(LooseInt{0}), dt, at), shape, range);
  for (size_t flat = 0; flat < leaves.size(); ++flat) {
    std::vector<ir::ValueId> operands{tile, element(*leaves[flat])};
    int64_t rest = static_cast<int64_t>(flat);
    std::vector<ir::ValueId> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      index[d] = to_runtime_as(make(LooseInt{rest % shape[d]}), DType::Int32, at);
      rest /= shape[d];
    }
    operands.insert(operands.end(), index.begin(), index.end());
    tile = emit1(make_op(ir::OpKind::Insert, std::move(operands)), {dt, shape});
  }
  return make(Runtime{tile});
}

}  // namespace tile2cu::sema
