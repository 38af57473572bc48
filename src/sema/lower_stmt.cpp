// Statements and structured control flow; kernel entry and helper inlining.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <set>

#if defined(__linux__) && defined(__GLIBC__)
#include <pthread.h>
#endif

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

constexpr int kMaxInlineDepth = 1000;  // cuTile's limit
// Helpers calling helpers twice grow exponentially: stop long before that hangs.
constexpr long kMaxInlinedCalls = 20000;
// The code after a one-branch early return is lowered again in each branch that falls through;
// returns in several nested branches multiply those copies, so they share a cap too.
constexpr long kMaxRestCopies = 20000;
// Nested regions (if / for / while), inlined helpers' included; the passes and the emitter
// recurse over them.
constexpr size_t kMaxBlockDepth = 1000;
// Stack left when lowering stops with an error rather than overflow: eval and exec check it,
// and no path between two checks needs more.
constexpr uintptr_t kStackHeadroom = 256 * 1024;

// The lowest address this thread's stack may grow to plus the headroom; 0 where unknown.
uintptr_t stack_floor() {
  thread_local uintptr_t floor = [] {
    uintptr_t lo = 0;
#if defined(__linux__) && defined(__GLIBC__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size > 2 * kStackHeadroom)
        lo = reinterpret_cast<uintptr_t>(addr) + kStackHeadroom;
      pthread_attr_destroy(&attr);
    }
#endif
    return lo;
  }();
  return floor;
}

// Names a statement list assigns (not inside nested defs): the candidates for loop-carried
// variables and if-results.
void collect_assigned(const ast::ExprPtr& target, std::set<std::string>& out) {
  if (auto* n = target->as<ast::Name>()) out.insert(n->id);
  else if (auto* t = target->as<ast::TupleExpr>()) for (auto& e : t->elts) collect_assigned(e, out);
  else if (auto* l = target->as<ast::ListExpr>()) for (auto& e : l->elts) collect_assigned(e, out);
}

void collect_assigned(const ast::Body& body, std::set<std::string>& out) {
  for (const auto& s : body) {
    if (auto* a = s->as<ast::Assign>()) for (auto& t : a->targets) collect_assigned(t, out);
    else if (auto* a = s->as<ast::AugAssign>()) collect_assigned(a->target, out);
    else if (auto* a = s->as<ast::AnnAssign>()) collect_assigned(a->target, out);
    else if (auto* i = s->as<ast::If>()) {
      for (const auto& branch : i->branches) collect_assigned(branch.body, out);
      collect_assigned(i->orelse, out);
    }
    else if (auto* f = s->as<ast::For>()) { collect_assigned(f->target, out); collect_assigned(f->body, out); }
    else if (auto* w = s->as<ast::While>()) collect_assigned(w->body, out);
    else if (auto* w = s->as<ast::With>()) {
      for (const auto& item : w->items) if (item.target) collect_assigned(item.target, out);
      collect_assigned(w->body, out);
    }
    else if (s->as<ast::Return>()) {  // in a loop, a return sets these (loop_returns.cpp)
      out.insert(KernelLowering::kLoopReturned);
      out.insert(KernelLowering::kLoopReturnValue);
    }
  }
}

}  // namespace

std::set<std::string> function_locals(const ast::FunctionDef& def) {
  std::set<std::string> names;
  collect_assigned(def.body, names);
  for (const auto& p : def.params) names.insert(p.name);
  return names;
}

namespace {

bool is_numeric(const Value& v) { return v.is<Runtime>() || v.is_loose(); }

}  // namespace

KernelLowering::KernelLowering(const ModuleScope& scope, const KernelSignature& sig)
    : scope_(scope), current_scope_(&scope), sig_(sig),
      budget_(scope.budget ? scope.budget : std::make_shared<LoweringBudget>()) {
  if (scope.module) file_ = scope.module->file;
  frame_id_ = new_frame_id();
}

// The file of the code being lowered: a helper imported from another module lies in that one.
std::shared_ptr<const SourceFile> KernelLowering::current_file() const {
  return current_scope_ && current_scope_->module && current_scope_->module->file ? current_scope_->module->file : file_;
}

// Op::loc_file: -1 in the kernel's file, else that file's place in Function::imported_files.
void KernelLowering::append_op(ir::Op op) {
  spend_op();
  std::shared_ptr<const SourceFile> f = current_file();
  op.loc_file = -1;
  if (f && f != file_) {
    auto& files = fn_.imported_files;
    auto it = std::find(files.begin(), files.end(), f);
    if (it == files.end()) it = files.insert(files.end(), f);
    op.loc_file = static_cast<int>(it - files.begin());
  }
  blocks_.back()->ops.push_back(std::move(op));
}

void KernelLowering::error(ErrorKind kind, SourceRange range, const std::string& message) const {
  error_at(kind, call_stack_.size(), current_file(), range, message);
}

void KernelLowering::error_at(ErrorKind kind, size_t depth, std::shared_ptr<const SourceFile> file,
                              SourceRange range, const std::string& message) const {
  CompileError e(kind, message, std::move(file), range);
  // Frames of the inlining stack, innermost first; each names the function it lies in.
  auto function_at = [&](size_t d) { return d == 0 ? sig_.kernel : call_stack_[d - 1].function; };
  e.set_function_of_innermost(function_at(depth));
  for (size_t d = depth; d-- > 0;)
    e.add_caller_frame({call_stack_[d].file, call_stack_[d].call_range, function_at(d)});
  throw e;
}

void KernelLowering::guard_stack(SourceRange range) const {
  uintptr_t floor = stack_floor();
  if (floor == 0 || reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) > floor) return;
  const std::string message =
      "helpers and the expressions in them nest too deeply for tile2cu's stack (recursion?)";
  if (call_stack_.empty()) error(ErrorKind::Recursion, range, message);
  // Reported at the innermost helper call, as if raised by its caller: that is what nests.
  const CallFrame& inner = call_stack_.back();
  error_at(ErrorKind::Recursion, call_stack_.size() - 1, inner.file, inner.call_range, message);
}

void KernelLowering::unsupported(SourceRange range, const std::string& what) const {
  // Constructs real cuTile accepts but tile2cu does not handle yet, as opposed to Python that
  // is outside the tile language altogether.
  static const char* kNotYet[] = {"** unpacking", "**kwargs at a call site"};
  for (const char* w : kNotYet)
    if (what == w)
      error(ErrorKind::UnsupportedFeature, range, fmt::format("{} is not supported yet by tile2cu", what));
  error(ErrorKind::Syntax, range, fmt::format("Unsupported syntax: {}", what));
}

ir::Op KernelLowering::make_op(ir::OpKind kind, std::vector<ir::ValueId> operands) const {
  ir::Op op;
  op.kind = kind;
  op.operands = std::move(operands);
  op.loc = stmt_range_;
  return op;
}

std::vector<ir::ValueId> KernelLowering::emit(ir::Op op, const std::vector<ir::TileType>& types,
                                              const std::string& name) {
  if (blocks_.empty())
    error(ErrorKind::Type, stmt_range_, "a module-level value must be a compile-time constant");
  if (static_eval_depth_ > 0) check_static_op(op);
  // Element-wise math on splats (every element the same scalar) is done once on the scalars
  // and splatted: a (1, 1) keepdims reduction divided by n stays a scalar every thread holds.
  bool elementwise = op.kind == ir::OpKind::Binary || op.kind == ir::OpKind::Compare || op.kind == ir::OpKind::Unary ||
                     op.kind == ir::OpKind::Convert || op.kind == ir::OpKind::Select;
  if (elementwise && types.size() == 1 && !types[0].is_scalar() && !op.operands.empty() &&
      std::all_of(op.operands.begin(), op.operands.end(), [&](ir::ValueId v) { return splats_.count(v) > 0; })) {
    for (ir::ValueId& v : op.operands) v = splats_.at(v);
    ir::ValueId scalar = emit1(std::move(op), {types[0].dtype, {}}, name);
    ir::Op splat = make_op(ir::OpKind::Broadcast, {scalar});
    return {emit1(std::move(splat), types[0], name)};
  }
  bool splat = op.kind == ir::OpKind::Broadcast && types.size() == 1 && !types[0].is_scalar() &&
               fn_.type(op.operands[0]).is_scalar();
  for (const auto& t : types) check_tile_size(t.shape, stmt_range_);  // broadcasts, cat, mma, ...
  for (const auto& t : types) op.results.push_back(fn_.new_value(t, name));
  auto results = op.results;
  if (splat) splats_[results[0]] = op.operands[0];
  append_op(std::move(op));
  return results;
}

ir::ValueId KernelLowering::emit1(ir::Op op, const ir::TileType& type, const std::string& name) {
  return emit(std::move(op), {type}, name)[0];
}

// ---- syntax check of a whole function, done before lowering it ---------------------------------

