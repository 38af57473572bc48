// Array.tiled_view (spec b.8, c.2.5): an array seen as a grid of tiles, as a compile-time value
// (TiledViewValue). Its methods lower onto what ct.load, ct.store and the ct.atomic_* ops
// already make, so a view costs nothing over writing those calls by hand:
// - tile k of an axis starts at element k * step. Where the step is a multiple of the tile's
//   extent (the default: step == extent) that is tile index k * (step / extent) of ct.load's
//   grid; otherwise the array is first sliced to start there (Array.slice, no copy) and the
//   tile read at index 0 of the slice.
// - atomic_store_* updates every element of the tile: ct.atomic_* at element indices origin +
//   the element's coordinate in the tile.
#include <fmt/format.h>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// The tile's extent along array axis k: 1 on every axis of a view of single elements.
int64_t extent(const TiledViewValue& v, size_t k) { return v.tile_shape.empty() ? 1 : v.tile_shape[k]; }

Value shape_tuple(const ir::Shape& shape) {
  TupleValue t;
  for (int64_t d : shape) t.items.push_back(make(LooseInt{d}));
  return make(std::move(t));
}

// numpy's rule: `from` broadcasts to `to` when, aligned at the right, each of its dims is 1 or
// equal (a tile of lower rank gains leading dims of 1).
bool broadcastable(const ir::Shape& from, const ir::Shape& to) {
  if (from.size() > to.size()) return false;
  for (size_t i = 0; i < from.size(); ++i) {
    int64_t f = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
    if (f != 1 && f != t) return false;
  }
  return true;
}

struct AtomicStore {
  const char* method;
  const char* op;  // the ct.atomic_* op it becomes
  bool bitwise;    // the update's dtype must equal the view's
};
const AtomicStore kAtomicStores[] = {
    {"atomic_store_add", "atomic_add", false}, {"atomic_store_max", "atomic_max", false},
    {"atomic_store_min", "atomic_min", false}, {"atomic_store_and", "atomic_and", true},
    {"atomic_store_or", "atomic_or", true},    {"atomic_store_xor", "atomic_xor", true},
};
const AtomicStore* atomic_store(const std::string& method) {
  for (const AtomicStore& a : kAtomicStores)
    if (method == a.method) return &a;
  return nullptr;
}

// The view dtypes each atomic_store_* takes: those of the ct.atomic_* op it becomes.
std::vector<DType> atomic_store_dtypes(const AtomicStore& a) {
  std::vector<DType> ints = {DType::Int32, DType::Int64, DType::UInt32, DType::UInt64};
  if (std::string(a.method) != "atomic_store_add") return ints;
  ints.insert(ints.end(), {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16});
  return ints;
}

CallArgs positional_args(std::vector<Value> values, SourceRange range) {
  CallArgs a;
  a.positional_ranges.assign(values.size(), range);
  a.positional = std::move(values);
  return a;
}

}  // namespace

