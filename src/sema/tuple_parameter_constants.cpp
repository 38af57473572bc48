// Constants inside a tuple parameter. cuTile makes an item of a tuple argument a compile-time
// constant only where the parameter's annotation says so, item by item
// (`cfg: tuple[ct.Constant[int], int]`, test_tuple_arguments.py's partial-const tests); any
// other number in a tuple is a run-time scalar. An empty tuple holds nothing, so `()` suits
// any parameter.
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// The item annotations of `tuple[A, B]` (also `Tuple[...]`, `typing.Tuple[...]`) when it has
// `n` of them, else none.
std::vector<ast::ExprPtr> tuple_annotation_items(const ast::ExprPtr& annotation, size_t n) {
  auto* sub = annotation ? annotation->as<ast::Subscript>() : nullptr;
  if (!sub) return {};
  auto* name = sub->value->as<ast::Name>();
  auto* attr = sub->value->as<ast::Attribute>();
  if (!(name && (name->id == "tuple" || name->id == "Tuple")) && !(attr && attr->attr == "Tuple")) return {};
  std::vector<ast::ExprPtr> items;
  if (auto* t = sub->index->as<ast::TupleExpr>())
    items = t->elts;
  else
    items.push_back(sub->index);
  if (items.size() != n) return {};
  return items;
}

}  // namespace

bool KernelLowering::annotated_constant(const ast::ExprPtr& annotation) {
  if (!annotation) return false;
  try {
    Value v = eval(annotation);
    return v.is<BuiltinValue>() && v.as<BuiltinValue>()->name == "ct.Constant";
  } catch (const CompileError&) {  // annotations cuTile does not read (torch.Tensor) mark nothing
    return false;
  }
}

bool KernelLowering::constants_annotated(const Constraint& c, const ast::ExprPtr& annotation) {
  if (auto* cc = std::get_if<ConstantConstraint>(&c)) {
    if (annotated_constant(annotation)) return true;
    auto* items = std::get_if<std::vector<ConstantLiteral>>(&cc->value.value);
    if (!items) return false;
    if (items->empty()) return true;
    std::vector<ast::ExprPtr> item_annotations = tuple_annotation_items(annotation, items->size());
    if (item_annotations.empty()) return false;
    for (size_t k = 0; k < items->size(); ++k)
      if (!constants_annotated(ConstantConstraint{(*items)[k]}, item_annotations[k])) return false;
    return true;
  }
  if (auto* t = std::get_if<TupleConstraint>(&c)) {
    std::vector<ast::ExprPtr> item_annotations = tuple_annotation_items(annotation, t->items.size());
    for (size_t k = 0; k < t->items.size(); ++k)
      if (!constants_annotated(t->items[k].constraint, item_annotations.empty() ? ast::ExprPtr{} : item_annotations[k]))
        return false;
  }
  return true;
}

}  // namespace tile2cu::sema