void KernelLowering::check_syntax(const ast::FunctionDef& def, bool context_manager) const {
  std::function<void(const ast::ExprPtr&)> expr;
  // cuTile reads replacement fields when it translates the function (ast2hir), dead code too.
  std::function<void(const std::vector<ast::FStringPiece>&)> fstring =
      [&](const std::vector<ast::FStringPiece>& pieces) {
        for (const auto& piece : pieces) {
          if (!piece.value) continue;
          if (piece.conversion)
            error(ErrorKind::Syntax, piece.range, "f-string: !r, !s, !a conversions are not supported");
          if (piece.format_spec.size() > 1 || (piece.format_spec.size() == 1 && piece.format_spec[0].value))
            error(ErrorKind::Syntax, piece.range, "f-string: format spec must be a literal string");
          expr(piece.value);
        }
      };
  // Inside a call spelled static_eval / static_assert, host Python may hold a list
  // comprehension, and a walrus gets cuTile's own message when it is evaluated.
  int in_static_eval = 0;
  auto spelled_static = [](const ast::ExprPtr& func) {
    const auto* attr = func->as<ast::Attribute>();
    const auto* name = func->as<ast::Name>();
    const std::string& spelled = attr ? attr->attr : name ? name->id : std::string();
    return spelled == "static_eval" || spelled == "static_assert";
  };
  expr = [&](const ast::ExprPtr& e) {
    if (!e) return;
    std::visit([&](const auto& n) {
      using T = std::decay_t<decltype(n)>;
      if constexpr (std::is_same_v<T, ast::UnsupportedExpr>) {
        if (!in_static_eval || n.assigned_name.empty()) unsupported(e->range, n.what);
      }
      else if constexpr (std::is_same_v<T, ast::FString>) fstring(n.pieces);
      else if constexpr (std::is_same_v<T, ast::Yield>) {
        if (!context_manager) error(ErrorKind::Syntax, e->range, "Unsupported syntax: yield (only a @contextlib.contextmanager helper may yield)");
        expr(n.value);
      }
      else if constexpr (std::is_same_v<T, ast::Attribute>) expr(n.value);
      else if constexpr (std::is_same_v<T, ast::Subscript>) { expr(n.value); expr(n.index); }
      else if constexpr (std::is_same_v<T, ast::Slice>) { expr(n.lower); expr(n.upper); expr(n.step); }
      else if constexpr (std::is_same_v<T, ast::Starred>) expr(n.value);
      else if constexpr (std::is_same_v<T, ast::Call>) {
        expr(n.func);
        const bool host_python = spelled_static(n.func);
        in_static_eval += host_python;
        for (auto& a : n.args) expr(a);
        for (auto& k : n.keywords) expr(k.value);
        in_static_eval -= host_python;
      } else if constexpr (std::is_same_v<T, ast::Binary>) { expr(n.lhs); expr(n.rhs); }
      else if constexpr (std::is_same_v<T, ast::Unary>) expr(n.operand);
      else if constexpr (std::is_same_v<T, ast::BoolChain>) for (auto& v : n.values) expr(v);
      else if constexpr (std::is_same_v<T, ast::Compare>) { expr(n.left); for (auto& v : n.rights) expr(v); }
      else if constexpr (std::is_same_v<T, ast::IfExp>) { expr(n.cond); expr(n.then_value); expr(n.else_value); }
      else if constexpr (std::is_same_v<T, ast::ListExpr>) {
        if (ast::is_list_comprehension(n) && !in_static_eval) unsupported(e->range, "list comprehension");
        for (auto& v : n.elts) expr(v);
      }
      else if constexpr (std::is_same_v<T, ast::TupleExpr>) for (auto& v : n.elts) expr(v);
      else if constexpr (std::is_same_v<T, ast::DictExpr>) for (auto& item : n.items) { expr(item.key); expr(item.value); }
    }, e->kind);
  };
  std::function<void(const ast::Body&)> body = [&](const ast::Body& b) {
    for (const auto& s : b) {
      std::visit([&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::UnsupportedStmt>) unsupported(s->range, n.what);
        else if constexpr (std::is_same_v<T, ast::ExprStmt>) expr(n.value);
        else if constexpr (std::is_same_v<T, ast::Assign>) { for (auto& t : n.targets) expr(t); expr(n.value); }
        else if constexpr (std::is_same_v<T, ast::AugAssign>) { expr(n.target); expr(n.value); }
        else if constexpr (std::is_same_v<T, ast::AnnAssign>) { expr(n.target); expr(n.value); }
        else if constexpr (std::is_same_v<T, ast::If>) {
          for (const auto& branch : n.branches) { expr(branch.cond); body(branch.body); }
          body(n.orelse);
        }
        else if constexpr (std::is_same_v<T, ast::For>) {
          if (!n.orelse.empty()) error(ErrorKind::Syntax, s->range, "for ... else is not supported in tile code");
          expr(n.target); expr(n.iter); body(n.body);
        } else if constexpr (std::is_same_v<T, ast::While>) {
          if (!n.orelse.empty()) error(ErrorKind::Syntax, s->range, "while ... else is not supported in tile code");
          expr(n.cond); body(n.body);
        } else if constexpr (std::is_same_v<T, ast::Return>) {
          if (context_manager)
            error(ErrorKind::Syntax, s->range, "Returning from a generator-based context manager is not supported");
          expr(n.value);
        } else if constexpr (std::is_same_v<T, ast::With>) {
          for (const auto& item : n.items) { expr(item.context); expr(item.target); }
          body(n.body);
        } else if constexpr (std::is_same_v<T, ast::FunctionDef>) {
          // Its body is checked when it is called, like any helper.
          for (const auto& d : n.decorators)
            if (!is_wraps_decorator(d))
              error(ErrorKind::Syntax, d->range, "decorators on nested functions are not supported");
        }
        else if constexpr (std::is_same_v<T, ast::Import> || std::is_same_v<T, ast::ImportFrom>)
          unsupported(s->range, "import inside tile code");
        else if constexpr (std::is_same_v<T, ast::ClassDef>)  // classes are module-level only
          unsupported(s->range, "class definition");
      }, s->kind);
    }
  };
  for (const auto& p : def.params) {
    if (p.kind != ast::Param::Kind::Normal && helper_depth_ == 0)
      error(ErrorKind::Syntax, p.range, "variadic parameters (*args, **kwargs) are not allowed in a kernel");
  }
  body(def.body);
}

// ---- statements ------------------------------------------------------------------------------

void KernelLowering::assign(const ast::ExprPtr& target, const Value& v, SourceRange range) {
  if (auto* n = target->as<ast::Name>()) {
    if (auto* r = v.as<Runtime>(); r && fn_.values[r->id].name.empty()) {
      fn_.values[r->id].name = n->id;
      // A splat reads as its scalar in the generated code: the scalar carries the name.
      if (auto it = splats_.find(r->id); it != splats_.end() && fn_.values[it->second].name.empty())
        fn_.values[it->second].name = n->id;
    }
    if (auto* a = v.as<ArrayValue>()) name_array_view(a->param, n->id);
    env_[n->id] = v;
    return;
  }
  const std::vector<ast::ExprPtr>* elts = nullptr;
  if (auto* t = target->as<ast::TupleExpr>()) elts = &t->elts;
  if (auto* l = target->as<ast::ListExpr>()) elts = &l->elts;
  if (elts) {
    for (const auto& e : *elts)
      if (e->as<ast::Starred>()) unsupported(e->range, "starred assignment target");
    auto* tuple = v.as<TupleValue>();
    if (!tuple) error(ErrorKind::Type, range, fmt::format("cannot unpack {}", describe(v)));
    if (tuple->items.size() < elts->size())
      error(ErrorKind::Value, range, fmt::format("Too few values to unpack (expected {}, got {})", elts->size(), tuple->items.size()));
    if (tuple->items.size() > elts->size())
      error(ErrorKind::Value, range, fmt::format("Too many values to unpack (expected {}, got {})", elts->size(), tuple->items.size()));
    for (size_t i = 0; i < elts->size(); ++i) assign((*elts)[i], tuple->items[i], range);
    return;
  }
  if (auto* sub = target->as<ast::Subscript>()) {
    Value base = eval(sub->value);
    if (base.is<DataclassValue>()) {  // the user's __setitem__, if the class has one
      if (call_dunder(base, "__setitem__", {eval(sub->index), v}, range)) return;
    }
    item_assignment(*sub, target->range);
  }
  if (target->as<ast::Attribute>())
    error(ErrorKind::Syntax, target->range,
          "assigning an attribute is not supported in tile code (dataclass instances are frozen: "
          "use dataclasses.replace)");
  if (target->as<ast::Starred>()) unsupported(target->range, "starred assignment target");
  error(ErrorKind::Syntax, target->range, "cannot assign to this expression in tile code");
}

