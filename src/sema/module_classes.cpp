// Class statements at module level (spec a.6): enums and frozen dataclasses are values that
// tile code uses. A class body is evaluated once, when the module is, as Python runs it at
// import. What would make a class unusable in tile code is kept in the class and raised
// where a kernel builds an instance, which is where cuTile checks it; host-only classes in
// the same file cost nothing.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

std::optional<Value> try_eval(KernelLowering& k, const ast::ExprPtr& e) {
  try {
    return k.eval(e);
  } catch (const CompileError&) {
    return std::nullopt;
  }
}

bool is_builtin(const std::optional<Value>& v, const char* name) {
  auto* b = v ? v->as<BuiltinValue>() : nullptr;
  return b && b->name == name;
}

// The last name a decorator or annotation spells (`property`, `typing.ClassVar[int]`): the
// descriptors and typing markers are recognised by name, as tile2cu has no values for them.
std::string spelled_name(const ast::ExprPtr& e) {
  if (auto* n = e->as<ast::Name>()) return n->id;
  if (auto* a = e->as<ast::Attribute>()) return a->attr;
  if (auto* s = e->as<ast::Subscript>()) return spelled_name(s->value);
  if (auto* c = e->as<ast::Call>()) return spelled_name(c->func);
  return "";
}

// The name and value expression of `NAME = value` / `NAME: T = value` in a class body.
struct ClassLevelName {
  std::string name;
  ast::ExprPtr annotation;  // null for a plain assignment
  ast::ExprPtr value;       // null for `NAME: T`
};

std::optional<ClassLevelName> class_level_name(const ast::Stmt& s) {
  if (auto* a = s.as<ast::Assign>(); a && a->targets.size() == 1)
    if (auto* n = a->targets[0]->as<ast::Name>()) return ClassLevelName{n->id, nullptr, a->value};
  if (auto* a = s.as<ast::AnnAssign>())
    if (auto* n = a->target->as<ast::Name>()) return ClassLevelName{n->id, a->annotation, a->value};
  return std::nullopt;
}

bool is_dunder_or_sunder(const std::string& name) { return !name.empty() && name[0] == '_'; }

class ClassDefinition {
 public:
  ClassDefinition(KernelLowering& k, const ast::ClassDef& def, const ModuleScope* scope)
      : k_(k), def_(def), scope_(scope) {}

  Value run() {
    bool is_enum = false, int_enum = false;
    auto info = std::make_shared<ClassInfo>();
    info->name = def_.name;
    info->def = &def_;
    for (const auto& b : def_.bases) {
      auto v = try_eval(k_, b);
      if (is_builtin(v, "enum.Enum")) {
        is_enum = true;
      } else if (is_builtin(v, "enum.IntEnum")) {
        is_enum = int_enum = true;
      } else if (auto* c = v ? v->as<ClassValue>() : nullptr; c && !info->base) {
        info->base = c->cls;
      } else if (auto* n = b->as<ast::Name>(); n && n->id == "object") {
      } else {
        unusable(*info, ErrorKind::UnsupportedFeature,
                 fmt::format("class {}: this base class is not supported yet by tile2cu (frozen dataclasses, "
                             "their subclasses, enum.Enum and enum.IntEnum are)",
                             def_.name));
      }
    }
    if (!def_.keywords.empty())
      unusable(*info, ErrorKind::UnsupportedFeature,
               fmt::format("class {}: class keywords (metaclass=...) are not supported yet by tile2cu", def_.name));
    if (is_enum) {
      if (!def_.decorators.empty())
        k_.error(ErrorKind::UnsupportedFeature, def_.decorators[0]->range,
                 "decorators on an enum class are not supported yet by tile2cu");
      return define_enum(int_enum);
    }
    decorators(*info);
    if (info->base) {
      if (info->base->is_dataclass && !info->is_dataclass)
        unusable(*info, ErrorKind::Type, "Non-dataclass subclasses of a dataclass are not supported");
      if (info->base->unusable) unusable(*info, info->base->unusable->first, info->base->unusable->second);
      info->fields = info->base->fields;
    }
    body(*info);
    if (info->is_dataclass) check_field_order(*info);
    return make(ClassValue{info});
  }