Value KernelLowering::make_tiled_view(int param, CallArgs& args, SourceRange range) {
  Bound b(*this, "tiled_view", args, {"tile_shape"}, {"padding_mode", "traversal_steps"}, 1, range);
  const ir::ArrayParam& a = fn_.arrays[param];
  // The rank first, as cuTile: (1, 2, 3) on a 1-D array is a rank error, not a power-of-two one.
  const size_t given = const_int_tuple(b.at("tile_shape"), b.range_of("tile_shape"), b.what("tile_shape")).size();
  if (given != 0 && static_cast<int>(given) != a.rank)
    error(ErrorKind::Type, b.range_of("tile_shape"),
          fmt::format("Invalid argument \"tile_shape\" of tiled_view(): Expected shape length to be {}, got {}", a.rank,
                      given));
  TiledViewValue v{param, tile_shape_arg(b.at("tile_shape"), b.range_of("tile_shape"), b.what("tile_shape")), {}};
  if (const Value* pm = b.get("padding_mode")) {
    auto* e = pm->as<EnumValue>();
    if (!e || e->cls->builtin != EnumKind::PaddingMode)
      error(ErrorKind::Type, b.range_of("padding_mode"),
            fmt::format("Invalid argument \"padding_mode\" of tiled_view(): Expected a ct.PaddingMode, got {}", describe(*pm)));
    v.padding = static_cast<ir::PaddingMode>(e->member);
    if (!is_float(a.dtype) &&
        (v.padding == ir::PaddingMode::Nan || v.padding == ir::PaddingMode::PosInf || v.padding == ir::PaddingMode::NegInf))
      error(ErrorKind::Type, b.range_of("padding_mode"),
            fmt::format("padding mode {} needs a float array, got {}", e->cls->member_name(e->member), dtype_name(a.dtype)));
  }
  // By default consecutive tiles touch: the steps are the tile's extents (1 for single elements).
  const Value* steps = b.get("traversal_steps");
  if (!steps || steps->is<NoneValue>()) {
    for (int k = 0; k < a.rank; ++k) v.steps.push_back(extent(v, k));
    return make(std::move(v));
  }
  v.steps = const_int_tuple(*steps, b.range_of("traversal_steps"), b.what("traversal_steps"));
  if (static_cast<int>(v.steps.size()) != a.rank)
    error(ErrorKind::Type, b.range_of("traversal_steps"),
          fmt::format("Invalid argument \"traversal_steps\" of tiled_view(): Expected traversal_steps length to be {}, got {}",
                      a.rank, v.steps.size()));
  for (size_t k = 0; k < v.steps.size(); ++k)
    if (v.steps[k] <= 0)
      error(ErrorKind::Type, b.range_of("traversal_steps"),
            fmt::format("Invalid argument \"traversal_steps\" of tiled_view(): Dimension #{} of traversal_steps {} is not positive",
                        k, ir::shape_string(v.steps)));
  return make(std::move(v));
}

Value KernelLowering::tiled_view_attribute(const Value& view, const std::string& attr, SourceRange range) {
  const TiledViewValue& v = *view.as<TiledViewValue>();
  if (attr == "dtype") return make(DTypeValue{fn_.arrays[v.param].dtype});
  if (attr == "tile_shape") return shape_tuple(v.tile_shape);
  if (attr == "traversal_steps") return shape_tuple(v.steps);
  if (attr == "load" || attr == "store" || attr == "num_tiles" || atomic_store(attr))
    return make(MethodValue{std::make_shared<const Value>(view), attr});
  error(ErrorKind::Type, range, fmt::format("TiledView has no attribute '{}'", attr));
}