void KernelLowering::item_assignment(const ast::Subscript& target, SourceRange range) {
  Value base = eval(target.value);
  if (base.is<TupleValue>())
    error(ErrorKind::Type, range, "Tuples are immutable: item assignment is not supported.");
  if (base.is<DictValue>())
    error(ErrorKind::UnsupportedFeature, range,
          "assigning an item of a dict is not supported in tile code (a dict is a compile-time value); "
          "build a new dict with {**d, key: value}");
  if (auto* d = base.as<DataclassValue>()) {
    if (d->cls->find("__setitem__"))  // reached from `obj[k] += v`
      error(ErrorKind::UnsupportedFeature, range,
            "augmented assignment to an item of a dataclass instance is not supported yet by tile2cu");
    error(ErrorKind::Type, range, fmt::format("'{}' object does not support item assignment", d->cls->name));
  }
  if (base.is<ArrayValue>())
    error(ErrorKind::Type, range, "Arrays do not support item assignment. Use store() or scatter() instead.");
  error(ErrorKind::Type, range, "Tiles are immutable: item assignment is not supported.");
}

Flow KernelLowering::exec_body(const ast::Body& body, size_t first) {
  rest_.emplace_back(&body, first);
  for (size_t i = first; i < body.size(); ++i) {
    rest_.back().second = i + 1;
    Flow f = exec(*body[i]);
    if (f != Flow::Normal) {
      rest_.pop_back();
      return f;
    }
  }
  rest_.pop_back();
  return Flow::Normal;
}

Flow KernelLowering::loop_jump(bool is_break, SourceRange r) {
  exit_open_withs(withs_in_innermost_loop());  // the with bodies the jump leaves
  if (!is_break) note_back_edge();
  if (is_break) loops_.back().carried->break_names.push_back(env_);
  std::vector<ir::ValueId> carried = carried_exit_values(*loops_.back().carried, r, is_break);
  emit(make_op(is_break ? ir::OpKind::Break : ir::OpKind::Continue, std::move(carried)), {});
  return is_break ? Flow::Break : Flow::Continue;
}

bool KernelLowering::can_continue() const {
  // Not inside a loop (the rest of its body is not the rest of the helper), nor in a context
  // manager's body. A with body's rest is followed by its managers' exits (exec_rest_of_helper).
  return in_helper_ && continuable_ && loops_.empty();
}

Flow KernelLowering::exec_rest_of_helper(std::vector<std::pair<const ast::Body*, size_t>> frames) {
  if (++rest_copies_ > kMaxRestCopies)
    error(ErrorKind::Recursion, stmt_range_,
          fmt::format("more than {} copies of helper code after early returns (a helper that returns in "
                      "several nested branches copies the rest of its body into each one); return once, "
                      "at the end, with ct.where or a variable", kMaxRestCopies));
  auto saved = rest_;
  auto saved_withs = with_bodies_;
  Flow flow = Flow::Normal;
  while (!frames.empty()) {
    auto [body, next] = frames.back();
    frames.pop_back();
    rest_ = frames;
    flow = exec_body(*body, next);
    if (flow != Flow::Normal) break;
    // The end of a with body: its managers exit here, and it is no longer open for a return
    // further on.
    if (!with_bodies_.empty() && with_bodies_.back().body == body) {
      std::vector<SuspendedManager> managers = with_bodies_.back().managers;
      with_bodies_.pop_back();
      exit_managers(managers);
    }
  }
  rest_ = std::move(saved);
  with_bodies_ = std::move(saved_withs);
  if (flow == Flow::Normal) {  // the end of the helper: it returns None
    return_value_ = make(NoneValue{});
    flow = Flow::Return;
  }
  return flow;
}

void KernelLowering::check_nesting(SourceRange range) const {
  guard_stack(range);
  if (blocks_.size() > kMaxBlockDepth)
    error(ErrorKind::Recursion, range,
          fmt::format("control flow nested more than {} deep, inlined helpers included (recursion?)",
                      kMaxBlockDepth));
}

Flow KernelLowering::exec(const ast::Stmt& s) {
  check_nesting(s.range);
  spend_step(s.range);
  stmt_range_ = s.range;
  const SourceRange r = s.range;
  if (auto* e = s.as<ast::ExprStmt>()) {
    if (!e->value->as<ast::StrLit>()) eval(e->value);  // docstrings are no code
    return Flow::Normal;
  }
  if (auto* a = s.as<ast::Assign>()) {
    Value v = eval(a->value);
    for (const auto& t : a->targets) assign(t, v, r);
    return Flow::Normal;
  }
  if (auto* a = s.as<ast::AugAssign>()) {
    auto* n = a->target->as<ast::Name>();
    if (!n) {
      if (auto* sub = a->target->as<ast::Subscript>()) {
        eval(a->target);  // Python reads x[i] first: an array's read is the error cuTile reports
        item_assignment(*sub, a->target->range);
      }
      unsupported(a->target->range, "augmented assignment to an attribute");
    }
    Value old = eval_name(n->id, a->target->range);
    Value rhs = eval(a->value);
    Value v = binary(a->op, old, rhs, r);
    if (auto* rt = v.as<Runtime>(); rt && fn_.values[rt->id].name.empty()) fn_.values[rt->id].name = n->id;
    env_[n->id] = v;
    return Flow::Normal;
  }
  if (auto* a = s.as<ast::AnnAssign>()) {
    if (a->value) assign(a->target, eval(a->value), r);
    return Flow::Normal;
  }
  if (s.as<ast::Pass>()) return Flow::Normal;
  if (auto* ret = s.as<ast::Return>()) {
    // The value first, then the exits of the with bodies the return leaves (all of the
    // function's), as Python and cuTile do.
    Value v = ret->value ? eval(ret->value) : make(NoneValue{});
    if (!in_helper_) {
      if (!v.is<NoneValue>()) error(ErrorKind::Type, r, "Tile kernels cannot return values");
      exit_open_withs(0);
      emit(make_op(ir::OpKind::Return), {});
      return Flow::Return;
    }
    for (const auto& loop : loops_)
      if (loop.is_for)  // cuTile's test_helper_function.py::test_early_return_inside_for_loop
        error(ErrorKind::Syntax, r, "Returning from a for loop is not supported");
    return helper_return(std::move(v), r);  // inside a while loop: loop_returns.cpp
  }
  if (s.as<ast::Break>() || s.as<ast::Continue>()) {
    bool is_break = s.as<ast::Break>() != nullptr;
    if (loops_.empty()) error(ErrorKind::Syntax, r, fmt::format("'{}' outside loop", is_break ? "break" : "continue"));
    return loop_jump(is_break, r);
  }
  if (auto* i = s.as<ast::If>()) return exec_if(*i, 0);
  if (auto* f = s.as<ast::For>()) return exec_for(*f, r);
  if (auto* w = s.as<ast::While>()) return exec_while(*w, r);
  if (auto* w = s.as<ast::With>()) return exec_with(*w, r);
  if (auto* def = s.as<ast::FunctionDef>()) {
    env_[def->name] = decorated_function(*def, make_function(*def));
    return Flow::Normal;
  }
  if (auto* u = s.as<ast::UnsupportedStmt>()) unsupported(r, u->what);
  if (s.as<ast::ClassDef>()) unsupported(r, "class definition");
  unsupported(r, "this statement");
}

// ---- control flow -----------------------------------------------------------------------------

// The branches of an if from `first` on. Constant conditions pick a branch in this loop, so an
// elif chain of any length costs no recursion; a runtime condition opens an If op whose else
// region holds the rest of the chain, one region deeper per runtime elif (kMaxBlockDepth).
Flow KernelLowering::exec_if(const ast::If& i, size_t first) {
  for (size_t k = first; k < i.branches.size(); ++k) {
    const ast::IfBranch& branch = i.branches[k];
    if (k > 0) check_nesting(branch.range);
    stmt_range_ = branch.range;
    Value cond = eval(branch.cond);
    bool constant = false;
    bool taken = truth(cond, branch.cond->range, &constant);
    // cuTile refuses a run-time branch in a combiner before it looks at the branches' bodies.
    if (!constant && combiner_body_kind())
      error(ErrorKind::Syntax, branch.range, fmt::format("Branching inside {} body is not supported", combiner_body_kind()));
    if (!constant)
      return exec_runtime_if(
          to_runtime_as(cond, DType::Bool, branch.cond->range), [&] { return exec_body(branch.body); },
          [&] { return exec_if(i, k + 1); }, branch.range);
    if (taken) return exec_body(branch.body);  // the dead branches are never checked
  }
  return exec_body(i.orelse);
}

// Brings the value a name has at the end of a region to `type`, inside that region.
ir::ValueId KernelLowering::yield_as(const std::string& name, const Value& v, const ir::TileType& type,
                                     SourceRange range, const char* context) {
  if (v.is_loose()) {
    if (!type.is_scalar())
      error(ErrorKind::Type, range, fmt::format("Variable {} {}: {} vs {}", name, context,
                                                ir::type_string(type), describe(v)));
    return to_runtime_as(v, type.dtype, range);
  }
  auto* rt = v.as<Runtime>();
  if (!rt || type_of(rt->id) != type)
    error(ErrorKind::Type, range, fmt::format("Variable {} {}: {} vs {}", name, context,
                                              ir::type_string(type), describe(v)));
  return rt->id;
}

