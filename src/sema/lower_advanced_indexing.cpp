// ct.Slice and ct.load_advanced_indexing / ct.store_advanced_indexing (spec c.2.4). One index is
// a 1-D integer tile (the sparse axis: any rows, in any order), every other one a
// ct.Slice(start, length) (a dense run of `length` elements from a run-time `start`). That is a
// gather or scatter whose per-axis indices broadcast to the result shape: the sparse tile
// stretched along its axis, start + arange(length) along each sliced one; out-of-bounds lanes
// read the padding and are not written, as cuTile's.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// ct.Slice's instances are frozen dataclass values with the fields start and length, so they
// print ("Slice[start: ..., length: ...]") and read (.start) as the user's dataclasses do.
std::shared_ptr<const ClassInfo> slice_class() {
  static const std::shared_ptr<const ClassInfo> info = [] {
    auto c = std::make_shared<ClassInfo>();
    c->name = "Slice";
    c->is_dataclass = true;
    c->fields = {{"start", std::nullopt, false}, {"length", std::nullopt, false}};
    return c;
  }();
  return info;
}

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

Value KernelLowering::slice_index(CallArgs& args, SourceRange range) {
  Bound b(*this, "Slice", args, {"start", "length"}, {}, 2, range);
  return make(DataclassValue{slice_class(), {b.at("start"), b.at("length")}});
}

