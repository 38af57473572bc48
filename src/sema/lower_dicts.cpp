// Compile-time dicts: `{k: v, **d}` displays, a helper's **kwargs, `f(**d)`. Keys are
// compile-time constants (numbers, strings, enum members, dtypes, functions, tuples of these);
// values are any values, tiles included. A dict is a record decided while the kernel is
// specialized, as a tuple is: lookups, `in`, len and == fold to constants and nothing of the
// dict reaches the IR.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// Python's hashable values that tile code can name; a tile or an array is not one.
bool is_hashable_key(const Value& v) {
  if (v.is_loose() || v.is<NoneValue>() || v.is<StrValue>() || v.is<DTypeValue>() || v.is<EnumValue>() ||
      v.is<EnumClassValue>() || v.is<ClassValue>() || v.is<ModuleValue>() || v.is<FunctionValue>() ||
      v.is<BuiltinValue>())
    return true;
  if (auto* t = v.as<TupleValue>()) {
    for (const Value& item : t->items)
      if (!is_hashable_key(item)) return false;
    return true;
  }
  return false;
}

// Python's key equality: 1, 1.0 and True are one key; functions and classes by identity.
bool same_key(const Value& a, const Value& b) {
  if (constants_equal(a, b)) return true;
  if (a.kind.index() != b.kind.index() || a.is_loose() || a.is<TupleValue>()) return false;
  return same_value(a, b);
}

}  // namespace

std::optional<size_t> dict_find(const DictValue& d, const Value& key) {
  for (size_t i = 0; i < d.keys.size(); ++i)
    if (same_key(d.keys[i], key)) return i;
  return std::nullopt;
}

void KernelLowering::dict_insert(DictValue& d, Value key, Value value, SourceRange key_range) const {
  if (key.is<Runtime>())
    error(ErrorKind::Type, key_range,
          fmt::format("Dictionary keys must be compile-time constants, got {}", describe(key)));
  if (!is_hashable_key(key))
    error(ErrorKind::Type, key_range, fmt::format("unhashable type as a dictionary key: {}", describe(key)));
  if (auto i = dict_find(d, key)) {  // Python keeps the first key and the last value
    d.values[*i] = std::move(value);
    return;
  }
  d.keys.push_back(std::move(key));
  d.values.push_back(std::move(value));
}

Value KernelLowering::dict_display(const ast::DictExpr& display) {
  DictValue d;
  for (const auto& item : display.items) {
    if (!item.key) {  // {**other}
      Value other = eval(item.value);
      auto* o = other.as<DictValue>();
      if (!o)
        error(ErrorKind::Type, item.value->range, fmt::format("'{}' object is not a mapping", describe(other)));
      for (size_t i = 0; i < o->keys.size(); ++i) dict_insert(d, o->keys[i], o->values[i], item.value->range);
      continue;
    }
    Value key = eval(item.key);
    Value value = eval(item.value);
    dict_insert(d, std::move(key), std::move(value), item.key->range);
  }
  return make(std::move(d));
}

Value KernelLowering::dict_item(const DictValue& d, const Value& key, SourceRange key_range) const {
  if (key.is<Runtime>())
    error(ErrorKind::Type, key_range,
          fmt::format("Dictionary keys must be compile-time constants, got {}", describe(key)));
  auto i = dict_find(d, key);
  if (!i) error(ErrorKind::Type, key_range, fmt::format("Key {} not found in dictionary", python_repr(key)));
  return d.values[*i];
}

Value KernelLowering::dict_attribute(const Value& base, const std::string& attr, SourceRange range) const {
  for (const char* m : {"get", "keys", "values", "items"})
    if (attr == m) return make(MethodValue{std::make_shared<const Value>(base), attr});
  error(ErrorKind::Type, range, fmt::format("'dict' object has no attribute '{}'", attr));
}