Flow KernelLowering::exec_runtime_if(ir::ValueId cond, const std::function<Flow()>& then_branch,
                                     const std::function<Flow()>& else_branch, SourceRange range) {
  Env before = env_;
  // Array entries made inside a branch (a list item, a slice, a loop's choice) are declared in
  // that branch's C++ block: a choice after the if can only be between older ones.
  const size_t arrays_before = fn_.arrays.size();
  ir::Op op = make_op(ir::OpKind::If, {cond});
  op.regions.resize(2);
  Env branch_env[2];
  Flow flows[2];
  std::optional<Value> returns[2];
  const std::function<Flow()>* branches[2] = {&then_branch, &else_branch};
  for (int b = 0; b < 2; ++b) {
    env_ = before;
    return_value_.reset();
    blocks_.push_back(&op.regions[b]);
    flows[b] = (*branches[b])();
    blocks_.pop_back();
    branch_env[b] = env_;
    returns[b] = return_value_;
  }
  stmt_range_ = range;
  // One branch returns from the helper and the other falls through: the rest of the helper
  // goes into the falling branch, which then returns too.
  if (in_helper_ && can_continue() && (flows[0] == Flow::Return) != (flows[1] == Flow::Return)) {
    int b = flows[0] == Flow::Normal ? 0 : flows[1] == Flow::Normal ? 1 : -1;
    if (b >= 0) {
      env_ = branch_env[b];
      return_value_.reset();
      blocks_.push_back(&op.regions[b]);
      flows[b] = exec_rest_of_helper(rest_);
      blocks_.pop_back();
      branch_env[b] = env_;
      returns[b] = return_value_;
      stmt_range_ = range;
    }
  }
  bool live[2] = {flows[0] == Flow::Normal, flows[1] == Flow::Normal};
  bool helper_return[2] = {in_helper_ && flows[0] == Flow::Return, in_helper_ && flows[1] == Flow::Return};
  if (helper_return[0] != helper_return[1] && (live[0] || live[1]))
    error(ErrorKind::UnsupportedFeature, range,
          "a helper that returns in only one branch of a runtime if is not supported yet; return in both branches");

  // The if's results: one per leaf that differs between the branches, with its type.
  struct IfResult {
    std::string var;   // the name it belongs to, for messages
    std::string name;  // its IR value's name
    ir::TileType type;
    Value values[2];   // at the end of each branch (unset for a branch that left)
  };
  // A name (or the helper's return value) rebound after the if: its structure with each leaf
  // either an if result or the value both branches agree on.
  struct Rebind {
    std::string name;
    Value structure;
    std::vector<Value> leaves;
    std::vector<std::optional<size_t>> result_of_leaf;
  };
  std::vector<IfResult> results_spec;
  std::vector<Rebind> rebinds;
  // A name each path binds to another array: the if yields the path's index into `candidates`
  // (result `selector`), and an ArraySelect after it picks the array.
  struct ArrayMerge {
    std::string name;
    std::vector<int> candidates;
    size_t selector;
  };
  std::vector<ArrayMerge> array_merges;
  // The type of an if result from its two sides: a run-time side decides; two literals take
  // their default dtype. Empty when the sides disagree.
  auto result_type = [&](const Value* sides[2]) -> std::optional<ir::TileType> {
    const Value* typed = nullptr;
    const Value* any = nullptr;
    for (int b = 0; b < 2; ++b) {
      if (!sides[b]) continue;
      any = any ? any : sides[b];
      if (!typed && sides[b]->is<Runtime>()) typed = sides[b];
    }
    ir::TileType type = typed ? type_of(typed->as<Runtime>()->id) : ir::TileType{default_dtype(*any, range), {}};
    for (int b = 0; b < 2; ++b) {
      if (!sides[b]) continue;
      if (auto* rt = sides[b]->as<Runtime>(); rt && type_of(rt->id) != type) return std::nullopt;
      if (sides[b]->is_loose() && !type.is_scalar()) return std::nullopt;
      // As in cuTile, a Python number takes its own type at the merge (int32, float32, bool_),
      // never the other path's: `a = 1` against `a = 2.0` or an int16 is a type that depends
      // on the path (test_typeinfer.py::test_control_flow_type_mismatch).
      if (sides[0] && sides[1] && sides[b]->is_loose() && default_dtype(*sides[b], range) != type.dtype)
        return std::nullopt;
    }
    return type;
  };
  // Two records of one structure: the leaves that differ become if results.
  auto merge_records = [&](const std::string& name, const std::string& var, const Value* sides[2]) -> bool {
    const Value* any = sides[0] ? sides[0] : sides[1];
    Rebind rebind{name, *any, {}, {}};
    std::vector<Value> leaves[2];
    std::vector<std::string> leaf_names;
    for (int b = 0; b < 2; ++b) if (sides[b]) leaves[b] = record_leaves(*sides[b], name, &leaf_names);
    const std::vector<Value>& some = sides[0] ? leaves[0] : leaves[1];
    std::vector<IfResult> added;
    for (size_t k = 0; k < some.size(); ++k) {
      const Value* leaf[2] = {sides[0] ? &leaves[0][k] : nullptr, sides[1] ? &leaves[1][k] : nullptr};
      rebind.leaves.push_back(some[k]);
      // A leaf both branches agree on stays; so does a constant from the only branch that
      // falls through. A tile that branch computed must leave its region as a result.
      bool kept = leaf[0] && leaf[1] ? same_value(*leaf[0], *leaf[1]) : !some[k].is<Runtime>();
      if (kept) {
        rebind.result_of_leaf.push_back(std::nullopt);
        continue;
      }
      std::optional<ir::TileType> type = result_type(leaf);
      if (!type) return false;
      rebind.result_of_leaf.push_back(results_spec.size() + added.size());
      added.push_back({var, leaf_names[k], *type, {leaf[0] ? *leaf[0] : Value{}, leaf[1] ? *leaf[1] : Value{}}});
    }
    results_spec.insert(results_spec.end(), added.begin(), added.end());
    rebinds.push_back(std::move(rebind));
    return true;
  };
  env_ = before;
  if (helper_return[0] && helper_return[1]) {
    const Value* sides[2] = {&*returns[0], &*returns[1]};
    bool records = is_record(*sides[0]) && is_record(*sides[1]);
    bool numeric = is_numeric(*sides[0]) && is_numeric(*sides[1]);
    // cuTile types a Python int int32, a float float32 and a bool bool_: constants of two kinds
    // are two types (test_helper_function.py::test_return_type_mismatch), not one promoted.
    auto loose_kind = [](const Value& v) { return v.is<LooseInt>() ? 1 : v.is<LooseFloat>() ? 2 : v.is<LooseBool>() ? 3 : 0; };
    const bool loose_kinds_differ =
        loose_kind(*sides[0]) != 0 && loose_kind(*sides[1]) != 0 && loose_kind(*sides[0]) != loose_kind(*sides[1]);
    if (sides[0]->is<NoneValue>() != sides[1]->is<NoneValue>() || loose_kinds_differ)  // or one path returns None
      error(ErrorKind::Type, range, fmt::format("Type of return value depends on path taken: {} vs {}",
                                                describe_carried(*sides[0]), describe_carried(*sides[1])));
    if (!records && !numeric && !same_value(*sides[0], *sides[1]))
      error(ErrorKind::UnsupportedFeature, range, "a helper returning non-tile values from a runtime if is not supported yet");
    if ((records && !same_structure(*sides[0], *sides[1])) || !merge_records("<return>", "return value", sides))
      error(ErrorKind::Type, range, fmt::format("Type of return value depends on path taken: {} vs {}",
                                                describe_carried(*sides[0]), describe_carried(*sides[1])));
    // A helper's return value is named after the helper until someone binds it.
    for (auto& r : results_spec) r.name = call_stack_.back().function;
    live[0] = live[1] = true;
  } else {
    std::set<std::string> names;
    for (int b = 0; b < 2; ++b)
      if (live[b]) for (auto& [n, v] : branch_env[b]) names.insert(n);
    for (const auto& n : names) {
      const Value* vals[2] = {nullptr, nullptr};
      for (int b = 0; b < 2; ++b)
        if (live[b] && branch_env[b].count(n)) vals[b] = &branch_env[b].at(n);
      bool defined_everywhere = (!live[0] || vals[0]) && (!live[1] || vals[1]);
      const Value* any = vals[0] ? vals[0] : vals[1];
      if (!defined_everywhere) {
        env_[n] = make(PoisonValue{fmt::format("Undefined variable {} used (it is assigned on only one path of an if)", n)});
        continue;
      }
      bool same = !live[0] || !live[1] || same_value(*vals[0], *vals[1]);
      if (same) {
        if (before.count(n) && same_value(before.at(n), *any)) { env_[n] = *any; continue; }
        // A record is rebuilt below: the tiles in it may have been computed in the branch.
        if (!is_record(*any) && !any->is<Runtime>() && !any->is_loose()) { env_[n] = *any; continue; }
        if (any->is_loose() || (live[0] && live[1] && !is_record(*any))) { env_[n] = *any; continue; }
      }
      if (live[0] && live[1] && vals[0]->is<ArrayValue>() && vals[1]->is<ArrayValue>()) {
        const int chosen[2] = {vals[0]->as<ArrayValue>()->param, vals[1]->as<ArrayValue>()->param};
        const bool made_before = static_cast<size_t>(std::max(chosen[0], chosen[1])) < arrays_before;
        if (arrays_can_meet(chosen[0], chosen[1]) && !made_before) {
          env_[n] = make(PoisonValue{fmt::format(
              "Variable {} names an array chosen or made inside a branch of the if; choosing between such "
              "arrays after the if is not supported yet by tile2cu", n)});
          continue;
        }
        if (arrays_can_meet(chosen[0], chosen[1])) {
          array_merges.push_back({n, {chosen[0], chosen[1]}, results_spec.size()});
          results_spec.push_back({n, n + "_path", {DType::Int32, {}}, {make(LooseInt{0}), make(LooseInt{1})}});
          continue;
        }
      }
      bool numeric = (!live[0] || is_numeric(*vals[0])) && (!live[1] || is_numeric(*vals[1]));
      // Closures of one def that captured different values merge as records (their captures).
      auto record_like = [](const Value& v) { return is_record(v) || is_closure_record(v); };
      bool records = (!live[0] || record_like(*vals[0])) && (!live[1] || record_like(*vals[1]));
      if (records && (!live[0] || !live[1] || same_structure(*vals[0], *vals[1])) && merge_records(n, n, vals)) continue;
      if (numeric && merge_records(n, n, vals)) continue;
      if (n == "<genexpr result>")  // a tuple comprehension's `if` (frontend's lower_generator)
        env_[n] = make(PoisonValue{"Tuple comprehension if-conditions must be statically known"});
      else if (numeric || records || (vals[0] && is_record(*vals[0])) || (vals[1] && is_record(*vals[1])))
        env_[n] = make(PoisonValue{fmt::format("Type of `{}` depends on path taken: {} vs {}", n,
                                               live[0] ? describe_carried(*vals[0]) : "",
                                               live[1] ? describe_carried(*vals[1]) : "")});
      else if (live[0] && live[1])  // cuTile's order and words (test_typeinfer.py::test_enum_in_branch)
        env_[n] = make(PoisonValue{fmt::format("Type of `{}` depends on path taken: {} (the else path) vs. {} (the if path)",
                                               n, describe(*vals[1]), describe(*vals[0]))});
      else
        env_[n] = make(PoisonValue{fmt::format("Type of `{}` depends on path taken", n)});
    }
  }
  for (int b = 0; b < 2; ++b) {
    if (!live[b]) continue;
    std::swap(env_, branch_env[b]);
    blocks_.push_back(&op.regions[b]);
    std::vector<ir::ValueId> yields;
    for (const IfResult& r : results_spec)
      yields.push_back(yield_as(r.var, r.values[b], r.type, range, "has a different type on each path of the if"));
    emit(make_op(ir::OpKind::Yield, std::move(yields)), {});
    blocks_.pop_back();
    std::swap(env_, branch_env[b]);
  }
  for (const IfResult& r : results_spec) op.results.push_back(fn_.new_value(r.type, r.name));
  const std::vector<ir::ValueId> results = op.results;
  append_op(std::move(op));
  for (const ArrayMerge& m : array_merges) env_[m.name] = array_choice(results[m.selector], m.candidates, m.name);
  for (Rebind& r : rebinds) {
    for (size_t k = 0; k < r.leaves.size(); ++k)
      if (r.result_of_leaf[k]) r.leaves[k] = make(Runtime{results[*r.result_of_leaf[k]]});
    Value v = rebuild_record(r.structure, r.leaves);
    if (r.name == "<return>") {
      return_value_ = v;
      return Flow::Return;
    }
    env_[r.name] = v;
  }
  if (!live[0] && !live[1]) {
    // Both branches left: what follows is unreachable.
    return flows[0] == flows[1] ? flows[0] : Flow::Break;
  }
  return Flow::Normal;
}

