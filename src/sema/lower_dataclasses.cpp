// Frozen dataclasses in tile code (spec a, the syntax table): an instance is a compile-time
// record of values (DataclassValue), built by the generated __init__, read by attribute,
// copied by dataclasses.replace. User methods, properties and dunders are helpers inlined
// with the instance as their first argument. Nothing of it reaches the IR but its fields.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

Value bind_method(const FunctionValue& f, const Value& self) {
  FunctionValue bound = f;
  bound.bound_self = std::make_shared<const Value>(self);
  return make(std::move(bound));
}

}  // namespace

// The generated __init__: arguments bound as Python's inspect.Signature.bind binds them (with
// its messages, as cuTile reports them), then __post_init__ if the class has one.
Value KernelLowering::construct_dataclass(const ClassValue& c, const CallArgs& args, SourceRange range) {
  const ClassInfo& cls = *c.cls;
  // The class's own reason first: a plain subclass of a dataclass is refused as such.
  if (cls.unusable) {
    // Host Python would make it inside static_eval; cuTile refuses the instance it returns.
    error_of_the_value_ = static_eval_depth_ > 0;
    error(cls.unusable->first, range, cls.unusable->second);
  }
  if (!cls.is_dataclass)
    error(ErrorKind::UnsupportedCall, range,
          fmt::format("Creating instances of type \"{}\" is not supported in device code", cls.name));
  auto fail = [&](SourceRange r, const std::string& why) {  // at the call, as cuTile reports it
    error(ErrorKind::Type, r, fmt::format("{}(): {}", cls.name, why));
  };
  std::vector<std::optional<Value>> values(cls.fields.size());
  size_t next = 0;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    while (next < cls.fields.size() && cls.fields[next].kw_only) ++next;
    if (next == cls.fields.size()) fail(range, "too many positional arguments");
    values[next++] = args.positional[i];
  }
  for (size_t i = 0; i < args.keywords.size(); ++i) {
    const auto& [name, v] = args.keywords[i];
    int k = cls.field_index(name);
    if (k < 0) fail(range, fmt::format("got an unexpected keyword argument '{}'", name));
    if (values[k]) fail(range, fmt::format("multiple values for argument '{}'", name));
    values[k] = v;
  }
  std::vector<Value> fields;
  for (size_t k = 0; k < cls.fields.size(); ++k) {
    if (!values[k]) {
      const auto& dflt = cls.fields[k].default_value;
      if (!dflt) fail(range, fmt::format("missing a required argument: '{}'", cls.fields[k].name));
      if (auto* p = dflt->as<PoisonValue>()) error(p->kind, range, p->message);
      values[k] = *dflt;
    }
    fields.push_back(std::move(*values[k]));
  }
  Value instance = make(DataclassValue{c.cls, std::move(fields)});
  if (const Value* post = cls.find("__post_init__")) {
    if (auto* f = post->as<FunctionValue>()) call_function(*f, CallArgs{{instance}, {range}, {}, {}}, range);
  }
  return instance;
}

// A field, else what the class says: a method bound to the instance, a property's value, a
// class-level constant.
Value KernelLowering::dataclass_attribute(const Value& self, const std::string& attr, SourceRange range) {
  const DataclassValue& d = *self.as<DataclassValue>();
  if (int k = d.cls->field_index(attr); k >= 0) return d.fields[k];
  const Value* v = d.cls->find(attr);
  if (!v) error(ErrorKind::Type, range, fmt::format("'{}' object has no attribute '{}'", d.cls->name, attr));
  if (auto* p = v->as<PoisonValue>()) error(p->kind, range, p->message);
  if (auto* f = v->as<FunctionValue>()) {
    if (d.cls->is_property(attr)) return call_function(*f, CallArgs{{self}, {range}, {}, {}}, range);
    return bind_method(*f, self);
  }
  return *v;
}

// `Cfg.X`: class-level names only (a field without a default is no class attribute).
Value KernelLowering::class_attribute(const ClassValue& c, const std::string& attr, SourceRange range) const {
  const Value* v = c.cls->find(attr);
  if (!v) error(ErrorKind::Type, range, fmt::format("'{}' object has no attribute '{}'", c.cls->name, attr));
  if (auto* p = v->as<PoisonValue>()) error(p->kind, range, p->message);
  return *v;
}

std::optional<Value> KernelLowering::call_dunder(const Value& self, const char* name, std::vector<Value> args,
                                                 SourceRange range) {
  auto* d = self.as<DataclassValue>();
  if (!d) return std::nullopt;
  const Value* v = d->cls->find(name);
  if (!v) return std::nullopt;
  if (auto* p = v->as<PoisonValue>()) error(p->kind, range, p->message);
  auto* f = v->as<FunctionValue>();
  if (!f) error(ErrorKind::Type, range, fmt::format("'{}'.{} is not a method", d->cls->name, name));
  CallArgs call_args;
  call_args.positional.push_back(self);
  call_args.positional_ranges.push_back(range);
  for (auto& a : args) {
    call_args.positional.push_back(std::move(a));
    call_args.positional_ranges.push_back(range);
  }
  return call_function(*f, std::move(call_args), range);
}

