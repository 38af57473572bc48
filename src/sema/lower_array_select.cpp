// A run-time choice between arrays: an array variable that the paths of an if bind to different
// arrays. The if yields an int32 selector (the path's index into the candidates) and an
// ArraySelect op after it defines a new entry of Function::arrays, so loads, stores, shape
// queries and views treat the choice like any array. Its facts are the ones every candidate
// has: cuTile's array type is its dtype and rank, and a static dim, a static stride,
// contiguity or alignment that one candidate lacks is weakened, not refused.
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

bool KernelLowering::arrays_can_meet(int a, int b) const {
  const ir::ArrayParam& x = fn_.arrays[a];
  const ir::ArrayParam& y = fn_.arrays[b];
  return !x.is_list && !y.is_list && x.dtype == y.dtype && x.rank == y.rank;
}

Value KernelLowering::array_choice(ir::ValueId selector, const std::vector<int>& candidates, const std::string& var) {
  ir::ArrayParam choice = fn_.arrays[candidates[0]];
  choice.written = false;
  choice.list_of = -1;
  choice.slice_of = -1;
  choice.select_of = candidates;
  for (int c : candidates) {
    const ir::ArrayParam& a = fn_.arrays[c];
    for (int d = 0; d < choice.rank; ++d)
      if (choice.static_dims[d] != a.static_dims[d]) choice.static_dims[d] = std::nullopt;
    if (choice.static_strides.size() != a.static_strides.size()) {
      choice.static_strides.clear();
    } else {
      for (size_t d = 0; d < choice.static_strides.size(); ++d)
        if (choice.static_strides[d] != a.static_strides[d]) choice.static_strides[d] = std::nullopt;
    }
    choice.aligned16 = choice.aligned16 && a.aligned16;
    choice.contiguous = choice.contiguous && a.contiguous;
  }
  choice.name = fmt::format("{}_choice{}", var, fn_.arrays.size());
  fn_.arrays.push_back(choice);
  const int param = static_cast<int>(fn_.arrays.size() - 1);
  auto_named_views_.insert(param);
  name_array_view(param, var);
  ir::Op op = make_op(ir::OpKind::ArraySelect, {selector});
  op.param = param;
  op.loc = stmt_range_;
  emit(std::move(op), {});
  return make(ArrayValue{param});
}

}  // namespace tile2cu::sema