std::vector<std::string> KernelLowering::carried_names(const ast::Body& body, SourceRange range) {
  std::set<std::string> assigned;
  collect_assigned(body, assigned);
  std::vector<std::string> carried;
  for (const auto& n : assigned) {
    auto it = env_.find(n);
    if (it == env_.end() || it->second.is<PoisonValue>()) continue;
    if (is_numeric(it->second) || is_record(it->second)) carried.push_back(n);
    // An array the body rebinds is carried as its index among the arrays it may name.
    if (it->second.is<ArrayValue>()) {
      env_[array_selector_name(n)] = make(LooseInt{0});
      carried.push_back(array_selector_name(n));
    }
  }
  (void)range;
  return carried;
}

void KernelLowering::finish_loop_scope(const Env& before, const CarriedNames& carried,
                                       const std::set<std::string>& assigned) {
  // Names first bound inside the body are not visible after it: the loop may not run.
  for (const auto& n : assigned) {
    if (carried.carries(n)) continue;
    auto it = before.find(n);
    if (it == before.end()) {
      env_[n] = make(PoisonValue{fmt::format("Undefined variable {} used (it is assigned only inside a loop, which may run zero times)", n)});
    } else if (const Value& after = env_.count(n) ? env_.at(n) : it->second; !same_value(it->second, after)) {
      check_array_unchanged(n, it->second, after, stmt_range_);
      env_[n] = make(PoisonValue{fmt::format("Variable {} is not a tile or scalar and cannot change inside a loop", n)});
    } else {
      env_[n] = it->second;
    }
  }
}

Flow KernelLowering::exec_for(const ast::For& f, SourceRange range) {
  if (static_eval_depth_ > 0) return exec_compile_time_for(f, range);
  auto* call = f.iter->as<ast::Call>();
  Value callee = call ? eval(call->func) : make(NoneValue{});
  auto* builtin = callee.as<BuiltinValue>();
  if (!builtin || builtin->name != "range") {
    if (builtin && builtin->name == "ct.static_iter") return exec_static_iter(f, *call, range);
    error(ErrorKind::Type, f.iter->range, "a for loop in tile code can only iterate over range(...)");  // cuTile: TileTypeError
  }
  if (call->args.empty() || call->args.size() > 3 || !call->keywords.empty())
    error(ErrorKind::Type, f.iter->range, "range() takes 1 to 3 positional arguments");
  std::vector<Value> bounds;
  for (const auto& a : call->args) {
    Value v = eval(a);
    auto dt = value_dtype(v);
    if (!dt || !value_shape(v).empty()) error(ErrorKind::Type, a->range, fmt::format("Invalid argument of range(): Expected a scalar, got {}", describe(v)));
    if (v.is<LooseFloat>() || (v.is<Runtime>() && !is_signed_integer(*dt)))
      error(ErrorKind::Type, a->range, fmt::format("Invalid argument of range(): Expected a signed integer, got {}", describe(v)));
    bounds.push_back(v);
  }
  Value lo = bounds.size() >= 2 ? bounds[0] : make(LooseInt{0});
  Value hi = bounds.size() >= 2 ? bounds[1] : bounds[0];
  Value step = bounds.size() == 3 ? bounds[2] : make(LooseInt{1});
  if (auto* s = step.as<LooseInt>(); s && s->value <= 0)
    error(ErrorKind::Type, call->args.back()->range, fmt::format("Step must be positive, got {}", static_cast<long long>(s->value)));
  DType iv_type = DType::Int32;
  for (const Value* v : {&lo, &hi, &step})
    if (auto* rt = v->as<Runtime>(); rt && type_of(rt->id).dtype == DType::Int64) iv_type = DType::Int64;

  auto* target = f.target->as<ast::Name>();
  if (!target) unsupported(f.target->range, "a for loop target other than a single name");

  std::set<std::string> assigned;
  collect_assigned(f.body, assigned);
  assigned.insert(target->id);
  std::vector<std::string> carried_list = carried_names(f.body, range);
  carried_list.erase(std::remove(carried_list.begin(), carried_list.end(), target->id), carried_list.end());

  ir::Op op = make_op(ir::OpKind::For, {to_runtime_as(lo, iv_type, range), to_runtime_as(hi, iv_type, range),
                                        to_runtime_as(step, iv_type, range)});
  CarriedNames carried = carry(carried_list, range);
  op.operands.insert(op.operands.end(), carried.initial_ids.begin(), carried.initial_ids.end());
  op.regions.resize(1);
  ir::Block& body = op.regions[0];
  body.args.push_back(fn_.new_value({iv_type, {}}, target->id));
  Env before = env_;
  watch_loop_names(before, assigned, carried.names);
  for (size_t k = 0; k < carried.types.size(); ++k) body.args.push_back(fn_.new_value(carried.types[k], carried.leaf_names[k]));
  carried.body_args.assign(body.args.begin() + 1, body.args.end());
  bind_carried(carried, carried.body_args);
  env_[target->id] = make(Runtime{body.args[0]});

  blocks_.push_back(&body);
  loop_body(f.body, carried, /*is_for=*/true, range);
  blocks_.pop_back();
  close_loop_watch();
  close_loop(std::move(op), before, carried, /*is_for=*/true, /*exits_only_by_break=*/false, assigned, range);
  return Flow::Normal;
}