// dataclasses.replace(obj, **changes): a new instance through the generated __init__.
Value KernelLowering::dataclass_replace(const CallArgs& args, SourceRange range) {
  if (args.positional.size() != 1)
    error(ErrorKind::Type, range, "dataclasses.replace() takes the instance as its one positional argument");
  auto* d = args.positional[0].as<DataclassValue>();
  if (!d)
    error(ErrorKind::Type, args.positional_ranges[0],
          fmt::format("dataclasses.replace() expects a dataclass instance, got {}", describe(args.positional[0])));
  CallArgs init;
  for (size_t k = 0; k < d->fields.size(); ++k) {
    const std::string& name = d->cls->fields[k].name;
    auto change = std::find_if(args.keywords.begin(), args.keywords.end(),
                               [&](const auto& kw) { return kw.first == name; });
    init.keywords.emplace_back(name, change == args.keywords.end() ? d->fields[k] : change->second);
    init.keyword_ranges.push_back(change == args.keywords.end() ? range
                                  : args.keyword_ranges[change - args.keywords.begin()]);
  }
  for (size_t i = 0; i < args.keywords.size(); ++i)
    if (d->cls->field_index(args.keywords[i].first) < 0)
      error(ErrorKind::Type, range,
            fmt::format("Dataclass '{}' has no such field '{}'", d->cls->name, args.keywords[i].first));
  return construct_dataclass(ClassValue{d->cls}, init, range);
}

// == and != of the generated __eq__: instances of one class are equal when all their fields
// are (folded where the fields are constants, a run-time bool otherwise); an instance never
// equals anything else. A user's __eq__ / __ne__ / ordering dunder is called instead.
std::optional<Value> KernelLowering::compare_dataclasses(ast::CompareOp op, const Value& lhs, const Value& rhs,
                                                         SourceRange range) {
  using ast::CompareOp;
  const bool swapped = !lhs.is<DataclassValue>();
  if (swapped && !rhs.is<DataclassValue>()) return std::nullopt;
  if (swapped && op != CompareOp::Eq && op != CompareOp::NotEq) return std::nullopt;
  const Value& self = swapped ? rhs : lhs;
  const Value& other = swapped ? lhs : rhs;
  const DataclassValue& a = *self.as<DataclassValue>();
  static const std::map<CompareOp, const char*> kDunders = {
      {CompareOp::Eq, "__eq__"}, {CompareOp::NotEq, "__ne__"}, {CompareOp::Lt, "__lt__"},
      {CompareOp::Le, "__le__"}, {CompareOp::Gt, "__gt__"}, {CompareOp::Ge, "__ge__"}};
  const char* dunder = kDunders.at(op);
  if (auto v = call_dunder(self, dunder, {other}, range)) return v;
  const bool equality = op == CompareOp::Eq || op == CompareOp::NotEq;
  if (op == CompareOp::NotEq && a.cls->find("__eq__"))  // Python's default __ne__ negates __eq__
    return unary(ast::UnaryOp::Not, *call_dunder(self, "__eq__", {other}, range), range);
  if (!equality || !a.cls->eq)
    error(ErrorKind::Type, range,
          fmt::format("Unsupported operand types for {}: {} and {}", ast::compare_op_token(op),
                      describe(lhs), describe(rhs)));
  const bool want_equal = op == CompareOp::Eq;
  auto* b = other.as<DataclassValue>();
  if (!b || b->cls != a.cls) return make(LooseBool{!want_equal});
  std::optional<ir::ValueId> acc;  // the run-time part, when some field is a tile
  for (size_t k = 0; k < a.fields.size(); ++k) {
    Value c = compare(op, a.fields[k], b->fields[k], range);
    bool constant = false;
    bool holds = truth(c, range, &constant);  // a tile with more than one element is refused
    if (constant) {
      if (holds != want_equal) return make(LooseBool{!want_equal});  // decided by this field
      continue;
    }
    ir::ValueId bit = to_runtime_as(c, DType::Bool, range);
    if (acc) {
      ir::Op o = make_op(ir::OpKind::Binary, {*acc, bit});
      o.binary = want_equal ? ir::BinaryKind::BitAnd : ir::BinaryKind::BitOr;
      bit = emit1(std::move(o), {DType::Bool, {}});
    }
    acc = bit;
  }
  if (!acc) return make(LooseBool{want_equal});
  return make(Runtime{*acc});
}

// `obj + x` and `x + obj` through __add__ / __radd__ and the other arithmetic dunders.
std::optional<Value> KernelLowering::dataclass_binary(ast::BinaryOp op, const Value& lhs, const Value& rhs,
                                                      SourceRange range) {
  if (!lhs.is<DataclassValue>() && !rhs.is<DataclassValue>()) return std::nullopt;
  static const std::map<ast::BinaryOp, const char*> kNames = {
      {ast::BinaryOp::Add, "add"}, {ast::BinaryOp::Sub, "sub"}, {ast::BinaryOp::Mul, "mul"},
      {ast::BinaryOp::Div, "truediv"}, {ast::BinaryOp::FloorDiv, "floordiv"}, {ast::BinaryOp::Mod, "mod"},
      {ast::BinaryOp::Pow, "pow"}, {ast::BinaryOp::MatMul, "matmul"}, {ast::BinaryOp::BitAnd, "and"},
      {ast::BinaryOp::BitOr, "or"}, {ast::BinaryOp::BitXor, "xor"}, {ast::BinaryOp::LShift, "lshift"},
      {ast::BinaryOp::RShift, "rshift"}};
  std::string name = kNames.at(op);
  if (auto v = call_dunder(lhs, ("__" + name + "__").c_str(), {rhs}, range)) return v;
  if (auto v = call_dunder(rhs, ("__r" + name + "__").c_str(), {lhs}, range)) return v;
  error(ErrorKind::Type, range,
        fmt::format("Unsupported operand types for {}: {} and {}", ast::binary_op_token(op), describe(lhs),
                    describe(rhs)));
}

}  // namespace tile2cu::sema
