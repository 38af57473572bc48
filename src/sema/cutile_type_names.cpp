// cuTile's spelling of a value's type in its messages: Tile[float32,(4,4)], Tile[int32,()] for a
// Python int constant, Array[float32,(?,?):(?,4)] (shape, then strides; `?` where only the launch
// knows). Messages that repeat cuTile's text use it so that tests matching cuTile's wording pass.
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
  return describe(v);
}

}  // namespace tile2cu::sema