void KernelLowering::loop_body(const ast::Body& body, CarriedNames& carried, bool is_for, SourceRange range) {
  loops_.push_back({&carried, is_for});
  Flow flow = exec_body(body);
  loops_.pop_back();
  if (flow != Flow::Normal) return;  // the body left by break/continue/return: nothing to yield
  note_back_edge();
  std::vector<ir::ValueId> yields = carried_exit_values(carried, range);
  stmt_range_ = range;
  emit(make_op(ir::OpKind::Yield, std::move(yields)), {});
}

void KernelLowering::close_loop(ir::Op op, const Env& before, const CarriedNames& carried, bool is_for,
                                bool exits_only_by_break, const std::set<std::string>& assigned, SourceRange range) {
  stmt_range_ = range;
  Env inside = std::move(env_);
  env_ = before;
  for (size_t k = 0; k < carried.types.size(); ++k) op.results.push_back(fn_.new_value(carried.types[k], carried.leaf_names[k]));
  bind_carried(carried, op.results, loop_result_constants(carried, is_for, exits_only_by_break));
  // Every other name the body assigned leaves with its value from inside: finish_loop_scope
  // compares it with the one before the loop (an array rebound in the loop is an error there).
  for (const auto& n : assigned)
    if (inside.count(n) && !carried.carries(n)) env_[n] = inside.at(n);
  finish_loop_scope(before, carried, assigned);
  append_op(std::move(op));
  // A rebound array name: the array its carried index picks (finish_loop_scope refused it when
  // some exit left it naming an array that cannot be chosen).
  for (const CarriedNames::ArrayCarry& a : carried.arrays) {
    const Value selector = env_.at(a.selector);
    env_.erase(a.selector);
    if (a.unusable || a.candidates.size() < 2) continue;
    if (auto* k = selector.as<LooseInt>())
      env_[a.name] = make(ArrayValue{a.candidates.at(static_cast<size_t>(k->value))});
    else
      env_[a.name] = array_choice(selector.as<Runtime>()->id, a.candidates, a.name);
  }
}

Flow KernelLowering::exec_while(const ast::While& w, SourceRange range) {
  // A helper's return inside the loop leaves it with this carried flag set (loop_returns.cpp).
  const bool returns_inside = in_helper_ && body_returns(w.body);
  if (returns_inside) env_[kLoopReturned] = make(LooseBool{false});
  std::set<std::string> assigned;
  collect_assigned(w.body, assigned);
  ir::Op op = make_op(ir::OpKind::While);
  CarriedNames carried = carry(carried_names(w.body, range), range);
  op.operands = carried.initial_ids;
  op.regions.resize(2);
  Env before = env_;
  bool exits_only_by_break = false;
  watch_loop_names(before, assigned, carried.names);
  for (int region = 0; region < 2; ++region) {
    ir::Block& block = op.regions[region];
    env_ = before;
    for (size_t k = 0; k < carried.types.size(); ++k) block.args.push_back(fn_.new_value(carried.types[k], carried.leaf_names[k]));
    if (region == 1) carried.body_args = block.args;
    bind_carried(carried, block.args);
    blocks_.push_back(&block);
    if (region == 0) {
      Value cond = eval(w.cond);
      bool constant = false;
      bool holds = truth(cond, w.cond->range, &constant);  // rejects tile conditions
      exits_only_by_break = constant && holds;
      stmt_range_ = range;
      ir::ValueId c = constant ? this->constant(holds, DType::Bool) : to_runtime_as(cond, DType::Bool, w.cond->range);
      emit(make_op(ir::OpKind::Condition, {c}), {});
    } else {
      loop_body(w.body, carried, /*is_for=*/false, range);
    }
    blocks_.pop_back();
  }
  Env type_conflicts;
  if (exits_only_by_break) {
    // A name first bound inside `while True` and bound at every break is the loop's result
    // (cuTile's test_yield_previously_undefined_tuple_from_loop): lower the loop again with
    // it carried from a stand-in. The first lowering's op is dropped unappended.
    Env stand_ins = names_bound_at_every_break(before, assigned, carried, &type_conflicts);
    if (!stand_ins.empty()) {
      loop_watches_.pop_back();
      env_ = before;
      for (auto& [n, v] : stand_ins) env_[n] = v;
      return exec_while(w, range);
    }
  }
  if (returns_inside && !before.count(kLoopReturnValue)) {
    // A return showed the value's type: lower the loop again carrying it (loop_returns.cpp).
    if (std::optional<Value> stand_in = return_value_stand_in(carried)) {
      loop_watches_.pop_back();
      env_ = before;
      env_[kLoopReturnValue] = *stand_in;
      return exec_while(w, range);
    }
  }
  close_loop_watch();
  close_loop(std::move(op), before, carried, /*is_for=*/false, exits_only_by_break, assigned, range);
  for (auto& [n, poison] : type_conflicts) env_[n] = poison;  // breaks that bind it with two types
  if (returns_inside) return after_loop_with_returns(range);
  return Flow::Normal;
}

Env KernelLowering::names_bound_at_every_break(const Env& before, const std::set<std::string>& assigned,
                                               const CarriedNames& carried, Env* conflicts) {
  Env stand_ins;
  if (carried.break_names.empty()) return stand_ins;
  auto leaf_type = [&](const Value& leaf) -> std::optional<ir::TileType> {
    if (auto* r = leaf.as<Runtime>()) return type_of(r->id);
    return std::nullopt;  // a Python number: carried as its default dtype
  };
  for (const auto& n : assigned) {
    if (before.count(n)) continue;
    const Env& first = carried.break_names[0];
    auto it = first.find(n);
    if (it == first.end() || !(is_numeric(it->second) || is_record(it->second))) continue;
    const Value& v = it->second;
    std::vector<Value> leaves = record_leaves(v, n, nullptr);
    // A Python number has its own type where the breaks meet (int32, float32, bool_).
    auto merged_type = [&](const Value& leaf) {
      return leaf.is_loose() ? std::optional<ir::TileType>{ir::TileType{default_dtype(leaf, {}), {}}} : leaf_type(leaf);
    };
    bool same = true;
    for (const Env& at_break : carried.break_names) {
      auto jt = at_break.find(n);
      if (jt == at_break.end() || !same_structure(v, jt->second)) {
        same = false;
        break;
      }
      std::vector<Value> other = record_leaves(jt->second, n, nullptr);
      for (size_t k = 0; k < leaves.size() && same; ++k) {
        same = merged_type(leaves[k]) == merged_type(other[k]);
        if (!same && conflicts)  // cuTile's words, where the name is read after the loop
          (*conflicts)[n] = make(PoisonValue{fmt::format("Type of `{}` depends on path taken: {} vs. {}", n,
                                                         cutile_type(other[k]), cutile_type(leaves[k]))});
      }
    }
    if (!same) continue;
    std::vector<Value> zeros;
    for (const Value& leaf : leaves) {
      auto t = leaf_type(leaf);
      if (!t) {
        zeros.push_back(leaf);
        continue;
      }
      ir::Literal zero = is_float(t->dtype) ? ir::Literal{0.0}
                         : t->dtype == DType::Bool ? ir::Literal{false} : ir::Literal{__int128(0)};
      zeros.push_back(make(Runtime{constant(zero, t->dtype, t->shape)}));
    }
    stand_ins[n] = rebuild_record(v, zeros);
  }
  return stand_ins;
}

// ---- helpers ---------------------------------------------------------------------------------

Value KernelLowering::call_function(const FunctionValue& f, CallArgs args, SourceRange range) {
  if (scope_.kernels.count(f.def->name) && scope_.kernels.at(f.def->name).def == f.def)
    error(ErrorKind::Type, range, "a kernel cannot be called from tile code; call a helper function instead");
  // A generator-based context manager runs nothing when called: a with statement enters it.
  if (f.scope && f.scope->context_managers.count(f.def))
    return make(ContextManagerValue{f, std::make_shared<const CallArgs>(std::move(args)), range,
                                    std::make_shared<bool>(false)});
  HelperFrame caller = enter_helper(f, bind_arguments(f, args, range), range);
  exec_body(f.def->body);
  Value result = return_value_ ? *return_value_ : make(NoneValue{});
  uint64_t frame = frame_id_;
  Env final_env = leave_helper(std::move(caller));
  std::shared_ptr<const Env> shared;
  return freeze_closures(result, frame, final_env, shared);
}

