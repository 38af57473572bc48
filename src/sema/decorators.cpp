// Decorators that run as Python runs them. A module-level def decorated by a function of the
// user's (`@decorate` where decorate returns a wrapper) is bound to what the decorator returns,
// evaluated when the module is (module_scope.cpp), so a kernel calling it calls the wrapper,
// whose closure holds the original. functools.wraps(f) only copies metadata, which tile code
// has no use for: the function it decorates is what it returns, nested defs included.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

bool is_wraps_decorator(const ast::ExprPtr& decorator) {
  const auto* call = decorator->as<ast::Call>();
  if (!call) return false;
  if (const auto* attr = call->func->as<ast::Attribute>()) return attr->attr == "wraps";
  if (const auto* name = call->func->as<ast::Name>()) return name->id == "wraps";
  return false;
}

Value KernelLowering::decorated_function(const ast::FunctionDef& def, Value f) {
  for (size_t k = def.decorators.size(); k-- > 0;) {
    const ast::ExprPtr& decorator = def.decorators[k];
    Value d = eval(decorator);
    if (auto* b = d.as<BuiltinValue>(); b && b->name == "functools.wraps()") continue;
    if (!d.is<FunctionValue>())
      error(ErrorKind::Syntax, decorator->range, "decorators on nested functions are not supported");
    CallArgs args;
    args.positional.push_back(f);
    args.positional_ranges.push_back(def.name_range);
    f = call(d, std::move(args), decorator->range);
  }
  return f;
}

}  // namespace tile2cu::sema