 private:
  // The first reason wins, as cuTile stops at the first check that fails.
  static void unusable(ClassInfo& info, ErrorKind kind, std::string message) {
    if (!info.unusable) info.unusable = std::make_pair(kind, std::move(message));
  }

  bool const_bool_keyword(const ast::Keyword& kw) {
    return k_.const_bool(k_.eval(kw.value), kw.range, fmt::format("argument \"{}\" of dataclass()", kw.name));
  }

  void decorators(ClassInfo& info) {
    bool frozen = false;
    for (const auto& d : def_.decorators) {
      const ast::Call* call = d->as<ast::Call>();
      if (!is_builtin(try_eval(k_, call ? call->func : d), "dataclasses.dataclass")) {
        unusable(info, ErrorKind::UnsupportedFeature,
                 fmt::format("class {}: class decorators other than @dataclasses.dataclass are not supported yet "
                             "by tile2cu", def_.name));
        continue;
      }
      info.is_dataclass = true;
      if (!call) continue;
      for (const auto& kw : call->keywords) {
        if (kw.name == "frozen") frozen = const_bool_keyword(kw);
        else if (kw.name == "eq") info.eq = const_bool_keyword(kw);
        else if (kw.name == "kw_only") kw_only_ = const_bool_keyword(kw);
        else if (kw.name == "init" && !const_bool_keyword(kw))
          unusable(info, ErrorKind::Type,
                   "Dataclass instance creation is only supported for dataclasses with a default generated "
                   "__init__() method.");
        // order, repr, unsafe_hash, slots, match_args, weakref_slot: nothing in tile code.
      }
    }
    if (info.is_dataclass && !frozen) unusable(info, ErrorKind::Type, "Only frozen dataclasses are supported");
  }

  void body(ClassInfo& info) {
    for (const auto& s : def_.body) {
      if (auto* fn = s->as<ast::FunctionDef>()) {
        method(info, *fn);
      } else if (auto n = class_level_name(*s)) {
        if (info.is_dataclass && n->annotation && spelled_name(n->annotation) != "ClassVar") {
          field(info, *n);
        } else if (n->value) {
          info.attributes[n->name] = value_or_poison(n->value, n->name);
        }
      }
      // Docstrings, pass and host-only statements define nothing tile code reads.
    }
  }

  void method(ClassInfo& info, const ast::FunctionDef& fn) {
    if (info.is_dataclass && fn.name == "__new__")
      unusable(info, ErrorKind::Type, "Dataclasses with custom __new__ are not supported");
    if (info.is_dataclass && fn.name == "__init__")
      unusable(info, ErrorKind::Type,
               "Dataclass instance creation is only supported for dataclasses with a default generated "
               "__init__() method.");
    info.attributes[fn.name] = make(FunctionValue{&fn, scope_});
    for (const auto& d : fn.decorators) {
      std::string name = spelled_name(d);
      if (name == "property" && d->as<ast::Name>()) {
        info.properties.insert(fn.name);
      } else if (is_builtin(try_eval(k_, d), "contextlib.contextmanager")) {
        // Calling it makes a context manager: the module registers the def (module_scope.cpp).
      } else {
        info.attributes[fn.name] = make(PoisonValue{
            fmt::format("{}.{}: methods decorated with @{} are not supported yet by tile2cu", def_.name, fn.name,
                        name.empty() ? "..." : name),
            ErrorKind::UnsupportedFeature});
      }
    }
  }

