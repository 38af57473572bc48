// Evaluation of a module's top level: what kernels see as globals (spec a.6, h.10).
#include <fmt/format.h>

#include <map>
#include <set>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// Modules whose attributes a kernel may use. Anything else imported stays opaque and is an
// error only when a kernel touches it.
std::string canonical_module(const std::string& dotted) {
  // tile2cu's Python launcher offers the same surface (`import tile2cu.cutile as ct`).
  if (dotted == "cuda.tile" || dotted == "tile2cu.cutile") return "cuda.tile";
  if (dotted == "numpy") return "numpy";
  if (dotted == "torch") return "torch";
  if (dotted == "math") return "math";
  return dotted;
}

// Modules tile2cu knows itself: never looked for as files of the user's.
bool is_library_module(const std::string& dotted) {
  static const char* kLibraries[] = {"cuda", "cuda.tile", "numpy", "torch", "math", "contextlib", "enum",
                                     "dataclasses", "operator", "functools", "typing", "tile2cu"};
  const std::string head = dotted.substr(0, dotted.find('.'));
  for (const char* l : kLibraries)
    if (dotted == l || head == l) return true;
  return false;
}

// The user's modules evaluated so far in one transpile, by file, so that each is evaluated once
// however many modules import it; `loading` holds those being evaluated (an import cycle).
struct ModuleCache {
  ModuleLoader load;
  std::map<std::string, std::shared_ptr<const ModuleScope>> done;
  std::set<std::string> loading;
  std::shared_ptr<LoweringBudget> budget = std::make_shared<LoweringBudget>();
};

bool is_kernel_decorator(const Value& v) {
  auto* b = v.as<BuiltinValue>();
  return b && b->name == "ct.kernel";
}

bool is_context_manager_decorator(const Value& v) {
  auto* b = v.as<BuiltinValue>();
  return b && b->name == "contextlib.contextmanager";
}

class ModuleEvaluator {
 public:
  ModuleEvaluator(std::shared_ptr<const ast::Module> module, ModuleCache& cache)
      : scope_(std::make_shared<ModuleScope>()), cache_(cache) {
    scope_->module = std::move(module);
    scope_->budget = cache_.budget;
  }

  std::shared_ptr<const ModuleScope> run() {
    for (const auto& stmt : scope_->module->body) statement(*stmt);
    apply_user_decorators();
    return scope_;
  }

 private:
  void bind(const std::string& name, Value v, SourceRange range) {
    scope_->globals[name] = Global{std::move(v), nullptr, range};
  }

  void bind_error(const std::string& name, std::exception_ptr e, SourceRange range) {
    scope_->globals[name] =
        Global{make(NoneValue{}), std::make_shared<const std::exception_ptr>(e), range};
  }

  void statement(const ast::Stmt& s) {
    if (auto* imp = s.as<ast::Import>()) {
      for (const auto& alias : imp->names) {
        if (!alias.asname.empty()) {
          bind(alias.asname, module_value(alias.name, 0, alias.range), alias.range);
        } else {
          // `import cuda.tile` binds `cuda`; attribute access walks the dotted path, through
          // dotted_imports for the user's packages.
          std::string head = alias.name.substr(0, alias.name.find('.'));
          bind(head, module_value(head, 0, alias.range), alias.range);
          for (size_t dot = alias.name.find('.'); dot != std::string::npos; dot = alias.name.find('.', dot + 1)) {
            std::string prefix = alias.name.substr(0, alias.name.find('.', dot + 1));
            if (auto user = user_module(prefix, 0, alias.range)) scope_->dotted_imports[prefix] = user.get();
          }
        }
      }
    } else if (auto* from = s.as<ast::ImportFrom>()) {
      import_from(*from, s.range);
    } else if (auto* def = s.as<ast::FunctionDef>()) {
      function_def(*def, s.range);
    } else if (auto* as = s.as<ast::Assign>()) {
      assign(as->targets, as->value, s.range);
    } else if (auto* ann = s.as<ast::AnnAssign>()) {
      if (ann->value) assign({ann->target}, ann->value, s.range);
    } else if (auto* cls = s.as<ast::ClassDef>()) {
      try {
        KernelLowering lowering(*scope_, dummy_signature());
        bind(cls->name, define_class(lowering, *cls, scope_.get()), cls->name_range);
        context_manager_methods(lowering, *cls);
      } catch (const CompileError&) {
        bind_error(cls->name, std::current_exception(), s.range);
      }
    }
    // Other top-level statements (host code, `if __name__ == "__main__":`) are not tile code.
  }

