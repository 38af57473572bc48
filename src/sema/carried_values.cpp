// Names carried through loops and out of run-time ifs. A tile or scalar is carried as one IR
// value; a tuple or a frozen dataclass instance as its tiles and scalars (its "leaves", depth
// first), and is rebuilt from them on the other side. What else such a record holds (its
// length, its class, its compile-time items) is its structure, which every path must keep:
// cuTile flattens aggregates into loop variables and if results the same way, and requires
// a variable's type (a tuple's item types, a dataclass's field types) not to depend on the
// path taken.
#include <fmt/format.h>

#include <algorithm>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// The IR name of a carried name's values: a hidden name (`<array a>`, `<return value>`) names
// them after what it holds (a_path, return_value), which the C++ can declare.
std::string carried_ir_name(const std::string& key) {
  const std::string array = KernelLowering::array_of_selector(key);
  if (!array.empty()) return array + "_path";
  if (key.size() > 2 && key.front() == '<' && key.back() == '>') {
    std::string words = key.substr(1, key.size() - 2);
    std::replace(words.begin(), words.end(), ' ', '_');
    return words;
  }
  return key;
}

using Names = std::shared_ptr<const std::map<std::string, Value>>;

// A function's captured names or defaults: the same map, or the same names and values.
bool same_names(const Names& a, const Names& b, bool (*same)(const Value&, const Value&)) {
  if (a == b) return true;
  if (!a || !b || a->size() != b->size()) return false;
  for (auto x = a->begin(), y = b->begin(); x != a->end(); ++x, ++y)
    if (x->first != y->first || !same(x->second, y->second)) return false;
  return true;
}

}  // namespace

bool same_value(const Value& a, const Value& b) {
  if (a.kind.index() != b.kind.index()) return false;
  if (auto* x = a.as<Runtime>()) return x->id == b.as<Runtime>()->id;
  if (auto* x = a.as<LooseInt>()) return x->value == b.as<LooseInt>()->value;
  if (auto* x = a.as<LooseFloat>()) return x->value == b.as<LooseFloat>()->value;
  if (auto* x = a.as<LooseBool>()) return x->value == b.as<LooseBool>()->value;
  if (auto* x = a.as<ArrayValue>()) return x->param == b.as<ArrayValue>()->param;
  if (auto* x = a.as<ListValue>()) return x->param == b.as<ListValue>()->param;
  if (auto* x = a.as<RawMemoryValue>()) return x->param == b.as<RawMemoryValue>()->param;
  if (auto* x = a.as<TiledViewValue>()) {
    auto* y = b.as<TiledViewValue>();
    return x->param == y->param && x->tile_shape == y->tile_shape && x->steps == y->steps && x->padding == y->padding;
  }
  if (auto* x = a.as<DTypeValue>()) return x->dtype == b.as<DTypeValue>()->dtype;
  if (auto* x = a.as<EnumValue>()) return x->cls == b.as<EnumValue>()->cls && x->member == b.as<EnumValue>()->member;
  if (auto* x = a.as<EnumClassValue>()) return x->cls == b.as<EnumClassValue>()->cls;
  if (auto* x = a.as<ClassValue>()) return x->cls == b.as<ClassValue>()->cls;
  if (auto* x = a.as<DataclassValue>()) {
    auto* y = b.as<DataclassValue>();
    if (x->cls != y->cls) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!same_value(x->fields[i], y->fields[i])) return false;
    return true;
  }
  if (auto* x = a.as<StrValue>()) return x->value == b.as<StrValue>()->value;
  if (auto* x = a.as<FunctionValue>()) {
    auto* y = b.as<FunctionValue>();
    bool same_self = x->bound_self == y->bound_self ||
                     (x->bound_self && y->bound_self && same_value(*x->bound_self, *y->bound_self));
    return x->def == y->def && same_self && same_names(x->closure, y->closure, same_value) &&
           same_names(x->defaults, y->defaults, same_value);
  }
  if (auto* x = a.as<BuiltinValue>()) return x->name == b.as<BuiltinValue>()->name;
  if (auto* x = a.as<ModuleValue>()) return x->path == b.as<ModuleValue>()->path;
  if (a.is<NoneValue>()) return true;
  if (auto* x = a.as<ContextManagerValue>()) return x->entered == b.as<ContextManagerValue>()->entered;
  if (auto* x = a.as<FormattedStrValue>()) {
    auto* y = b.as<FormattedStrValue>();
    if (x->texts != y->texts || x->fields.size() != y->fields.size()) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (x->fields[i].spec != y->fields[i].spec || !same_value(*x->fields[i].value, *y->fields[i].value)) return false;
    return true;
  }
  if (auto* x = a.as<TupleValue>()) {
    auto* y = b.as<TupleValue>();
    if (x->items.size() != y->items.size()) return false;
    for (size_t i = 0; i < x->items.size(); ++i)
      if (!same_value(x->items[i], y->items[i])) return false;
    return true;
  }
  if (auto* x = a.as<DictValue>()) {
    auto* y = b.as<DictValue>();
    if (x->keys.size() != y->keys.size()) return false;
    for (size_t i = 0; i < x->keys.size(); ++i)
      if (!same_value(x->keys[i], y->keys[i]) || !same_value(x->values[i], y->values[i])) return false;
    return true;
  }
  return false;
}