Value KernelLowering::dict_method(const DictValue& d, const std::string& name, CallArgs& args, SourceRange range) {
  if (!args.keywords.empty())
    error(ErrorKind::Type, args.keyword_ranges[0], fmt::format("dict.{}() takes no keyword arguments", name));
  const size_t n = args.positional.size();
  if (name == "get") {
    if (n < 1 || n > 2) error(ErrorKind::Type, range, fmt::format("dict.get() takes 1 or 2 arguments ({} given)", n));
    if (args.positional[0].is<Runtime>())
      error(ErrorKind::Type, args.positional_ranges[0],
            fmt::format("Dictionary keys must be compile-time constants, got {}", describe(args.positional[0])));
    if (auto i = dict_find(d, args.positional[0])) return d.values[*i];
    return n == 2 ? args.positional[1] : make(NoneValue{});
  }
  if (n != 0) error(ErrorKind::Type, range, fmt::format("dict.{}() takes no arguments ({} given)", name, n));
  // Views are tuples here: tile code only iterates them (ct.static_iter), indexes or measures them.
  if (name == "keys") return make_tuple(d.keys, range);
  if (name == "values") return make_tuple(d.values, range);
  std::vector<Value> items;
  for (size_t i = 0; i < d.keys.size(); ++i) items.push_back(make(TupleValue{{d.keys[i], d.values[i]}}));
  return make_tuple(std::move(items), range);
}

std::optional<Value> KernelLowering::dict_compare(ast::CompareOp op, const Value& lhs, const Value& rhs,
                                                  SourceRange range) {
  using ast::CompareOp;
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    auto* d = rhs.as<DictValue>();
    if (!d) return std::nullopt;
    if (lhs.is<Runtime>())
      error(ErrorKind::Type, range,
            fmt::format("Dictionary keys must be compile-time constants, got {}", describe(lhs)));
    return make(LooseBool{dict_find(*d, lhs).has_value() == (op == CompareOp::In)});
  }
  auto* a = lhs.as<DictValue>();
  auto* b = rhs.as<DictValue>();
  if (!a && !b) return std::nullopt;
  if (op != CompareOp::Eq && op != CompareOp::NotEq)
    error(ErrorKind::Type, range,
          fmt::format("Operator '{}' is not supported for dictionaries", ast::compare_op_token(op)));
  const bool eq = op == CompareOp::Eq;
  if (!a || !b || a->keys.size() != b->keys.size()) return make(LooseBool{!eq});
  // Python's dict ==: the same keys, in any order, with equal values; run-time values
  // compare on the GPU and the answers are and-ed (or-ed for !=).
  std::optional<Value> joined;
  for (size_t i = 0; i < a->keys.size(); ++i) {
    auto j = dict_find(*b, a->keys[i]);
    if (!j) return make(LooseBool{!eq});
    Value answer = compare(op, a->values[i], b->values[*j], range);
    bool constant = false;
    bool v = truth(answer, range, &constant);
    if (constant) {
      if (v != eq) return make(LooseBool{v});
      continue;
    }
    joined = joined ? binary(eq ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, *joined, answer, range) : answer;
  }
  return joined ? *joined : make(LooseBool{eq});
}

void KernelLowering::keywords_from_dict(const Value& v, SourceRange range, CallArgs& args) const {
  auto* d = v.as<DictValue>();
  if (!d) error(ErrorKind::Type, range, fmt::format("argument after ** must be a mapping, not {}", describe(v)));
  for (size_t i = 0; i < d->keys.size(); ++i) {
    auto* name = d->keys[i].as<StrValue>();
    if (!name) error(ErrorKind::Type, range, "keywords must be strings");
    for (const auto& [given, _] : args.keywords)
      if (given == name->value)
        error(ErrorKind::Type, range, fmt::format("got multiple values for keyword argument '{}'", given));
    args.keywords.emplace_back(name->value, d->values[i]);
    args.keyword_ranges.push_back(range);
  }
}

}  // namespace tile2cu::sema