Env KernelLowering::bind_arguments(const FunctionValue& f, const CallArgs& passed, SourceRange range) {
  const ast::FunctionDef& def = *f.def;
  CallArgs with_self;
  if (f.bound_self) {  // a method read from a dataclass instance
    with_self = passed;
    with_self.positional.insert(with_self.positional.begin(), *f.bound_self);
    with_self.positional_ranges.insert(with_self.positional_ranges.begin(), range);
  }
  const CallArgs& args = f.bound_self ? with_self : passed;
  for (const auto& d : def.decorators) (void)d;  // functools.wraps-style decorators are transparent
  Env callee_env;
  size_t next = 0;
  std::set<std::string> bound;
  for (const auto& p : def.params) {
    if (p.kind == ast::Param::Kind::VarArgs) {
      std::vector<Value> rest(args.positional.begin() + std::min(next, args.positional.size()), args.positional.end());
      next = args.positional.size();
      callee_env[p.name] = make(TupleValue{rest});
      bound.insert(p.name);
      continue;
    }
    if (p.kind == ast::Param::Kind::KwArgs) continue;  // bound below, from the keywords left
    if (next < args.positional.size()) {
      callee_env[p.name] = args.positional[next++];
      bound.insert(p.name);
    }
  }
  if (next < args.positional.size())
    error(ErrorKind::Type, range, fmt::format("{}() takes {} positional arguments but {} were given", def.name, next, args.positional.size()));
  // **kwargs takes the keywords no other parameter names, as a dict in their order.
  auto kwargs_param = std::find_if(def.params.begin(), def.params.end(),
                                   [](const ast::Param& p) { return p.kind == ast::Param::Kind::KwArgs; });
  DictValue kwargs;
  for (size_t i = 0; i < args.keywords.size(); ++i) {
    const auto& [name, v] = args.keywords[i];
    auto it = std::find_if(def.params.begin(), def.params.end(), [&](const ast::Param& p) {
      return p.name == name && p.kind == ast::Param::Kind::Normal;
    });
    if (it == def.params.end() && kwargs_param != def.params.end()) {
      if (dict_find(kwargs, make(StrValue{name})))
        error(ErrorKind::Type, args.keyword_ranges[i], fmt::format("{}() got multiple values for keyword argument '{}'", def.name, name));
      dict_insert(kwargs, make(StrValue{name}), v, args.keyword_ranges[i]);
      continue;
    }
    if (it == def.params.end())
      error(ErrorKind::Type, args.keyword_ranges[i], fmt::format("{}() got an unexpected keyword argument '{}'", def.name, name));
    if (bound.count(name))
      error(ErrorKind::Type, args.keyword_ranges[i], fmt::format("{}() got multiple values for argument '{}'", def.name, name));
    callee_env[name] = v;
    bound.insert(name);
  }
  if (kwargs_param != def.params.end()) {
    callee_env[kwargs_param->name] = make(std::move(kwargs));
    bound.insert(kwargs_param->name);
  }
  // A nested def's or lambda's defaults were evaluated at the def. A module-level function's
  // are evaluated here, in its module, as Python did at definition time (they read constants).
  if (f.defaults)
    for (const auto& p : def.params)
      if (!bound.count(p.name) && f.defaults->count(p.name)) {
        callee_env[p.name] = f.defaults->at(p.name);
        bound.insert(p.name);
      }
  const ModuleScope* saved_scope = current_scope_;
  Env saved_env = std::move(env_);
  env_ = f.closure ? *f.closure : Env{};
  auto caller_locals = std::move(locals_);
  locals_.clear();
  current_scope_ = f.scope;
  for (const auto& p : def.params) {
    if (bound.count(p.name) || p.kind != ast::Param::Kind::Normal) continue;
    if (!p.default_value)
      error(ErrorKind::Type, range, fmt::format("{}() missing required argument '{}'", def.name, p.name));
    callee_env[p.name] = eval(p.default_value);
  }
  locals_ = std::move(caller_locals);
  env_ = std::move(saved_env);
  current_scope_ = saved_scope;
  // Captured names as they are now while the call that ran the def is the caller (late
  // binding); otherwise as they were at the def, or when that call returned.
  Env entry = !f.closure ? Env{} : f.frame == frame_id_ ? env_ : *f.closure;
  // A name the function assigns is local everywhere in it (Python), so a captured value of that
  // name is hidden: reading it before the assignment is an error (a tuple comprehension's
  // `for n in ct.static_iter(range(n))` after its first loop), not the outer value.
  if (f.closure)
    for (const std::string& local : function_locals(def))
      if (!callee_env.count(local)) entry.erase(local);
  for (auto& [name, v] : callee_env) entry[name] = std::move(v);
  return entry;
}

KernelLowering::HelperFrame KernelLowering::enter_helper(const FunctionValue& f, Env callee_env,
                                                         SourceRange range, bool context_manager,
                                                         uint64_t frame) {
  if (helper_depth_ >= kMaxInlineDepth)
    error(ErrorKind::Recursion, range,
          fmt::format("helper inlining is deeper than {} calls (recursion?)", kMaxInlineDepth));
  if (++inlined_calls_ > kMaxInlinedCalls)
    error(ErrorKind::Recursion, range,
          fmt::format("more than {} helper calls inlined into one kernel (helpers that call helpers "
                      "several times grow exponentially)", kMaxInlinedCalls));
  const ast::FunctionDef& def = *f.def;
  call_stack_.push_back({def.name, range, current_file()});
  ++helper_depth_;
  check_syntax(def, context_manager);
  HelperFrame caller{current_scope_, std::move(env_), std::move(loops_), std::move(locals_),
                     return_value_, in_helper_, stmt_range_, std::move(with_bodies_),
                     std::move(rest_), continuable_, frame_id_};
  frame_id_ = frame ? frame : new_frame_id();
  rest_.clear();
  continuable_ = !context_manager;
  locals_ = function_locals(def);
  loops_.clear();
  with_bodies_.clear();
  in_helper_ = true;
  return_value_.reset();
  current_scope_ = f.scope;
  env_ = std::move(callee_env);
  return caller;
}

Env KernelLowering::leave_helper(HelperFrame frame) {
  Env helper_env = std::move(env_);
  env_ = std::move(frame.env);
  loops_ = std::move(frame.loops);
  locals_ = std::move(frame.locals);
  return_value_ = std::move(frame.return_value);
  in_helper_ = frame.in_helper;
  stmt_range_ = frame.stmt_range;
  current_scope_ = frame.scope;
  with_bodies_ = std::move(frame.with_bodies);
  rest_ = std::move(frame.rest);
  continuable_ = frame.continuable;
  frame_id_ = frame.frame_id;
  --helper_depth_;
  call_stack_.pop_back();
  return helper_env;
}

// ---- kernel entry ------------------------------------------------------------------------------

namespace {

Value constant_value(const ConstantLiteral& c) {
  if (auto* i = std::get_if<__int128>(&c.value)) return make(LooseInt{*i});
  if (auto* d = std::get_if<double>(&c.value)) return make(LooseFloat{*d});
  if (auto* b = std::get_if<bool>(&c.value)) return make(LooseBool{*b});
  std::vector<Value> items;
  for (const auto& item : std::get<std::vector<ConstantLiteral>>(c.value)) items.push_back(constant_value(item));
  return make(TupleValue{std::move(items)});
}

}  // namespace

// @ct.kernel(...) options: hints for tile2cu, but checked as cuTile checks them (spec a.2).
void KernelLowering::kernel_options(const ast::Call& call) {
  for (const auto& a : call.args) error(ErrorKind::Type, a->range, "@ct.kernel() takes options as keywords only");
  for (const auto& kw : call.keywords) {
    Value v = eval(kw.value);
    if (v.is<NoneValue>()) continue;
    int64_t x = const_int(v, kw.range, fmt::format("option \"{}\" of @ct.kernel", kw.name));
    auto out_of_range = [&](const char* rule) {
      error(ErrorKind::Value, kw.range, fmt::format("{} should be {}, got {}", kw.name, rule, x));
    };
    if (kw.name == "occupancy") {
      if (x < 1 || x > 32) out_of_range("in [1, 32]");
      fn_.occupancy = static_cast<int>(x);
    } else if (kw.name == "num_ctas") {
      if (x < 1 || x > 16 || (x & (x - 1))) out_of_range("a power of 2 in [1, 16]");
    } else if (kw.name == "opt_level") {
      if (x < 0 || x > 3) out_of_range("in [0, 3]");
    } else if (kw.name == "num_worker_warps") {
      if (x != 4 && x != 8) out_of_range("either 4 or 8");
    } else {
      error(ErrorKind::Type, kw.range, fmt::format("@ct.kernel() got an unexpected option '{}'", kw.name));
    }
  }
}

// A tuple parameter's items are arrays, scalars, lists or tuples: a Python number in a tuple
// argument is a run-time scalar in cuTile, a constant only where the annotation says so.
static bool has_constant_item(const TupleConstraint& t) {
  for (const auto& item : t.items) {
    if (std::holds_alternative<ConstantConstraint>(item.constraint)) return true;
    if (auto* inner = std::get_if<TupleConstraint>(&item.constraint); inner && has_constant_item(*inner)) return true;
  }
  return false;
}

