// `with` over @contextlib.contextmanager helpers (spec a.5). Entering inlines the helper's body
// up to its one `yield` (at its top level, or inside top-level withs of its own), whose value
// binds the `as` target; the with body follows; leaving resumes the helper after the yield, with
// its names as the first half left them, leaving the helper's own withs on the way out.
// Several items enter left to right and leave right to left, as nested withs do.
#include <fmt/format.h>

#include <functional>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

void collect_yields(const ast::ExprPtr& e, std::vector<const ast::Expr*>& out);

void collect_yields(const std::vector<ast::FStringPiece>& pieces, std::vector<const ast::Expr*>& out) {
  for (const auto& piece : pieces) {
    collect_yields(piece.value, out);
    collect_yields(piece.format_spec, out);
  }
}

// Yields in an expression, in source order (a lambda's body is its own function: skipped).
void collect_yields(const ast::ExprPtr& e, std::vector<const ast::Expr*>& out) {
  if (!e) return;
  std::visit([&](const auto& n) {
    using T = std::decay_t<decltype(n)>;
    if constexpr (std::is_same_v<T, ast::Yield>) { out.push_back(e.get()); collect_yields(n.value, out); }
    else if constexpr (std::is_same_v<T, ast::Attribute> || std::is_same_v<T, ast::Starred>) collect_yields(n.value, out);
    else if constexpr (std::is_same_v<T, ast::Subscript>) { collect_yields(n.value, out); collect_yields(n.index, out); }
    else if constexpr (std::is_same_v<T, ast::Slice>) { collect_yields(n.lower, out); collect_yields(n.upper, out); collect_yields(n.step, out); }
    else if constexpr (std::is_same_v<T, ast::Call>) {
      collect_yields(n.func, out);
      for (const auto& a : n.args) collect_yields(a, out);
      for (const auto& k : n.keywords) collect_yields(k.value, out);
    } else if constexpr (std::is_same_v<T, ast::Binary>) { collect_yields(n.lhs, out); collect_yields(n.rhs, out); }
    else if constexpr (std::is_same_v<T, ast::Unary>) collect_yields(n.operand, out);
    else if constexpr (std::is_same_v<T, ast::BoolChain>) for (const auto& v : n.values) collect_yields(v, out);
    else if constexpr (std::is_same_v<T, ast::Compare>) { collect_yields(n.left, out); for (const auto& v : n.rights) collect_yields(v, out); }
    else if constexpr (std::is_same_v<T, ast::IfExp>) { collect_yields(n.cond, out); collect_yields(n.then_value, out); collect_yields(n.else_value, out); }
    else if constexpr (std::is_same_v<T, ast::TupleExpr> || std::is_same_v<T, ast::ListExpr>) for (const auto& v : n.elts) collect_yields(v, out);
    else if constexpr (std::is_same_v<T, ast::DictExpr>) for (const auto& item : n.items) { collect_yields(item.key, out); collect_yields(item.value, out); }
    else if constexpr (std::is_same_v<T, ast::FString>) collect_yields(n.pieces, out);
  }, e->kind);
}

struct FoundYield {
  const ast::Expr* yield;
  bool top_level_statement;  // `yield v` or `x = yield v` in the helper's body or its top-level withs
};

void collect_yields(const ast::Body& body, bool top_level, std::vector<FoundYield>& out) {
  for (const auto& s : body) {
    std::vector<const ast::Expr*> found;
    const ast::ExprPtr* direct = nullptr;  // the statement's own value, when it is the yield
    if (auto* e = s->as<ast::ExprStmt>()) { collect_yields(e->value, found); direct = &e->value; }
    else if (auto* a = s->as<ast::Assign>()) { collect_yields(a->value, found); direct = &a->value; }
    else if (auto* a = s->as<ast::AugAssign>()) collect_yields(a->value, found);
    else if (auto* a = s->as<ast::AnnAssign>()) collect_yields(a->value, found);
    else if (auto* r = s->as<ast::Return>()) collect_yields(r->value, found);
    else if (auto* i = s->as<ast::If>()) {
      for (const auto& branch : i->branches) {
        collect_yields(branch.cond, found);
        for (auto* y : found) out.push_back({y, false});
        found.clear();
        collect_yields(branch.body, false, out);
      }
      collect_yields(i->orelse, false, out);
    } else if (auto* f = s->as<ast::For>()) {
      collect_yields(f->iter, found);
      for (auto* y : found) out.push_back({y, false});
      found.clear();
      collect_yields(f->body, false, out);
    } else if (auto* w = s->as<ast::While>()) {
      collect_yields(w->cond, found);
      for (auto* y : found) out.push_back({y, false});
      found.clear();
      collect_yields(w->body, false, out);
    } else if (auto* w = s->as<ast::With>()) {
      for (const auto& item : w->items) collect_yields(item.context, found);
      for (auto* y : found) out.push_back({y, false});
      found.clear();
      collect_yields(w->body, top_level, out);  // a yield in a top-level with is still top level
    }
    for (auto* y : found) out.push_back({y, top_level && direct && direct->get() == y});
    // What follows a jump in the same body never runs: a yield there is dead and not counted.
    if (s->as<ast::Break>() || s->as<ast::Continue>() || s->as<ast::Return>()) return;
  }
}

