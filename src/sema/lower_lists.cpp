// Lists of arrays as kernel parameters (spec a.3, h.14): `xs[i]` with a run-time index and
// `len(xs)`. An item becomes an entry of Function::arrays defined by a ListItem op, so loads,
// stores and shape queries treat it like any array parameter.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

Value KernelLowering::list_item(const ListValue& list, const Value& index, SourceRange index_range,
                                SourceRange range) {
  auto dt = value_dtype(index);
  if (!dt || !value_shape(index).empty() || index.is<LooseFloat>() || index.is<LooseBool>() ||
      (index.is<Runtime>() && !is_integer(*dt)))
    error(ErrorKind::Type, index_range,
          fmt::format("a list of arrays is indexed by an integer scalar, got {}", describe(index)));
  if (auto* i = index.as<LooseInt>(); i && i->value < 0)
    error(ErrorKind::Type, index_range, "a list of arrays is indexed from 0; negative indices are not supported");
  ir::ValueId id = to_runtime(index, index_range);
  if (type_of(id).dtype != DType::Int32) id = convert(id, DType::Int32);
  ir::ArrayParam item = fn_.arrays[list.param];
  item.is_list = false;
  item.written = false;
  item.list_of = list.param;
  item.name = fmt::format("{}_item{}", item.name, fn_.arrays.size());
  fn_.arrays.push_back(item);
  const int param = static_cast<int>(fn_.arrays.size() - 1);
  auto_named_views_.insert(param);
  ir::Op op = make_op(ir::OpKind::ListItem, {id});
  op.param = param;
  op.loc = stmt_range_;
  emit(std::move(op), {});
  (void)range;
  return make(ArrayValue{param});
}

Value KernelLowering::list_length(const ListValue& list, SourceRange range) {
  (void)range;
  ir::Op op = make_op(ir::OpKind::ListLength);
  op.param = list.param;
  return make(Runtime{emit1(std::move(op), {DType::Int32, {}})});
}

void KernelLowering::name_array_view(int param, const std::string& name) {
  // An item or slice view takes the Python name it is bound to first, unless another array or a
  // scalar parameter already has it.
  if (!auto_named_views_.count(param)) return;
  for (const auto& a : fn_.arrays)
    if (a.name == name) return;
  for (const auto& s : fn_.scalars)
    if (s.name == name) return;
  fn_.arrays[param].name = name;
  auto_named_views_.erase(param);
}

}  // namespace tile2cu::sema