namespace {

bool is_leaf(const Value& v) { return v.is<Runtime>() || v.is_loose(); }

// `name`'s leaves with names for their IR values: state_0, acc_total, ...
void collect_leaves(const Value& v, const std::string& name, std::vector<Value>& leaves,
                    std::vector<std::string>& names) {
  if (is_leaf(v)) {
    leaves.push_back(v);
    names.push_back(name);
  } else if (auto* t = v.as<TupleValue>()) {
    for (size_t i = 0; i < t->items.size(); ++i) collect_leaves(t->items[i], fmt::format("{}_{}", name, i), leaves, names);
  } else if (auto* d = v.as<DataclassValue>()) {
    for (size_t i = 0; i < d->fields.size(); ++i)
      collect_leaves(d->fields[i], fmt::format("{}_{}", name, d->cls->fields[i].name), leaves, names);
  } else if (auto* d = v.as<DictValue>()) {  // its values; the keys are structure
    for (size_t i = 0; i < d->values.size(); ++i) collect_leaves(d->values[i], fmt::format("{}_{}", name, i), leaves, names);
  } else if (auto* f = v.as<FunctionValue>()) {  // a closure record: captured names, then defaults
    for (const Names& m : {f->closure, f->defaults})
      if (m)
        for (const auto& [n, item] : *m) collect_leaves(item, fmt::format("{}_{}", name, n), leaves, names);
  }
}

Names rebuild_names(const Names& m, const std::vector<Value>& leaves, size_t& next);

// `structure` with its leaves replaced, in order, by leaves[next...].
Value rebuild(const Value& structure, const std::vector<Value>& leaves, size_t& next) {
  if (is_leaf(structure)) return leaves.at(next++);
  if (auto* t = structure.as<TupleValue>()) {
    TupleValue out;
    for (const Value& item : t->items) out.items.push_back(rebuild(item, leaves, next));
    return make(std::move(out));
  }
  if (auto* d = structure.as<DataclassValue>()) {
    DataclassValue out{d->cls, {}};
    for (const Value& field : d->fields) out.fields.push_back(rebuild(field, leaves, next));
    return make(std::move(out));
  }
  if (auto* d = structure.as<DictValue>()) {
    DictValue out{d->keys, {}};
    for (const Value& value : d->values) out.values.push_back(rebuild(value, leaves, next));
    return make(std::move(out));
  }
  if (auto* f = structure.as<FunctionValue>()) {
    FunctionValue out = *f;
    out.closure = rebuild_names(f->closure, leaves, next);
    out.defaults = rebuild_names(f->defaults, leaves, next);
    return make(std::move(out));
  }
  return structure;
}

Names rebuild_names(const Names& m, const std::vector<Value>& leaves, size_t& next) {
  if (!m) return m;
  std::map<std::string, Value> out;
  for (const auto& [n, item] : *m) out[n] = rebuild(item, leaves, next);
  return std::make_shared<const std::map<std::string, Value>>(std::move(out));
}

}  // namespace

