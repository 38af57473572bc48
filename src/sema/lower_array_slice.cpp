// Array.slice(axis, start, stop) (spec b.1, b.9): a view of an array narrowed to [start, stop)
// along one axis, no copy. The view becomes an entry of Function::arrays defined by an
// ArraySlice op, so loads, stores, shape queries and further slices treat it like any array.
#include <fmt/format.h>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

ir::ValueId KernelLowering::slice_bound(const Value& v, SourceRange range, const char* what,
                                        std::optional<int64_t>* constant) {
  // cuTile: a signed integer, as a Python int, a scalar or a 0-D tile (not bool, not unsigned).
  if (auto* i = v.as<LooseInt>()) {
    if (i->value < 0) error(ErrorKind::Type, range, fmt::format("Slice {} must be non-negative", what));
    *constant = const_int(v, range, fmt::format("slice {}", what));
    return to_runtime(v, range);
  }
  auto dt = value_dtype(v);
  if (!v.is<Runtime>() || !dt || !is_signed_integer(*dt) || !value_shape(v).empty())
    error(ErrorKind::Type, range,
          fmt::format("Invalid slice {}: Expected a signed integer scalar or a 0D signed integer tile, got {}",
                      what, describe(v)));
  return v.as<Runtime>()->id;
}

Value KernelLowering::array_slice(int source, CallArgs& args, SourceRange range) {
  Bound b(*this, "slice", args, {"axis", "start", "stop"}, {}, 3, range);
  const ir::ArrayParam& src = fn_.arrays[source];
  const int64_t axis_arg = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
  // cuTile's text, the stray closing quote included (its tests match it), as for every axis check.
  if (axis_arg < -src.rank || axis_arg >= src.rank)
    error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", axis_arg, src.rank));
  const int axis = static_cast<int>(axis_arg < 0 ? axis_arg + src.rank : axis_arg);
  std::optional<int64_t> start, stop;
  ir::ValueId start_id = slice_bound(b.at("start"), b.range_of("start"), "start", &start);
  ir::ValueId stop_id = slice_bound(b.at("stop"), b.range_of("stop"), "stop", &stop);
  if (start && stop && *stop < *start)
    error(ErrorKind::Type, b.range_of("stop"),
          fmt::format("Slice stop must be greater than or equal to start, got start={} and stop={}", *start, *stop));
  // 0 <= start < N and stop <= N where N is known at compile time (a static dim).
  if (const auto& n = src.static_dims[axis]) {
    if (start && *start >= *n)
      error(ErrorKind::Type, b.range_of("start"),
            fmt::format("Slice start {} is out of range for axis {} of size {}", *start, axis, *n));
    if (stop && *stop > *n)
      error(ErrorKind::Type, b.range_of("stop"),
            fmt::format("Slice stop {} is out of range for axis {} of size {}", *stop, axis, *n));
  }
  ir::ArrayParam view = src;
  view.written = false;
  view.list_of = -1;
  view.slice_of = source;
  view.aligned16 = false;  // the base moves by start * stride elements
  view.static_dims[axis] = start && stop ? std::optional<int64_t>(*stop - *start) : std::nullopt;
  view.name = fmt::format("{}_slice{}", src.name, fn_.arrays.size());
  fn_.arrays.push_back(view);
  const int param = static_cast<int>(fn_.arrays.size() - 1);
  auto_named_views_.insert(param);
  ir::Op op = make_op(ir::OpKind::ArraySlice, {start_id, stop_id});
  op.param = param;
  op.axis = axis;
  op.loc = stmt_range_;
  emit(std::move(op), {});
  return make(ArrayValue{param});
}

}  // namespace tile2cu::sema
