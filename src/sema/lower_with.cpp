// `with` over @contextlib.contextmanager helpers (spec a.5). Entering inlines the helper's body
// up to its one top-level `yield`, whose value binds the `as` target; the with body follows;
// leaving resumes the helper after the yield, with its names as the first half left them.
// Several items enter left to right and leave right to left, as nested withs do.
#include <fmt/format.h>

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
  bool top_level_statement;  // `yield v` or `x = yield v` directly in the helper's body
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
      for (auto* y : found) out.push_back({y, top_level});
      found.clear();
      collect_yields(w->body, false, out);
    }
    for (auto* y : found) out.push_back({y, top_level && direct && direct->get() == y});
    // What follows a jump in the same body never runs: a yield there is dead and not counted.
    if (s->as<ast::Break>() || s->as<ast::Continue>() || s->as<ast::Return>()) return;
  }
}

}  // namespace

size_t KernelLowering::context_manager_yield(const ast::FunctionDef& def, SourceRange with_range) const {
  std::vector<FoundYield> yields;
  collect_yields(def.body, true, yields);
  if (yields.empty())
    error(ErrorKind::Type, with_range, "Expected a generator function, but no reachable `yield` statement has been found");
  if (yields.size() > 1)
    error(ErrorKind::Type, yields[1].yield->range,
          fmt::format("Generator-based context manager must have one `yield` statement "
                      "(another `yield` found on line {})", yields[0].yield->range.line));
  for (size_t i = 0; i < def.body.size(); ++i) {
    const ast::Stmt& s = *def.body[i];
    const ast::Expr* value = nullptr;
    if (auto* e = s.as<ast::ExprStmt>()) value = e->value.get();
    if (auto* a = s.as<ast::Assign>()) value = a->value.get();
    if (value == yields[0].yield) return i;
  }
  if (!yields[0].top_level_statement && yields[0].yield)
    for (const auto& s : def.body)  // in a top-level expression, not in control flow
      if (!s->as<ast::If>() && !s->as<ast::For>() && !s->as<ast::While>() && !s->as<ast::With>()) {
        std::vector<FoundYield> here;
        collect_yields(ast::Body{s}, true, here);
        if (!here.empty() && here[0].yield == yields[0].yield)
          error(ErrorKind::UnsupportedFeature, yields[0].yield->range,
                "yield inside an expression is not supported yet by tile2cu; write `yield value` as a statement");
      }
  error(ErrorKind::Type, with_range,
        "`yield` statement of a generator-based context manager must be placed outside of loops and conditional statements");
}

void KernelLowering::exit_manager(const SuspendedManager& m) {
  // A copy of the names: a jump out of the body exits the manager on its path, and the body's
  // other paths exit it again from the same suspended state.
  HelperFrame caller = enter_helper(m.helper, m.names, m.item_range, /*context_manager=*/true);
  const ast::Body& body = m.helper.def->body;
  for (size_t i = m.resume_at; i < body.size(); ++i) exec(*body[i]);
  leave_helper(std::move(caller));
}

void KernelLowering::exit_open_withs(size_t first) {
  // enter_helper moves with_bodies_ away while a manager's exit runs: work on a copy.
  std::vector<OpenWith> leaving(with_bodies_.begin() + static_cast<std::ptrdiff_t>(first), with_bodies_.end());
  const SourceRange jump = stmt_range_;
  for (size_t w = leaving.size(); w-- > 0;)
    for (size_t k = leaving[w].managers.size(); k-- > 0;) exit_manager(leaving[w].managers[k]);
  stmt_range_ = jump;
}

size_t KernelLowering::withs_in_innermost_loop() const {
  size_t first = with_bodies_.size();
  while (first > 0 && with_bodies_[first - 1].loop_depth == loops_.size()) --first;
  return first;
}

Flow KernelLowering::exec_with(const ast::With& w, SourceRange range) {
  std::vector<SuspendedManager> entered;
  // Ops of the items carry the `with ...:` line, not the whole statement, as an if's condition.
  const SourceRange header{range.line, range.col, w.items.back().range.end_line, w.items.back().range.end_col};
  stmt_range_ = header;
  for (const ast::WithItem& item : w.items) {
    Value manager = eval(item.context);
    auto* cm = manager.as<ContextManagerValue>();
    if (!cm)
      error(ErrorKind::Type, item.context->range,
            fmt::format("Object of type {} cannot be used as a context manager", describe(manager)));
    if (*cm->entered) error(ErrorKind::Type, item.context->range, "Context manager cannot be reused");
    *cm->entered = true;
    const ast::FunctionDef& def = *cm->helper.def;
    HelperFrame caller = enter_helper(cm->helper, bind_arguments(cm->helper, *cm->args, cm->call_range),
                                      item.range, /*context_manager=*/true);
    size_t at = context_manager_yield(def, item.range);
    for (size_t i = 0; i < at; ++i) exec(*def.body[i]);  // a return there is a syntax error
    const ast::Stmt& yield_stmt = *def.body[at];
    stmt_range_ = yield_stmt.range;
    const ast::Expr* yield_expr = yield_stmt.as<ast::ExprStmt>() ? yield_stmt.as<ast::ExprStmt>()->value.get()
                                                                  : yield_stmt.as<ast::Assign>()->value.get();
    const ast::Yield& yield = *yield_expr->as<ast::Yield>();
    Value yielded = yield.value ? eval(yield.value) : make(NoneValue{});
    // `x = yield v`: what the with sends back is None.
    if (auto* a = yield_stmt.as<ast::Assign>())
      for (const auto& t : a->targets) assign(t, make(NoneValue{}), yield_stmt.range);
    Env names = leave_helper(std::move(caller));
    entered.push_back({cm->helper, std::move(names), at + 1, item.range});
    if (item.target) assign(item.target, yielded, item.range);
  }

  with_bodies_.push_back({loops_.size(), entered});
  Flow flow = exec_body(w.body);
  with_bodies_.pop_back();

  // A body that left by break / continue / return on every path exited its managers at the
  // jumps (exit_open_withs); the path that falls through the end exits them here.
  if (flow == Flow::Normal)
    for (size_t k = entered.size(); k-- > 0;) exit_manager(entered[k]);
  stmt_range_ = range;
  return flow;
}

}  // namespace tile2cu::sema