ir::Function KernelLowering::run() {
  auto kit = scope_.kernels.find(sig_.kernel);
  if (kit == scope_.kernels.end()) {
    std::vector<std::string> names = scope_.kernel_order;
    throw CompileError(ErrorKind::Usage,
                       fmt::format("no @ct.kernel function named '{}' in {} (kernels found: {})", sig_.kernel,
                                   file_ ? file_->path() : "the input",
                                   names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
  const ast::FunctionDef& def = *kit->second.def;
  fn_.kernel_name = sig_.kernel;
  fn_.spec_name = sig_.spec_name.empty() ? default_spec_name(sig_.kernel, sig_) : sig_.spec_name;
  fn_.file = file_;
  check_syntax(def);
  if (kit->second.options) kernel_options(*kit->second.options);
  for (const ast::Call* hints : kit->second.hints) kernel_options(*hints);
  locals_ = function_locals(def);
  blocks_.push_back(&fn_.body);

  auto sig_error = [&](SourceRange r, const std::string& msg) {
    throw CompileError(ErrorKind::Signature, fmt::format("signature '{}': {}", sig_.text, msg), file_, r);
  };
  // Match constraints to parameters: positional first, then by name.
  std::map<std::string, const ParameterConstraint*> given;
  size_t pos = 0;
  for (const auto& p : sig_.params) {
    if (!p.name.empty()) continue;
    if (pos >= def.params.size()) sig_error(def.name_range, fmt::format("more constraints than the kernel's {} parameters", def.params.size()));
    given[def.params[pos++].name] = &p;
  }
  for (const auto& p : sig_.params) {
    if (p.name.empty()) continue;
    auto it = std::find_if(def.params.begin(), def.params.end(), [&](const ast::Param& q) { return q.name == p.name; });
    if (it == def.params.end()) sig_error(def.name_range, fmt::format("the kernel has no parameter '{}'", p.name));
    if (given.count(p.name)) sig_error(def.name_range, fmt::format("parameter '{}' is given twice", p.name));
    given[p.name] = &p;
  }
  std::vector<std::string> described;
  for (const auto& p : def.params) {
    auto it = given.find(p.name);
    if (it == given.end()) sig_error(p.range, fmt::format("no constraint for parameter '{}'", p.name));
    ParameterConstraint named = *it->second;
    named.name = p.name;
    described.push_back(constraint_string(named));
    bool is_constant_param = false;
    if (p.annotation) {
      try {
        const ast::Expr* a = p.annotation.get();
        Value ann = eval(p.annotation);
        is_constant_param = ann.is<BuiltinValue>() && ann.as<BuiltinValue>()->name == "ct.Constant";
        (void)a;
      } catch (const CompileError&) {
        // Annotations cuTile does not understand (e.g. `x: float`) are ignored.
      }
    }
    const auto& c = it->second->constraint;
    if (auto* cc = std::get_if<ConstantConstraint>(&c)) {
      if (!is_constant_param && !constants_annotated(c, p.annotation))
        sig_error(p.range, fmt::format("parameter '{}' is not annotated ct.Constant, so it cannot take a constant; give it a dtype or an array type", p.name));
      env_[p.name] = constant_value(cc->value);
    } else if (is_constant_param) {
      sig_error(p.range, fmt::format("parameter '{}' is a ct.Constant: give it a value, e.g. {}=64", p.name, p.name));
    } else {
      if (auto* tc = std::get_if<TupleConstraint>(&c); tc && has_constant_item(*tc) && !constants_annotated(c, p.annotation))
        sig_error(p.range, fmt::format("tuple parameter '{}' holds a constant: its items are arrays, scalars, lists or "
                                       "tuples of those (a tuple of constants only goes to a ct.Constant parameter)",
                                       p.name));
      env_[p.name] = parameter_value(p.name, c, p.range);
    }
  }
  fn_.signature = fmt::format("{}", fmt::join(described, ", "));
  exec_body(def.body);
  if (oversized_tile_) throw *oversized_tile_;  // see check_tile_size
  // A store through a slice writes the array it narrows; through an item, the list's arrays;
  // through a run-time choice, every candidate.
  // Views come after what they view, so one backward pass carries it along chains.
  for (size_t i = fn_.arrays.size(); i-- > 0;) {
    const ir::ArrayParam& a = fn_.arrays[i];
    if (!a.written) continue;
    if (a.slice_of >= 0) fn_.arrays[a.slice_of].written = true;
    if (a.list_of >= 0) fn_.arrays[a.list_of].written = true;
    for (int candidate : a.select_of) fn_.arrays[candidate].written = true;
  }
  return std::move(fn_);
}

// What a kernel parameter is inside the kernel. Arrays, lists and scalars become parameters of
// the generated kernel; a tuple is a tuple of its items, each leaf a parameter named after the
// tuple and its place (`t_0`, `t_1_0`), constants among them stay constants.
Value KernelLowering::parameter_value(const std::string& name, const Constraint& c, SourceRange range) {
  if (auto* cc = std::get_if<ConstantConstraint>(&c)) return constant_value(cc->value);
  // A leaf's name can be another parameter's (`def k(io, io_0)` with io a tuple): two kernel
  // parameters of one name would not build.
  auto taken = [&](const auto& params) {
    return std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.name == name; });
  };
  if (!std::holds_alternative<TupleConstraint>(c) && (taken(fn_.arrays) || taken(fn_.scalars)))
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("two kernel parameters would be named '{}': a tuple parameter's items are named after "
                      "it and their place ('t_0', 't_1_0'); rename the parameter",
                      name));
  if (auto* tc = std::get_if<TupleConstraint>(&c)) {
    TupleValue t;
    for (size_t k = 0; k < tc->items.size(); ++k)
      t.items.push_back(parameter_value(fmt::format("{}_{}", name, k), tc->items[k].constraint, range));
    return make(std::move(t));
  }
  if (auto* lc = std::get_if<ListConstraint>(&c)) {
    const ArrayConstraint& e = lc->element;
    ir::ArrayParam a{name, e.dtype, static_cast<int>(e.dims.size()), e.dims, e.aligned16, e.contiguous, false};
    a.static_strides = e.strides;  // the launcher checks every item; `xs[i].strides` reads them
    a.is_list = true;
    fn_.arrays.push_back(a);
    fn_.param_order.emplace_back(true, static_cast<int>(fn_.arrays.size() - 1));
    return make(ListValue{static_cast<int>(fn_.arrays.size() - 1)});
  }
  if (auto* ac = std::get_if<ArrayConstraint>(&c)) {
    ir::ArrayParam a{name, ac->dtype, static_cast<int>(ac->dims.size()), ac->dims, ac->aligned16, ac->contiguous, false};
    a.static_strides = ac->strides;
    fn_.arrays.push_back(a);
    fn_.param_order.emplace_back(true, static_cast<int>(fn_.arrays.size() - 1));
    return make(ArrayValue{static_cast<int>(fn_.arrays.size() - 1)});
  }
  auto& sc = std::get<ScalarConstraint>(c);
  fn_.scalars.push_back({name, sc.dtype});
  fn_.param_order.emplace_back(false, static_cast<int>(fn_.scalars.size() - 1));
  ir::Op op = make_op(ir::OpKind::ScalarParam);
  op.param = static_cast<int>(fn_.scalars.size() - 1);
  op.loc = range;
  return make(Runtime{emit1(std::move(op), {sc.dtype, {}}, name)});
}

// The spec-name part of one constraint: `_f32`, `_listf16`, `_64x128`, a tuple's items in turn.
static std::string spec_name_part(const Constraint& c) {
  if (auto* a = std::get_if<ArrayConstraint>(&c)) return std::string("_") + dtype_short_name(a->dtype);
  if (auto* s = std::get_if<ScalarConstraint>(&c)) return std::string("_") + dtype_short_name(s->dtype);
  if (auto* l = std::get_if<ListConstraint>(&c)) return std::string("_list") + dtype_short_name(l->element.dtype);
  if (auto* t = std::get_if<TupleConstraint>(&c)) {
    std::string part = "_t";
    for (const auto& item : t->items) part += spec_name_part(item.constraint);
    return part;
  }
  std::string v = constant_literal_string(std::get<ConstantConstraint>(c).value);
  std::string clean;
  for (char ch : v) {
    if (std::isalnum(static_cast<unsigned char>(ch))) clean += ch;
    else if (ch == '-') clean += 'm';
    else if (ch == '.') clean += 'p';
    else if (ch == ',' && !clean.empty() && clean.back() != 'x') clean += 'x';
  }
  return "_" + clean;
}

std::string default_spec_name(const std::string& kernel, const KernelSignature& sig) {
  std::string name = kernel;
  for (const auto& p : sig.params) name += spec_name_part(p.constraint);
  return name;
}

ir::Function specialize(const ModuleScope& scope, const KernelSignature& sig) {
  return KernelLowering(scope, sig).run();
}

}  // namespace tile2cu::sema