bool is_record(const Value& v) { return v.is<TupleValue>() || v.is<DataclassValue>() || v.is<DictValue>(); }

bool is_closure_record(const Value& v) {
  auto* f = v.as<FunctionValue>();
  return f && (f->closure || f->defaults);
}

bool same_structure(const Value& a, const Value& b) {
  if (is_leaf(a)) return is_leaf(b);
  if (auto* x = a.as<TupleValue>()) {
    auto* y = b.as<TupleValue>();
    if (!y || x->items.size() != y->items.size()) return false;
    for (size_t i = 0; i < x->items.size(); ++i)
      if (!same_structure(x->items[i], y->items[i])) return false;
    return true;
  }
  if (auto* x = a.as<DataclassValue>()) {
    auto* y = b.as<DataclassValue>();
    if (!y || x->cls != y->cls) return false;
    for (size_t i = 0; i < x->fields.size(); ++i)
      if (!same_structure(x->fields[i], y->fields[i])) return false;
    return true;
  }
  if (auto* x = a.as<DictValue>()) {
    auto* y = b.as<DictValue>();
    if (!y || x->keys.size() != y->keys.size()) return false;
    for (size_t i = 0; i < x->keys.size(); ++i)
      if (!same_value(x->keys[i], y->keys[i]) || !same_structure(x->values[i], y->values[i])) return false;
    return true;
  }
  if (auto* x = a.as<FunctionValue>(); x && is_closure_record(a)) {
    auto* y = b.as<FunctionValue>();
    return y && x->def == y->def && x->bound_self == y->bound_self &&
           same_names(x->closure, y->closure, same_structure) && same_names(x->defaults, y->defaults, same_structure);
  }
  return same_value(a, b);
}

std::vector<Value> record_leaves(const Value& v, const std::string& name, std::vector<std::string>* leaf_names) {
  std::vector<Value> leaves;
  std::vector<std::string> names;
  collect_leaves(v, name, leaves, names);
  if (leaf_names) *leaf_names = std::move(names);
  return leaves;
}

Value rebuild_record(const Value& structure, const std::vector<Value>& leaves) {
  size_t next = 0;
  return rebuild(structure, leaves, next);
}

std::string KernelLowering::describe_carried(const Value& v) const {
  if (auto* t = v.as<TupleValue>()) {
    std::vector<std::string> items;
    for (const Value& item : t->items) items.push_back(describe_carried(item));
    return fmt::format("Tuple[{}]", fmt::join(items, ", "));
  }
  if (auto* d = v.as<DataclassValue>()) {
    std::vector<std::string> fields;
    for (size_t k = 0; k < d->fields.size(); ++k)
      fields.push_back(fmt::format("{}: {}", d->cls->fields[k].name, describe_carried(d->fields[k])));
    return fmt::format("{}[{}]", d->cls->name, fmt::join(fields, ", "));
  }
  return describe(v);
}