// The way from `body` down to the statement that is `yield_expr` (or `x = yield_expr`), through
// with statements only: (body, index) per level; false when it is not on such a way.
bool find_yield_path(const ast::Body& body, const ast::Expr* yield_expr, YieldPath& path) {
  for (size_t i = 0; i < body.size(); ++i) {
    const ast::Stmt& s = *body[i];
    const ast::Expr* value = nullptr;
    if (auto* e = s.as<ast::ExprStmt>()) value = e->value.get();
    if (auto* a = s.as<ast::Assign>()) value = a->value.get();
    if (value == yield_expr) {
      path.emplace_back(&body, i);
      return true;
    }
    if (auto* w = s.as<ast::With>()) {
      path.emplace_back(&body, i);
      if (find_yield_path(w->body, yield_expr, path)) return true;
      path.pop_back();
    }
  }
  return false;
}

}  // namespace

YieldPath KernelLowering::context_manager_yield(const ast::FunctionDef& def, SourceRange with_range) const {
  std::vector<FoundYield> yields;
  collect_yields(def.body, true, yields);
  if (yields.empty())
    error(ErrorKind::Type, with_range, "Expected a generator function, but no reachable `yield` statement has been found");
  if (yields.size() > 1)
    error(ErrorKind::Type, yields[1].yield->range,
          fmt::format("Generator-based context manager must have one `yield` statement "
                      "(another `yield` found on line {})", yields[0].yield->range.line));
  YieldPath path;
  if (find_yield_path(def.body, yields[0].yield, path)) return path;
  // Not a statement of its own: inside an expression of a statement on the top-level way?
  std::function<bool(const ast::Body&)> in_expression = [&](const ast::Body& body) {
    for (const auto& s : body) {
      if (auto* w = s->as<ast::With>()) {
        if (in_expression(w->body)) return true;
        continue;
      }
      if (s->as<ast::If>() || s->as<ast::For>() || s->as<ast::While>()) continue;
      std::vector<FoundYield> here;
      collect_yields(ast::Body{s}, true, here);
      if (!here.empty() && here[0].yield == yields[0].yield) return true;
    }
    return false;
  };
  if (in_expression(def.body))
    error(ErrorKind::UnsupportedFeature, yields[0].yield->range,
          "yield inside an expression is not supported yet by tile2cu; write `yield value` as a statement");
  error(ErrorKind::Type, with_range,
        "`yield` statement of a generator-based context manager must be placed outside of loops and conditional statements");
}

std::vector<KernelLowering::SuspendedManager> KernelLowering::enter_with_items(const ast::With& w) {
  std::vector<SuspendedManager> entered;
  for (const ast::WithItem& item : w.items) {
    Value manager = eval(item.context);
    auto* cm = manager.as<ContextManagerValue>();
    if (!cm)
      error(ErrorKind::Type, item.context->range,
            fmt::format("Object of type {} cannot be used as a context manager", describe(manager)));
    if (*cm->entered) error(ErrorKind::Type, item.context->range, "Context manager cannot be reused");
    *cm->entered = true;
    Value yielded;
    entered.push_back(enter_manager(*cm, item.range, yielded));
    if (item.target) assign(item.target, yielded, item.range);
  }
  return entered;
}

