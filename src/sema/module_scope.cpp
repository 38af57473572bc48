// Evaluation of a module's top level: what kernels see as globals (spec a.6, h.10).
#include <fmt/format.h>

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
  explicit ModuleEvaluator(std::shared_ptr<const ast::Module> module)
      : scope_(std::make_shared<ModuleScope>()) {
    scope_->module = std::move(module);
  }

  std::shared_ptr<const ModuleScope> run() {
    for (const auto& stmt : scope_->module->body) statement(*stmt);
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
          bind(alias.asname, make(ModuleValue{canonical_module(alias.name)}), alias.range);
        } else {
          // `import cuda.tile` binds `cuda`; attribute access walks the dotted path.
          std::string head = alias.name.substr(0, alias.name.find('.'));
          bind(head, make(ModuleValue{head}), alias.range);
        }
      }
    } else if (auto* from = s.as<ast::ImportFrom>()) {
      std::string mod = canonical_module(from->module);
      for (const auto& alias : from->names) {
        std::string local = alias.asname.empty() ? alias.name : alias.asname;
        std::string dotted = mod + "." + alias.name;
        if (from->level == 0 && (dotted == "cuda.tile" || mod == "cuda.tile" || mod == "math" ||
                                 mod == "numpy" || mod == "torch" || mod == "contextlib" || mod == "enum" ||
                                 mod == "dataclasses")) {
          try {
            KernelLowering lowering(*scope_, dummy_signature());
            bind(local, lowering.attribute(make(ModuleValue{mod}), alias.name, alias.range),
                 alias.range);
          } catch (const CompileError&) {
            bind_error(local, std::current_exception(), alias.range);
          }
        } else {
          bind(local, make(ModuleValue{dotted}), alias.range);
        }
      }
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
      } catch (const CompileError&) {
        bind_error(cls->name, std::current_exception(), s.range);
      }
    }
    // Other top-level statements (host code, `if __name__ == "__main__":`) are not tile code.
  }

  void function_def(const ast::FunctionDef& def, SourceRange range) {
    bind(def.name, make(FunctionValue{&def, scope_.get()}), def.name_range);
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

  void assign(const std::vector<ast::ExprPtr>& targets, const ast::ExprPtr& value,
              SourceRange range) {
    std::vector<std::string> names;
    for (const auto& t : targets)
      if (auto* n = t->as<ast::Name>()) names.push_back(n->id);
    if (names.size() != targets.size()) return;  // host-side unpacking etc.: not tile code
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

  static const KernelSignature& dummy_signature() {
    static const KernelSignature sig;
    return sig;
  }

  std::shared_ptr<ModuleScope> scope_;
};

}  // namespace

std::shared_ptr<const ModuleScope> evaluate_module(std::shared_ptr<const ast::Module> module) {
  return ModuleEvaluator(std::move(module)).run();
}

}  // namespace tile2cu::sema
