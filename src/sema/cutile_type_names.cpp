// cuTile's spelling of a value's type in its messages: Tile[float32,(4,4)], Tile[int32,()] for a
// Python int constant, Array[float32,(?,?):(?,4)] (shape, then strides; `?` where only the launch
// knows), None, GeneratorContextManager[...] for a context manager. Messages that repeat cuTile's
// text use it so that tests matching cuTile's wording pass.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <vector>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

std::string cutile_tuple(const std::vector<std::string>& items) {
  return fmt::format("({})", fmt::join(items, ","));
}

std::string cutile_dims(const std::vector<std::optional<int64_t>>& dims, size_t rank) {
  std::vector<std::string> items;
  for (size_t i = 0; i < rank; ++i)
    items.push_back(i < dims.size() && dims[i] ? std::to_string(*dims[i]) : "?");
  return cutile_tuple(items);
}

}  // namespace

std::string KernelLowering::cutile_type(const Value& v) const {
  if (v.is<Runtime>() || v.is<LooseInt>() || v.is<LooseFloat>() || v.is<LooseBool>()) {
    std::vector<std::string> dims;
    for (int64_t d : value_shape(v)) dims.push_back(std::to_string(d));
    // A Python constant has cuTile's default dtype of its kind (int32, float32, bool).
    DType dt = v.is<LooseInt>() ? DType::Int32 : *value_dtype(v);
    return fmt::format("Tile[{},{}]", dtype_name(dt), cutile_tuple(dims));
  }
  if (auto* a = v.as<ArrayValue>()) {
    const ir::ArrayParam& p = fn_.arrays[a->param];
    const size_t rank = static_cast<size_t>(p.rank);
    return fmt::format("Array[{},{}:{}]", dtype_name(p.dtype), cutile_dims(p.static_dims, rank),
                       cutile_dims(p.static_strides, rank));
  }
  if (v.is<StrValue>()) return "str";
  if (v.is<NoneValue>()) return "None";
  if (auto* t = v.as<TupleValue>()) {
    std::vector<std::string> items;
    for (const Value& item : t->items) items.push_back(cutile_type(item));
    return fmt::format("Tuple[{}]", fmt::join(items, ","));
  }
  if (auto* cm = v.as<ContextManagerValue>()) {
    // cuTile prints the Python function object; tile2cu has none, so the "address" is where the
    // def is in its file (line, column): stable from run to run.
    const ast::FunctionDef& def = *cm->helper.def;
    std::vector<std::string> args, kwargs;
    for (const Value& a : cm->args->positional) args.push_back(cutile_type(a));
    for (const auto& [name, value] : cm->args->keywords) kwargs.push_back(fmt::format("{}: {}", name, cutile_type(value)));
    return fmt::format("GeneratorContextManager[<function {} at {:#x}>, args=[{}], kwargs={{{}}}]", def.name,
                       (static_cast<uint64_t>(def.name_range.line) << 16) | static_cast<uint64_t>(def.name_range.col),
                       fmt::join(args, ", "), fmt::join(kwargs, ", "));
  }
  return describe(v);
}

}  // namespace tile2cu::sema