KernelLowering::CarriedNames KernelLowering::carry(const std::vector<std::string>& names, SourceRange range) {
  CarriedNames c;
  for (const std::string& n : names) {
    const Value& v = env_.at(n);
    c.names.push_back(n);
    c.structures.push_back(v);
    c.first_leaf.push_back(c.initial.size());
    std::vector<std::string> leaf_names;
    collect_leaves(v, carried_ir_name(n), c.initial, leaf_names);
    c.leaf_names.insert(c.leaf_names.end(), leaf_names.begin(), leaf_names.end());
  }
  c.first_leaf.push_back(c.initial.size());
  for (const Value& leaf : c.initial) {
    c.initial_ids.push_back(to_runtime(leaf, range));
    c.types.push_back(type_of(c.initial_ids.back()));
    c.invariant.push_back(leaf.is_loose());
  }
  c.break_constant.resize(c.initial.size());
  c.break_varies.resize(c.initial.size(), false);
  for (const std::string& n : names) {
    const std::string array_name = array_of_selector(n);
    if (array_name.empty()) continue;
    c.arrays.push_back({array_name, n, {env_.at(array_name).as<ArrayValue>()->param}, fn_.arrays.size(), false});
  }
  return c;
}

// A tiled view has no IR value to carry: the loop body was lowered with the one the name held
// on entry, so a name that holds another one after an iteration cannot be honoured (the next
// iteration would read the one from before the loop). (A rebound array is left to
// finish_loop_scope, which refuses reading it after the loop.)
void KernelLowering::check_array_unchanged(const std::string& n, const Value& entry, const Value& now,
                                           SourceRange range) const {
  if (!entry.is<TiledViewValue>() || same_value(entry, now)) return;
  auto* x = entry.as<TiledViewValue>();
  auto* y = now.as<TiledViewValue>();
  if (x && y && x->param == y->param)
    error(ErrorKind::Type, range,
          fmt::format("Variable {} has changed its type inside a loop: {} vs {}", n, describe(entry), describe(now)));
  auto array_of = [&](const Value& v) {
    if (auto* a = v.as<ArrayValue>()) return fmt::format("array {}", fn_.arrays[a->param].name);
    if (auto* t = v.as<TiledViewValue>()) return fmt::format("a tiled view of array {}", fn_.arrays[t->param].name);
    return describe(v);
  };
  error(ErrorKind::UnsupportedFeature, range,
        fmt::format("Variable {} names {} on entry to the loop and {} after an iteration: tile2cu cannot choose an "
                    "array at run time yet",
                    n, array_of(entry), array_of(now)));
}

std::vector<ir::ValueId> KernelLowering::carried_exit_values(CarriedNames& c, SourceRange range, bool is_break) {
  // Each rebound array name leaves through this exit as its index among the candidates.
  for (CarriedNames::ArrayCarry& a : c.arrays) {
    auto it = env_.find(a.name);
    auto* now = it == env_.end() ? nullptr : it->second.as<ArrayValue>();
    if (!now) {
      a.unusable = true;
      continue;
    }
    auto known = std::find(a.candidates.begin(), a.candidates.end(), now->param);
    if (known == a.candidates.end()) {
      if (static_cast<size_t>(now->param) >= a.arrays_before || !arrays_can_meet(a.candidates[0], now->param)) {
        a.unusable = true;
        continue;
      }
      known = a.candidates.insert(a.candidates.end(), now->param);
    }
    env_[a.selector] = make(LooseInt{known - a.candidates.begin()});
  }
  std::vector<ir::ValueId> ids;
  for (size_t i = 0; i < c.names.size(); ++i) {
    const std::string& n = c.names[i];
    const Value& now = env_.at(n);
    const Value& entry = c.structures[i];
    std::vector<Value> leaves;
    std::vector<std::string> leaf_names;
    collect_leaves(now, n, leaves, leaf_names);
    if (is_record(entry)) {
      bool same_types = same_structure(entry, now);
      for (size_t k = c.first_leaf[i]; same_types && k < c.first_leaf[i + 1]; ++k) {
        const Value& leaf = leaves[k - c.first_leaf[i]];
        auto* rt = leaf.as<Runtime>();
        same_types = rt ? type_of(rt->id) == c.types[k] : c.types[k].is_scalar();
      }
      if (!same_types) {  // the whole record in the message, its carried items with their types
        std::vector<Value> typed;
        for (size_t k = c.first_leaf[i]; k < c.first_leaf[i + 1]; ++k) typed.push_back(make(Runtime{c.initial_ids[k]}));
        error(ErrorKind::Type, range, fmt::format("Variable {} has changed its type inside a loop: {} vs {}", n,
                                                  describe_carried(rebuild_record(entry, typed)), describe_carried(now)));
      }
    }
    for (size_t k = c.first_leaf[i]; k < c.first_leaf[i + 1]; ++k) {
      const Value& leaf = leaves[k - c.first_leaf[i]];
      // Constant propagation through loop results, as cuTile does: a break's value is a way
      // out of the loop; the end of the body and continue pass the next iteration's value.
      if (is_break) {
        if (!leaf.is_loose() || (c.break_constant[k] && !same_value(*c.break_constant[k], leaf)))
          c.break_varies[k] = true;
        else
          c.break_constant[k] = leaf;
      } else if (!same_value(leaf, c.initial[k])) {
        auto* rt = leaf.as<Runtime>();
        bool passed_through = rt && k < c.body_args.size() && rt->id == c.body_args[k];
        if (!passed_through) c.invariant[k] = false;
      }
      check_carried_type(n, leaf, c.types[k], range);
      ids.push_back(yield_as(n, leaf, c.types[k], range, "has changed its type inside a loop"));
    }
  }
  return ids;
}

