// A helper's `return` inside a while loop (cuTile's test_helper_function.py::
// test_early_return_inside_while_loop). The loop is left by a break that sets two hidden
// carried names, whether it returned and with what (the loop is lowered a second time with the
// value carried from a stand-in of its type once a return showed it); after the loop the helper
// returns that value where the flag says so (a run-time if copies the rest of the helper into
// the path that did not return, exec_rest_of_helper), or leaves the next loop out the same way.
#include <fmt/format.h>

#include <optional>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

bool body_returns(const ast::Body& body) {
  for (const auto& s : body) {
    if (s->as<ast::Return>()) return true;
    if (auto* i = s->as<ast::If>()) {
      for (const auto& branch : i->branches)
        if (body_returns(branch.body)) return true;
      if (body_returns(i->orelse)) return true;
    } else if (auto* w = s->as<ast::While>()) {
      if (body_returns(w->body)) return true;
    } else if (auto* f = s->as<ast::For>()) {
      if (body_returns(f->body)) return true;
    } else if (auto* w = s->as<ast::With>()) {
      if (body_returns(w->body)) return true;
    }
  }
  return false;
}

Flow KernelLowering::helper_return(Value v, SourceRange range) {
  if (!loops_.empty()) {
    env_[kLoopReturned] = make(LooseBool{true});
    env_[kLoopReturnValue] = std::move(v);
    return loop_jump(/*is_break=*/true, range);
  }
  return_value_ = std::move(v);
  exit_open_withs(0);  // a function a manager yielded reads the names its exit left
  return Flow::Return;
}

std::optional<Value> KernelLowering::return_value_stand_in(const CarriedNames& carried) {
  std::optional<Value> first;
  for (const Env& at_break : carried.break_names) {
    auto it = at_break.find(kLoopReturnValue);
    if (it == at_break.end()) continue;  // a plain break
    const Value& v = it->second;
    if (!v.is<Runtime>() && !v.is_loose() && !is_record(v)) return std::nullopt;
    if (!first) {
      first = v;
      continue;
    }
    if (!same_structure(*first, v)) return std::nullopt;
    std::vector<Value> a = record_leaves(*first), b = record_leaves(v);
    for (size_t k = 0; k < a.size(); ++k) {
      auto type = [&](const Value& leaf) {
        return leaf.is<Runtime>() ? type_of(leaf.as<Runtime>()->id) : ir::TileType{default_dtype(leaf, {}), {}};
      };
      if (type(a[k]) != type(b[k])) return std::nullopt;
    }
  }
  if (!first) return std::nullopt;
  // Zeros of each leaf's type: never read, the flag is false wherever they are not replaced.
  std::vector<Value> zeros;
  for (const Value& leaf : record_leaves(*first)) {
    const ir::TileType t = leaf.is<Runtime>() ? type_of(leaf.as<Runtime>()->id) : ir::TileType{default_dtype(leaf, {}), {}};
    const ir::Literal zero = is_float(t.dtype) ? ir::Literal{0.0}
                             : t.dtype == DType::Bool ? ir::Literal{false} : ir::Literal{__int128(0)};
    zeros.push_back(make(Runtime{constant(zero, t.dtype, t.shape)}));
  }
  return rebuild_record(*first, zeros);
}

Flow KernelLowering::after_loop_with_returns(SourceRange range) {
  const Value returned = env_.at(kLoopReturned);
  auto value_returned = [&]() -> Flow {
    auto it = env_.find(kLoopReturnValue);
    if (it == env_.end() || it->second.is<PoisonValue>())
      error(ErrorKind::UnsupportedFeature, range,
            "returning from a helper inside a while loop that is also left another way (a break, its "
            "condition) or returns values of different types is not supported yet by tile2cu; set a "
            "variable, break, and return after the loop");
    return helper_return(it->second, range);
  };
  // The path that did not return goes on with the flag false again: an enclosing loop that
  // carries it passes it on.
  auto went_on = [&] {
    env_[kLoopReturned] = make(LooseBool{false});
    return Flow::Normal;
  };
  if (auto* b = returned.as<LooseBool>()) return b->value ? value_returned() : went_on();
  return exec_runtime_if(to_runtime_as(returned, DType::Bool, range), value_returned, went_on, range);
}

}  // namespace tile2cu::sema