  void import_from(const ast::ImportFrom& from, SourceRange range) {
    std::string mod = canonical_module(from.module);
    if (from.level == 0 && (mod == "cuda.tile" || is_library_module(mod))) {
      for (const auto& alias : from.names) {
        std::string local = alias.asname.empty() ? alias.name : alias.asname;
        try {
          KernelLowering lowering(*scope_, dummy_signature());
          bind(local, lowering.attribute(make(ModuleValue{mod}), alias.name, alias.range), alias.range);
        } catch (const CompileError&) {
          bind_error(local, std::current_exception(), alias.range);
        }
      }
      return;
    }
    // `from helpers import f`, `from .util import f`, `from . import util`, `from pkg import mod`.
    auto source = from.module.empty() ? nullptr : user_module(from.module, from.level, range);
    for (const auto& alias : from.names) {
      std::string local = alias.asname.empty() ? alias.name : alias.asname;
      std::string dotted = from.module.empty() ? alias.name : from.module + "." + alias.name;
      if (source) {
        if (auto it = source->globals.find(alias.name); it != source->globals.end()) {
          scope_->globals[local] = it->second;
          continue;
        }
      }
      if (auto sub = user_module(dotted, from.level, alias.range)) {
        bind(local, make(ModuleValue{dotted, sub.get()}), alias.range);
      } else if (source) {
        bind_error(local, std::make_exception_ptr(CompileError(
                              ErrorKind::Type, fmt::format("cannot import name '{}' from '{}' ({})", alias.name,
                                                           from.module, source->module->file->path()),
                              scope_->module->file, alias.range)),
                   alias.range);
      } else {
        bind(local, make(ModuleValue{mod + "." + alias.name}), alias.range);
      }
    }
  }

  // A module name as a value: the user's module when its file is found, else an opaque name.
  Value module_value(const std::string& dotted, int level, SourceRange range) {
    if (auto user = user_module(dotted, level, range)) return make(ModuleValue{dotted, user.get()});
    return make(ModuleValue{canonical_module(dotted)});
  }

  // Finds, parses and evaluates a module of the user's, once per file; kept alive by this scope.
  std::shared_ptr<const ModuleScope> user_module(const std::string& dotted, int level, SourceRange range) {
    if (!cache_.load || (level == 0 && is_library_module(dotted))) return nullptr;
    auto module = cache_.load(dotted, level, scope_->module->file ? scope_->module->file->path() : std::string());
    if (!module) return nullptr;
    const std::string key = module->file->path();
    auto it = cache_.done.find(key);
    if (it == cache_.done.end()) {
      if (!cache_.loading.insert(key).second)
        throw CompileError(ErrorKind::UnsupportedFeature,
                           fmt::format("module '{}' imports itself through a cycle; tile2cu does not support "
                                       "circular imports",
                                       dotted),
                           scope_->module->file, range);
      auto scope = ModuleEvaluator(module, cache_).run();
      cache_.loading.erase(key);
      it = cache_.done.emplace(key, std::move(scope)).first;
    }
    scope_->imports.push_back(it->second);
    return it->second;
  }

  void function_def(const ast::FunctionDef& def, SourceRange range) {
    bind(def.name, make(FunctionValue{&def, scope_.get()}), def.name_range);
    if (!def.decorators.empty()) decorated_.push_back(&def);
    for (const auto& deco : def.decorators) {
      KernelLowering lowering(*scope_, dummy_signature());
      // `@ct.kernel` or `@ct.kernel(...)`, `@contextlib.contextmanager`; other decorators
      // (markers) are ignored.
      const ast::Expr* target = deco.get();
      const ast::Call* call = deco->as<ast::Call>();
      if (call) target = call->func.get();
      Value v;
      try {
        v = lowering.eval(ast::ExprPtr(deco, target));
      } catch (const CompileError&) {
        continue;
      }
      if (!call && is_context_manager_decorator(v)) scope_->context_managers.insert(&def);
      if (!is_kernel_decorator(v)) continue;
      KernelInfo info{&def, call};
      if (!scope_->kernels.count(def.name)) scope_->kernel_order.push_back(def.name);
      scope_->kernels[def.name] = info;
    }
    (void)range;
  }

  // `@decorate` where decorate is a function of the user's: the name is what Python binds, the
  // decorators' result (decorators.cpp). Applied once the module is evaluated: the launcher's
  // synthesized modules may define the decorator after the function. A decorator that cannot
  // run in tile code (it registers the function somewhere, say) leaves the function as
  // written, as markers are.
  void apply_user_decorators() {
    for (const ast::FunctionDef* def : decorated_) {
      auto it = scope_->globals.find(def->name);
      const FunctionValue* bound = it == scope_->globals.end() ? nullptr : it->second.value.as<FunctionValue>();
      if (!bound || bound->def != def || scope_->kernels.count(def->name)) continue;
      KernelLowering lowering(*scope_, dummy_signature());
      bool user_function = false;
      for (const auto& deco : def->decorators) {
        try {
          user_function = user_function || lowering.eval(deco).is<FunctionValue>();
        } catch (const CompileError&) {
        }
      }
      if (!user_function) continue;
      try {
        Value wrapped = lowering.decorated_function(*def, make(FunctionValue{def, scope_.get()}));
        bind(def->name, std::move(wrapped), def->name_range);
      } catch (const CompileError&) {
      }
    }
  }