// cuTile types a loop's variable where the value from before the loop meets the one an
// iteration (or a break) leaves; two types there are "Type of `a` depends on path taken"
// (test_typeinfer.py::test_control_flow_type_mismatch). A Python number has its own type
// there (int32, float32, bool_), not the variable's.
void KernelLowering::check_carried_type(const std::string& n, const Value& leaf, const ir::TileType& carried,
                                        SourceRange range) const {
  std::optional<ir::TileType> now;
  if (auto* rt = leaf.as<Runtime>()) now = type_of(rt->id);
  else if (leaf.is_loose()) now = ir::TileType{default_dtype(leaf, range), {}};
  if (!now || *now == carried) return;
  auto name = [](const ir::TileType& t) { return fmt::format("Tile[{},({})]", dtype_name(t.dtype), fmt::join(t.shape, ",")); };
  error(ErrorKind::Type, range,
        fmt::format("Type of `{}` depends on path taken: {} vs. {} (before the loop)", n, name(*now), name(carried)));
}

std::vector<std::optional<Value>> KernelLowering::loop_result_constants(const CarriedNames& c, bool is_for,
                                                                        bool exits_only_by_break) const {
  std::vector<std::optional<Value>> out(c.initial.size());
  for (size_t k = 0; k < c.initial.size(); ++k) {
    if (c.break_varies[k]) continue;
    std::optional<Value> value = c.break_constant[k];
    if (!exits_only_by_break) {
      // After a while loop its condition's exit stays run-time: cuTile leaves it by a break at
      // the condition, which passes on the body's loop variables.
      if (!is_for || !c.invariant[k]) continue;
      if (value && !same_value(*value, c.initial[k])) continue;
      value = c.initial[k];
    }
    out[k] = value;
  }
  return out;
}

void KernelLowering::bind_carried(const CarriedNames& c, const std::vector<ir::ValueId>& ids,
                                  const std::vector<std::optional<Value>>& constants) {
  for (size_t i = 0; i < c.names.size(); ++i) {
    std::vector<Value> leaves;
    for (size_t k = c.first_leaf[i]; k < c.first_leaf[i + 1]; ++k)
      leaves.push_back(k < constants.size() && constants[k] ? *constants[k] : make(Runtime{ids[k]}));
    env_[c.names[i]] = rebuild_record(c.structures[i], leaves);
  }
}

}  // namespace tile2cu::sema