Value KernelLowering::advanced_indexing(const std::string& op, CallArgs& args, SourceRange range) {
  const bool load = op == "load_advanced_indexing";
  Bound b = load ? Bound(*this, op, args, {"array", "indices"}, {"padding_mode", "latency", "allow_tma"}, 2, range)
                 : Bound(*this, op, args, {"array", "indices", "tile"}, {"latency", "allow_tma"}, 3, range);
  auto* av = b.at("array").as<ArrayValue>();
  if (!av)
    error(ErrorKind::Type, b.range_of("array"),
          fmt::format("Invalid argument #1 of {}(): Expected an array, but given value is {}", op, describe(b.at("array"))));
  const ir::ArrayParam& a = fn_.arrays[av->param];
  const SourceRange where = b.range_of("indices");
  std::vector<Value> items;
  if (auto* t = b.at("indices").as<TupleValue>()) items = t->items;
  else items.push_back(b.at("indices"));
  if (a.rank < 2)
    error(ErrorKind::Type, b.range_of("array"),
          fmt::format("{}() needs an array of rank 2 or more (use gather/scatter for 1-D), got rank {}", op, a.rank));
  if (static_cast<int>(items.size()) != a.rank)
    error(ErrorKind::Type, where,
          fmt::format("Number of indices ({}) does not match array rank ({})", items.size(), a.rank));

  // The result shape, and which axis is the sparse one.
  ir::Shape shape(items.size());
  int sparse = -1, sparse_count = 0;
  for (size_t d = 0; d < items.size(); ++d) {
    if (auto* s = items[d].as<DataclassValue>(); s && s->cls == slice_class()) {
      const int64_t length = const_int(s->fields[1], where, fmt::format("length of the ct.Slice at index #{}", d));
      if (!is_power_of_two(length))
        error(ErrorKind::Type, where, fmt::format("ct.Slice length must be a power of two, got {}", length));
      shape[d] = length;
      continue;
    }
    auto dt = value_dtype(items[d]);
    const bool int_tile = items[d].is<Runtime>() && dt && is_integer(*dt);
    if (!int_tile || value_shape(items[d]).size() != 1)
      error(ErrorKind::Type, where,
            fmt::format("Index #{} of {}() must be a 1D integer Tile or a ct.Slice, got {}", d, op, describe(items[d])));
    shape[d] = value_shape(items[d])[0];
    sparse = static_cast<int>(d);
    ++sparse_count;
  }
  if (sparse_count != 1)
    error(ErrorKind::Type, where,
          fmt::format("{}(): exactly one index must be a 1D integer Tile (the others ct.Slice), got {}", op,
                      sparse_count));
  check_tile_size(shape, range);

  // Axis d's indices as a tile that is 1 long on every other axis.
  auto along_axis = [&](ir::ValueId v, size_t d) {
    std::vector<Value> dims;
    for (size_t k = 0; k < shape.size(); ++k) dims.push_back(make(LooseInt{k == d ? shape[d] : 1}));
    CallArgs reshape;
    reshape.positional = {make_tuple(std::move(dims), where)};
    reshape.positional_ranges = {where};
    return method_call(make(Runtime{v}), "reshape", reshape, where);
  };
  std::vector<Value> indices;
  for (size_t d = 0; d < items.size(); ++d) {
    if (static_cast<int>(d) == sparse) {
      indices.push_back(along_axis(items[d].as<Runtime>()->id, d));
      continue;
    }
    const Value& start = items[d].as<DataclassValue>()->fields[0];
    auto dt = value_dtype(start);
    if (!dt || !value_shape(start).empty() || start.is<LooseFloat>() || (!start.is_loose() && !is_integer(*dt)))
      error(ErrorKind::Type, where,
            fmt::format("ct.Slice start at index #{} must be an integer scalar, got {}", d, describe(start)));
    const DType idt = start.is_loose() ? DType::Int32 : *dt;
    ir::Op o = make_op(ir::OpKind::Arange, {to_runtime_as(start, idt, where), to_runtime_as(make(LooseInt{1}), idt, where)});
    indices.push_back(along_axis(emit1(std::move(o), {idt, {shape[d]}}), d));
  }

  CallArgs access;
  access.positional = {b.at("array"), make_tuple(std::move(indices), where)};
  access.positional_ranges = {b.range_of("array"), where};
  if (const Value* lat = b.get("latency")) {
    access.keywords.emplace_back("latency", *lat);
    access.keyword_ranges.push_back(b.range_of("latency"));
  }
  if (const Value* tma = b.get("allow_tma"); tma && !tma->is<NoneValue>())
    const_bool(*tma, b.range_of("allow_tma"), b.what("allow_tma"));
  if (load) {
    if (const Value* pm = b.get("padding_mode")) {
      auto* e = pm->as<EnumValue>();
      if (!e || e->cls->builtin != EnumKind::PaddingMode)
        error(ErrorKind::Type, b.range_of("padding_mode"), "padding_mode must be a ct.PaddingMode");
      const double inf = std::numeric_limits<double>::infinity();
      std::optional<Value> pad;
      switch (static_cast<ir::PaddingMode>(e->member)) {
        case ir::PaddingMode::Undetermined: case ir::PaddingMode::Zero: break;  // gather pads with 0
        case ir::PaddingMode::NegZero: pad = make(LooseFloat{-0.0}); break;
        case ir::PaddingMode::Nan: pad = make(LooseFloat{std::nan("")}); break;
        case ir::PaddingMode::PosInf: pad = make(LooseFloat{inf}); break;
        case ir::PaddingMode::NegInf: pad = make(LooseFloat{-inf}); break;
      }
      if (pad && !is_float(a.dtype))
        error(ErrorKind::Type, b.range_of("padding_mode"),
              fmt::format("padding mode {} needs a float array, got {}", e->cls->member_name(e->member),
                          dtype_name(a.dtype)));
      if (pad) {
        access.keywords.emplace_back("padding_value", *pad);
        access.keyword_ranges.push_back(b.range_of("padding_mode"));
      }
    }
    return element_memory("gather", access, range);
  }
  const Value& tile = b.at("tile");
  if (!tile.is<Runtime>() || value_shape(tile) != shape)
    error(ErrorKind::Type, b.range_of("tile"),
          fmt::format("store_advanced_indexing(): the tile must have the indexed shape {}, got {}",
                      ir::shape_string(shape), describe(tile)));
  access.positional.push_back(tile);
  access.positional_ranges.push_back(b.range_of("tile"));
  return element_memory("scatter", access, range);
}

}  // namespace tile2cu::sema