  // A class's methods decorated @contextlib.contextmanager: calling one on an instance makes
  // a context manager, as calling such a module-level function does.
  void context_manager_methods(KernelLowering& lowering, const ast::ClassDef& cls) {
    for (const auto& s : cls.body) {
      auto* def = s->as<ast::FunctionDef>();
      if (!def) continue;
      for (const auto& deco : def->decorators) {
        if (deco->as<ast::Call>()) continue;
        try {
          if (is_context_manager_decorator(lowering.eval(deco))) scope_->context_managers.insert(def);
        } catch (const CompileError&) {
        }
      }
    }
  }

  void assign(const std::vector<ast::ExprPtr>& targets, const ast::ExprPtr& value,
              SourceRange range) {
    std::vector<std::string> names;
    for (const auto& t : targets)
      if (auto* n = t->as<ast::Name>()) names.push_back(n->id);
    if (names.size() != targets.size()) return;  // host-side unpacking etc.: not tile code
    if (replace_hints(names, *value)) return;
    if (typed_constant(names, *value, range)) return;
    try {
      KernelLowering lowering(*scope_, dummy_signature());
      Value v = lowering.eval(value);
      for (const auto& n : names) bind(n, v, range);
      // `k2 = ct.kernel(fn, ...)`: the functional form of the decorator.
      if (auto* call = value->as<ast::Call>(); call && !call->args.empty()) {
        Value callee = lowering.eval(call->func);
        Value fn = lowering.eval(call->args[0]);
        auto* f = fn.as<FunctionValue>();
        if (is_kernel_decorator(callee) && f) {
          for (const auto& n : names) {
            if (!scope_->kernels.count(n)) scope_->kernel_order.push_back(n);
            scope_->kernels[n] = KernelInfo{f->def, nullptr};
          }
        }
      }
    } catch (const CompileError&) {
      for (const auto& n : names) bind_error(n, std::current_exception(), range);
    }
  }

  // `X = ct.int16(4)`: a dtype called on a Python constant (a number, or a string as in
  // ct.float32("inf")), made an IR constant in each kernel that reads X (Global::typed_as).
  bool typed_constant(const std::vector<std::string>& names, const ast::Expr& value, SourceRange range) {
    auto* call = value.as<ast::Call>();
    if (!call || call->args.size() != 1 || !call->keywords.empty()) return false;
    try {
      KernelLowering lowering(*scope_, dummy_signature());
      Value callee = lowering.eval(call->func);  // kept: `dtype` points into it
      auto* dtype = callee.as<DTypeValue>();
      if (!dtype) return false;
      Value literal = lowering.eval(call->args[0]);
      if (!literal.is_loose() && !literal.is<StrValue>()) return false;
      for (const auto& n : names) scope_->globals[n] = Global{literal, nullptr, range, dtype->dtype};
      return true;
    } catch (const CompileError&) {
      return false;  // evaluated again as any other value, which reports the error
    }
  }

  // `k2 = k.replace_hints(occupancy=4)` where k is a kernel of this module: k under the new
  // name, with these options replacing its decorator's (checked when specialized).
  bool replace_hints(const std::vector<std::string>& names, const ast::Expr& value) {
    auto* call = value.as<ast::Call>();
    auto* method = call ? call->func->as<ast::Attribute>() : nullptr;
    auto* base = method && method->attr == "replace_hints" ? method->value->as<ast::Name>() : nullptr;
    auto it = base ? scope_->kernels.find(base->id) : scope_->kernels.end();
    if (it == scope_->kernels.end()) return false;
    KernelInfo info = it->second;
    info.hints.push_back(call);
    for (const auto& n : names) {
      if (!scope_->kernels.count(n)) scope_->kernel_order.push_back(n);
      scope_->kernels[n] = info;
      if (auto g = scope_->globals.find(base->id); g != scope_->globals.end()) scope_->globals[n] = g->second;
    }
    return true;
  }

  static const KernelSignature& dummy_signature() {
    static const KernelSignature sig;
    return sig;
  }

  std::shared_ptr<ModuleScope> scope_;
  ModuleCache& cache_;
  std::vector<const ast::FunctionDef*> decorated_;  // module-level defs with decorators, in order
};

}  // namespace

std::shared_ptr<const ModuleScope> evaluate_module(std::shared_ptr<const ast::Module> module,
                                                   const ModuleLoader& load) {
  ModuleCache cache{load, {}, {}};
  if (module && module->file) cache.loading.insert(module->file->path());
  return ModuleEvaluator(std::move(module), cache).run();
}

}  // namespace tile2cu::sema