Value KernelLowering::tiled_view_method(const TiledViewValue& v, const std::string& name, CallArgs& args,
                                        SourceRange range) {
  const ir::ArrayParam& a = fn_.arrays[v.param];
  const DType dtype = a.dtype;
  const int rank = a.rank;
  const ir::Shape& tile_shape = v.tile_shape;

  if (name == "num_tiles") {
    Bound b(*this, name, args, {"axis"}, {}, 1, range);
    int64_t axis = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
    if (axis < -rank || axis >= rank)
      error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", axis, rank));
    if (axis < 0) axis += rank;
    Value extent_of_axis = attribute(make(ArrayValue{v.param}), "shape", range).as<TupleValue>()->items[axis];
    CallArgs cdiv = positional_args({extent_of_axis, make(LooseInt{v.steps[axis]})}, range);
    return builtin_call("ct.cdiv", cdiv, range);
  }

  // The tile index: an integer scalar per axis (a bare one for a 1-D view).
  auto index_items = [&](const Bound& b) {
    const Value& index = b.at("index");
    std::vector<Value> items;
    if (auto* t = index.as<TupleValue>()) items = t->items;
    else items.push_back(index);
    if (static_cast<int>(items.size()) != rank)
      error(ErrorKind::Type, b.range_of("index"),
            fmt::format("Invalid argument \"index\" of {}(): Index size {} does not match the tiled view rank {}",
                        name, items.size(), rank));
    for (const Value& item : items) {
      auto dt = value_dtype(item);
      if (!dt || !value_shape(item).empty() || item.is<LooseFloat>() || item.is<LooseBool>() ||
          (item.is<Runtime>() && !is_signed_integer(*dt)))
        error(ErrorKind::Type, b.range_of("index"),
              fmt::format("Invalid argument \"index\" of {}(): Expected a signed integer scalar per axis, got {}", name,
                          describe(item)));
    }
    return items;
  };
  // Where tile `i` starts along an axis of traversal step `step`, in elements.
  auto origin = [&](const Value& i, int64_t step, SourceRange r) {
    return step == 1 ? i : binary(ast::BinaryOp::Mul, i, make(LooseInt{step}), r);
  };
  // Tile `index` of the view as an array and a tile index of ct.load's grid of tile_shape.
  struct Placed { Value array; Value index; };
  auto place = [&](const std::vector<Value>& index, SourceRange r) {
    Placed p{make(ArrayValue{v.param}), make(TupleValue{})};
    auto& out = std::get<TupleValue>(p.index.kind).items;
    for (int k = 0; k < rank; ++k) {
      const int64_t e = extent(v, k), step = v.steps[k];
      if (step % e == 0) {
        out.push_back(step == e ? index[k] : binary(ast::BinaryOp::Mul, index[k], make(LooseInt{step / e}), r));
        continue;
      }
      Value start = origin(index[k], step, r);
      Value stop = attribute(p.array, "shape", r).as<TupleValue>()->items[k];
      CallArgs slice = positional_args({make(LooseInt{k}), start, stop}, r);
      p.array = array_slice(p.array.as<ArrayValue>()->param, slice, r);
      out.push_back(make(LooseInt{0}));
    }
    return p;
  };
  // check_bounds, latency and allow_tma go on to ct.load / ct.store, which check them.
  auto pass_hints = [&](CallArgs& to, const CallArgs& from) {
    for (size_t i = 0; i < from.keywords.size(); ++i) {
      to.keywords.push_back(from.keywords[i]);
      to.keyword_ranges.push_back(from.keyword_ranges[i]);
    }
  };

  if (name == "load") {
    Bound b(*this, name, args, {"index"}, {"check_bounds", "latency", "allow_tma"}, 1, range);
    Placed p = place(index_items(b), b.range_of("index"));
    CallArgs load = positional_args({p.array, p.index, shape_tuple(tile_shape)}, range);
    load.keywords.push_back({"padding_mode", make(EnumValue{builtin_enum(EnumKind::PaddingMode), static_cast<int>(v.padding)})});
    load.keyword_ranges.push_back(range);
    pass_hints(load, args);
    return builtin_call("ct.load", load, range);
  }

  // The value written by store / atomic_store_*: broadcast to the tile shape, in the view's dtype.
  auto written_value = [&](const Value& value, SourceRange r, const char* what, bool exact_dtype) {
    auto dt = value_dtype(value);
    if (!dt)
      error(ErrorKind::Type, r, fmt::format("{}() expects a tile or a scalar, got {}", name, describe(value)));
    const ir::Shape shape = value_shape(value);
    if (!broadcastable(shape, tile_shape))
      error(ErrorKind::Type, r,
            fmt::format("{} shape {} is not broadcastable to the tiled view's tile shape {}", what,
                        ir::shape_string(shape), ir::shape_string(tile_shape)));
    if (value.is<Runtime>() && exact_dtype && *dt != dtype)
      error(ErrorKind::Type, r,
            fmt::format("{}() expects the update's dtype {} to exactly match the target dtype {}", name,
                        dtype_name(*dt), dtype_name(dtype)));
    if (value.is<Runtime>() && !implicitly_castable(*dt, dtype))
      error(ErrorKind::Type, r,
            fmt::format("{} is incompatible with the tiled view's dtype: cannot implicitly cast {} to {}",
                        std::string(what) == "Tile" ? "Stored tile" : "Update", dtype_name(*dt), dtype_name(dtype)));
    if (value.is_loose() && dtype_category(*dt) > dtype_category(dtype))
      error(ErrorKind::Type, r, fmt::format("cannot store {} into a tiled view of {}", describe(value), dtype_name(dtype)));
    return make(Runtime{broadcast(to_runtime_as(value, dtype, r), tile_shape, r)});
  };

  if (name == "store") {
    Bound b(*this, name, args, {"index", "tile"}, {"check_bounds", "latency", "allow_tma"}, 2, range);
    std::vector<Value> index = index_items(b);
    Value tile = written_value(b.at("tile"), b.range_of("tile"), "Tile", false);
    Placed p = place(index, b.range_of("index"));
    CallArgs store = positional_args({p.array, p.index, tile}, range);
    pass_hints(store, args);
    return builtin_call("ct.store", store, range);
  }

  if (const AtomicStore* atomic = atomic_store(name)) {
    Bound b(*this, name, args, {"index", "update"}, {}, 2, range);
    const std::vector<DType> dtypes = atomic_store_dtypes(*atomic);
    if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end()) {
      std::vector<std::string> names;
      for (DType d : dtypes) names.push_back(dtype_name(d));
      error(ErrorKind::Type, range,
            fmt::format("Unsupported tiled view dtype {} for {}(); supported: {}", dtype_name(dtype), name,
                        fmt::join(names, ", ")));
    }
    std::vector<Value> index = index_items(b);
    Value update = written_value(b.at("update"), b.range_of("update"), "Update", atomic->bitwise);
    // Element indices of the tile, one per axis: its origin plus the element's coordinate
    // along that axis (a scalar for a view of single elements). The coordinates come from one
    // arange over the whole tile, reshaped to it (no data moves: both layouts put an element in
    // the same place), as shifts and masks of the row-major position: every extent is a power
    // of two. They then need no broadcast, which would go through shared memory.
    std::vector<Value> elements;
    Value position;
    if (!tile_shape.empty()) {
      CallArgs arange = positional_args({make(LooseInt{ir::shape_elements(tile_shape)})}, range);
      arange.keywords.push_back({"dtype", make(DTypeValue{DType::Int32})});
      arange.keyword_ranges.push_back(range);
      position = builtin_call("ct.arange", arange, range);
      if (rank > 1) {
        ir::Op reshape = make_op(ir::OpKind::Reshape, {std::get<Runtime>(position.kind).id});
        position = make(Runtime{emit1(std::move(reshape), {DType::Int32, tile_shape})});
      }
    }
    int64_t stride = 1;  // the row-major stride of axis k within the tile
    std::vector<int64_t> strides(rank);
    for (int k = rank - 1; k >= 0; --k) {
      strides[k] = stride;
      stride *= extent(v, k);
    }
    for (int k = 0; k < rank; ++k) {
      Value start = origin(index[k], v.steps[k], b.range_of("index"));
      if (tile_shape.empty()) {
        elements.push_back(start);
        continue;
      }
      Value coord = position;
      if (strides[k] > 1) {
        int shift = 0;
        while ((int64_t{1} << shift) < strides[k]) ++shift;
        coord = binary(ast::BinaryOp::RShift, coord, make(LooseInt{shift}), range);
      }
      if (k > 0) coord = binary(ast::BinaryOp::BitAnd, coord, make(LooseInt{tile_shape[k] - 1}), range);
      auto* zero = start.as<LooseInt>();
      elements.push_back(zero && zero->value == 0 ? coord : binary(ast::BinaryOp::Add, coord, start, range));
    }
    CallArgs call = positional_args({make(ArrayValue{v.param}), make(TupleValue{std::move(elements)}), update}, range);
    // Relaxed, device scope: what cuTile's tiled-view atomics do.
    call.keywords.push_back({"memory_order", make(EnumValue{builtin_enum(EnumKind::MemoryOrder),
                                                            static_cast<int>(ir::MemoryOrder::Relaxed)})});
    call.keyword_ranges.push_back(range);
    builtin_call(fmt::format("ct.{}", atomic->op), call, range);
    return make(NoneValue{});
  }
  error(ErrorKind::Type, range, fmt::format("TiledView has no method '{}'", name));
}

}  // namespace tile2cu::sema