  // `x: T`, `x: T = default`, `x: T = dataclasses.field(...)`.
  void field(ClassInfo& info, const ClassLevelName& n) {
    if (spelled_name(n.annotation) == "KW_ONLY") {  // `_: KW_ONLY` makes the fields after it keyword-only
      kw_only_ = true;
      return;
    }
    ClassInfo::Field f{n.name, std::nullopt, kw_only_};
    const ast::Call* call = n.value ? n.value->as<ast::Call>() : nullptr;
    if (call && is_builtin(try_eval(k_, call->func), "dataclasses.field")) {
      for (const auto& kw : call->keywords) {
        if (kw.name == "default") f.default_value = value_or_poison(kw.value, n.name);
        else if (kw.name == "default_factory")
          unusable(info, ErrorKind::Type, "Dataclasses with default_factory fields are not supported");
        else if (kw.name == "init" && !k_.const_bool(k_.eval(kw.value), kw.range, "argument \"init\" of field()"))
          unusable(info, ErrorKind::Type, "Dataclasses with init=False fields are not supported");
        else if (kw.name == "kw_only") f.kw_only = k_.const_bool(k_.eval(kw.value), kw.range, "argument \"kw_only\" of field()");
      }
    } else if (n.value) {
      f.default_value = value_or_poison(n.value, n.name);
    }
    if (f.default_value) info.attributes[n.name] = *f.default_value;
    if (int k = info.field_index(n.name); k >= 0) {
      info.fields[k] = std::move(f);  // a subclass redefines a field in its place
    } else {
      info.fields.push_back(std::move(f));
    }
  }

  // Python's own check when it generates __init__ (a TypeError at import).
  void check_field_order(ClassInfo& info) {
    bool seen_default = false;
    for (const auto& f : info.fields) {
      if (f.kw_only) continue;
      if (f.default_value) seen_default = true;
      else if (seen_default)
        unusable(info, ErrorKind::Type, fmt::format("non-default argument '{}' follows default argument", f.name));
    }
  }

  // A class-level value that is no compile-time constant (a host object) is an error only
  // where tile code reads it.
  Value value_or_poison(const ast::ExprPtr& e, const std::string& name) {
    try {
      return k_.eval(e);
    } catch (const CompileError& err) {
      return make(PoisonValue{fmt::format("{}.{} is not a compile-time constant: {}", def_.name, name, err.message()),
                              err.kind()});
    }
  }

  Value define_enum(bool int_enum) {
    auto info = std::make_shared<EnumClassInfo>();
    info->name = def_.name;
    info->int_enum = int_enum;
    std::optional<__int128> last_int;  // the largest int value so far: enum.auto() counts on from it
    for (const auto& s : def_.body) {
      auto n = class_level_name(*s);
      if (!n || !n->value || is_dunder_or_sunder(n->name)) continue;  // methods, docstrings, _ignore_
      Value v;
      auto* call = n->value->as<ast::Call>();
      if (call && call->args.empty() && is_builtin(try_eval(k_, call->func), "enum.auto")) {
        v = make(LooseInt{last_int ? *last_int + 1 : 1});
      } else {
        v = k_.eval(n->value);
      }
      if (!k_.is_constant(v) || v.is<Runtime>())
        k_.error(ErrorKind::Type, n->value->range,
                 fmt::format("enum member {}.{} must be a compile-time constant, got {}", def_.name, n->name,
                             k_.describe(v)));
      if (auto* b = v.as<LooseBool>(); b && int_enum) v = make(LooseInt{b->value ? 1 : 0});
      if (int_enum && !v.is<LooseInt>())
        k_.error(ErrorKind::Type, n->value->range,
                 fmt::format("IntEnum member {}.{} must be an int, got {}", def_.name, n->name, k_.describe(v)));
      if (auto* i = v.as<LooseInt>()) last_int = last_int ? std::max(*last_int, i->value) : i->value;
      if (info->by_name.count(n->name))
        k_.error(ErrorKind::Type, s->range, fmt::format("'{}' already defined as {}", n->name, python_repr(v)));
      int alias = -1;
      for (size_t i = 0; i < info->members.size() && alias < 0; ++i)
        if (constants_equal(info->members[i].value, v)) alias = static_cast<int>(i);
      if (alias >= 0) {  // Python: a second name for the same value is an alias of the first
        info->by_name[n->name] = alias;
        continue;
      }
      info->by_name[n->name] = static_cast<int>(info->members.size());
      info->members.push_back({n->name, v});
    }
    return make(EnumClassValue{info});
  }

  KernelLowering& k_;
  const ast::ClassDef& def_;
  const ModuleScope* scope_;
  bool kw_only_ = false;  // @dataclass(kw_only=True) or after `_: KW_ONLY`
};

}  // namespace

Value define_class(KernelLowering& module_level, const ast::ClassDef& def, const ModuleScope* scope) {
  return ClassDefinition(module_level, def, scope).run();
}

}  // namespace tile2cu::sema