KernelLowering::SuspendedManager KernelLowering::enter_manager(const ContextManagerValue& cm, SourceRange item_range,
                                                               Value& yielded) {
  const ast::FunctionDef& def = *cm.helper.def;
  HelperFrame caller = enter_helper(cm.helper, bind_arguments(cm.helper, *cm.args, cm.call_range),
                                    item_range, /*context_manager=*/true);
  SuspendedManager m{cm.helper, {}, context_manager_yield(def, item_range), {}, item_range, frame_id_};
  for (size_t level = 0; level < m.path.size(); ++level) {
    const auto [body, at] = m.path[level];
    for (size_t i = 0; i < at; ++i) exec(*(*body)[i]);  // a return there is a syntax error
    const ast::Stmt& s = *(*body)[at];
    if (level + 1 < m.path.size()) {  // one of the helper's own withs, around the yield
      stmt_range_ = s.range;
      m.inner.push_back(enter_with_items(*s.as<ast::With>()));
      continue;
    }
    stmt_range_ = s.range;
    const ast::Expr* yield_expr = s.as<ast::ExprStmt>() ? s.as<ast::ExprStmt>()->value.get()
                                                        : s.as<ast::Assign>()->value.get();
    const ast::Yield& yield = *yield_expr->as<ast::Yield>();
    yielded = yield.value ? eval(yield.value) : make(NoneValue{});
    // `x = yield v`: what the with sends back is None.
    if (auto* a = s.as<ast::Assign>())
      for (const auto& t : a->targets) assign(t, make(NoneValue{}), s.range);
  }
  m.names = leave_helper(std::move(caller));
  // A function the helper defined reads its names as the helper left them at the yield.
  std::shared_ptr<const Env> shared;
  yielded = freeze_closures(yielded, m.frame, m.names, shared);
  return m;
}

void KernelLowering::exit_manager(const SuspendedManager& m) {
  // A copy of the names: a jump out of the body exits the manager on its path, and the body's
  // other paths exit it again from the same suspended state. The same call (frame) resumes, so
  // the functions it defined read its names live again while it runs.
  HelperFrame caller = enter_helper(m.helper, m.names, m.item_range, /*context_manager=*/true, m.frame);
  for (size_t level = m.path.size(); level-- > 0;) {
    const auto [body, at] = m.path[level];
    for (size_t i = at + 1; i < body->size(); ++i) exec(*(*body)[i]);
    if (level > 0) exit_managers(m.inner[level - 1]);  // the end of the helper's with at path[level - 1]
  }
  Env final_env = leave_helper(std::move(caller));
  // The functions it defined that the with body holds (the yielded one, copies of it) now read
  // the names the helper ended with, as Python's closures would.
  std::shared_ptr<const Env> shared;
  for (auto& [name, v] : env_) v = freeze_closures(v, m.frame, final_env, shared);
  if (return_value_) return_value_ = freeze_closures(*return_value_, m.frame, final_env, shared);
}

void KernelLowering::exit_managers(const std::vector<SuspendedManager>& managers) {
  for (size_t k = managers.size(); k-- > 0;) exit_manager(managers[k]);
}

void KernelLowering::exit_open_withs(size_t first) {
  // enter_helper moves with_bodies_ away while a manager's exit runs: work on a copy.
  std::vector<OpenWith> leaving(with_bodies_.begin() + static_cast<std::ptrdiff_t>(first), with_bodies_.end());
  const SourceRange jump = stmt_range_;
  for (size_t w = leaving.size(); w-- > 0;) exit_managers(leaving[w].managers);
  stmt_range_ = jump;
}

size_t KernelLowering::withs_in_innermost_loop() const {
  size_t first = with_bodies_.size();
  while (first > 0 && with_bodies_[first - 1].loop_depth == loops_.size()) --first;
  return first;
}

Flow KernelLowering::exec_with(const ast::With& w, SourceRange range) {
  // Ops of the items carry the `with ...:` line, not the whole statement, as an if's condition.
  const SourceRange header{range.line, range.col, w.items.back().range.end_line, w.items.back().range.end_col};
  stmt_range_ = header;
  std::vector<SuspendedManager> entered = enter_with_items(w);

  with_bodies_.push_back({loops_.size(), entered, &w.body});
  Flow flow = exec_body(w.body);
  with_bodies_.pop_back();

  // A body that left by break / continue / return on every path exited its managers at the
  // jumps (exit_open_withs); the path that falls through the end exits them here.
  if (flow == Flow::Normal) exit_managers(entered);
  stmt_range_ = range;
  return flow;
}

}  // namespace tile2cu::sema
