// Shape, layout and dtype operations (spec c.10): permute, transpose, cat, extract, insert,
// bitcast, pack_to_bytes, unpack_from_bytes. (reshape, expand_dims, broadcast_to and item are
// in lower_builtins.cpp.)
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string axes_string(const std::vector<int64_t>& axes) {
  return axes.size() == 1 ? fmt::format("({},)", axes[0]) : fmt::format("({})", fmt::join(axes, ", "));
}

}  // namespace

bool KernelLowering::is_shape_op(const std::string& op) {
  return op == "permute" || op == "transpose" || op == "cat" || op == "extract" || op == "insert" ||
         op == "bitcast" || op == "pack_to_bytes" || op == "unpack_from_bytes";
}

Value KernelLowering::shape_op(const std::string& op, CallArgs& args, SourceRange range) {
  // The tile operand of every op here: a runtime tile (rank >= 1 unless said otherwise).
  auto tile_operand = [&](const Bound& b, const std::string& name, bool scalar_ok) {
    const Value& v = b.at(name);
    if (!v.is<Runtime>())
      error(ErrorKind::Type, b.range_of(name),
            fmt::format("Invalid {}: Expected a tile, but given value has type {}", b.what(name), cutile_type(v)));
    ir::ValueId id = v.as<Runtime>()->id;
    if (!scalar_ok && type_of(id).is_scalar())
      error(ErrorKind::Type, b.range_of(name),
            fmt::format("Invalid {}: Expected a tile of rank 1 or more, but given value is {}", b.what(name), describe(v)));
    return id;
  };
  auto permuted = [&](ir::ValueId x, std::vector<int> order) {
    const ir::TileType t = type_of(x);
    bool identity = true;
    ir::Shape shape;
    for (size_t i = 0; i < order.size(); ++i) {
      identity &= order[i] == static_cast<int>(i);
      shape.push_back(t.shape[order[i]]);
    }
    if (identity) return make(Runtime{x});
    ir::Op o = make_op(ir::OpKind::Permute, {x});
    o.order = std::move(order);
    return make(Runtime{emit1(std::move(o), {t.dtype, shape})});
  };
  // A grid index: one integer scalar per axis (runtime values allowed), as int32.
  auto grid_index = [&](const Bound& b, size_t rank) {
    const Value& v = b.at("index");
    std::vector<Value> items;
    if (auto* tuple = v.as<TupleValue>()) items = tuple->items;
    else items.push_back(v);
    if (items.size() != rank)
      error(ErrorKind::Type, b.range_of("index"),
            fmt::format("Invalid {}: Expected {} indices, got {}", b.what("index"), rank, items.size()));
    std::vector<ir::ValueId> ids;
    for (const Value& item : items) {
      auto dt = value_dtype(item);
      if (!dt || !value_shape(item).empty() || item.is<LooseFloat>() || (!item.is_loose() && !is_integer(*dt)))
        error(ErrorKind::Type, b.range_of("index"),
              fmt::format("Invalid {}: Expected integer scalars, got {}", b.what("index"), describe(item)));
      ids.push_back(convert(to_runtime_as(item, item.is_loose() ? DType::Int32 : *dt, b.range_of("index")), DType::Int32));
    }
    return std::make_pair(items, ids);
  };
  // Constant grid indices must lie inside the grid (cuTile checks them at compile time).
  // A constant index outside the grid of sub-tiles, in cuTile's words ("result" for extract,
  // "value" for insert; a scalar part is a shape of ones there).
  auto check_grid = [&](const Bound& b, const std::vector<Value>& items, const ir::Shape& grid,
                        const ir::Shape& tile_shape, ir::Shape part_shape, const char* part_noun) {
    if (part_shape.empty()) part_shape.assign(tile_shape.size(), 1);
    for (size_t d = 0; d < items.size(); ++d)
      if (auto* i = items[d].as<LooseInt>(); i && (i->value < 0 || i->value >= grid[d]))
        error(ErrorKind::Type, b.range_of("index"),
              fmt::format("Index {} out of bounds at dimension #{}: valid range is [0, {}) in tile space "
                          "(input shape {}, {} shape {})",
                          ast::int128_to_string(i->value), d, static_cast<long long>(grid[d]),
                          ir::shape_string(tile_shape), part_noun, ir::shape_string(part_shape)));
  };

  if (op == "permute") {
    Bound b(*this, op, args, {"x", "axes"}, {}, 2, range);
    ir::ValueId x = tile_operand(b, "x", false);
    const int rank = static_cast<int>(type_of(x).shape.size());
    std::vector<int64_t> axes = const_int_tuple(b.at("axes"), b.range_of("axes"), b.what("axes"));
    std::vector<int> order;
    std::vector<bool> seen(rank, false);
    bool ok = static_cast<int>(axes.size()) == rank;
    for (int64_t a : axes) {
      int64_t norm = a < 0 ? a + rank : a;
      ok &= norm >= 0 && norm < rank && !seen[norm];
      if (!ok) break;
      seen[norm] = true;
      order.push_back(static_cast<int>(norm));
    }
    if (!ok)
      error(ErrorKind::Type, b.range_of("axes"),
            fmt::format("Invalid {}: {} is not a permutation of the axes of a rank-{} tile", b.what("axes"),
                        axes_string(axes), rank));
    return permuted(x, order);
  }
  if (op == "transpose") {
    Bound b(*this, op, args, {"x", "axis0", "axis1"}, {}, 1, range);
    ir::ValueId x = tile_operand(b, "x", false);
    const int rank = static_cast<int>(type_of(x).shape.size());
    if (rank < 2)
      error(ErrorKind::Type, b.range_of("x"), fmt::format("Cannot transpose a tile with fewer than 2 dimensions, got {}", describe(b.at("x"))));
    auto given = [&](const char* n) { return b.get(n) && !b.get(n)->is<NoneValue>(); };
    if (given("axis0") != given("axis1"))
      error(ErrorKind::Type, range, "transpose(): transpose axes must either both be specified or both be None");
    std::vector<int> order(rank);
    std::iota(order.begin(), order.end(), 0);
    int a0 = 0, a1 = 1;
    if (given("axis0")) {
      for (const char* n : {"axis0", "axis1"}) {
        int64_t a = const_int(*b.get(n), b.range_of(n), b.what(n));
        int64_t norm = a < 0 ? a + rank : a;
        if (norm < 0 || norm >= rank)
          error(ErrorKind::Type, b.range_of(n), fmt::format("Axis {} is out of range for rank {}'", a, rank));
        (std::string(n) == "axis0" ? a0 : a1) = static_cast<int>(norm);
      }
    } else if (rank != 2) {
      error(ErrorKind::Type, range,
            fmt::format("transpose(): `axes` must be specified for tile with more than 2 dimensions "
                        "(a rank-{} tile needs axis0 and axis1)",
                        rank));
    }
    std::swap(order[a0], order[a1]);
    return permuted(x, order);
  }
  if (op == "cat") {
    Bound b(*this, op, args, {"tiles", "axis"}, {}, 2, range);
    auto* tiles = b.at("tiles").as<TupleValue>();
    if (!tiles)
      error(ErrorKind::Type, b.range_of("tiles"),
            fmt::format("Invalid {}: Expected a tuple of tiles, but given value is {}", b.what("tiles"), describe(b.at("tiles"))));
    if (tiles->items.size() == 1) return tiles->items[0];
    if (tiles->items.size() != 2)
      error(ErrorKind::Type, b.range_of("tiles"),
            fmt::format("cat() supports at most 2 tiles, got {}", tiles->items.size()));
    std::vector<ir::ValueId> ids;
    for (const Value& v : tiles->items) {
      if (!v.is<Runtime>() || type_of(v.as<Runtime>()->id).is_scalar())
        error(ErrorKind::Type, b.range_of("tiles"), fmt::format("cat() joins tiles, got {}", describe(v)));
      ids.push_back(v.as<Runtime>()->id);
    }
    // cuTile's checks in cuTile's order (rank, then dtype), with its words.
    const ir::TileType &ta = type_of(ids[0]), &tb = type_of(ids[1]);
    if (ta.shape.size() != tb.shape.size())
      error(ErrorKind::Type, b.range_of("tiles"),
            fmt::format("Expected tiles to have the same rank: {} != {}", ta.shape.size(), tb.shape.size()));
    if (ta.dtype != tb.dtype)
      error(ErrorKind::Type, b.range_of("tiles"),
            fmt::format("Expected tiles to have the same dtype: {} != {}", dtype_name(ta.dtype), dtype_name(tb.dtype)));
    const int rank = static_cast<int>(ta.shape.size());
    int64_t a = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
    int64_t axis = a < 0 ? a + rank : a;
    if (axis < 0 || axis >= rank)
      error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", a, rank));
    ir::Shape shape = ta.shape;
    for (int d = 0; d < rank; ++d)
      if (d != axis && ta.shape[d] != tb.shape[d])
        error(ErrorKind::Type, b.range_of("tiles"),
              fmt::format("Expected tiles to have the same shape for non axis dimensions, got {} and {}",
                          ir::shape_string(ta.shape), ir::shape_string(tb.shape)));
    shape[axis] = ta.shape[axis] + tb.shape[axis];
    if (!is_pow2(shape[axis]))
      error(ErrorKind::Type, b.range_of("tiles"),
            fmt::format("Result tile shape must be power of 2, got: [{}]", fmt::join(shape, ", ")));
    ir::Op o = make_op(ir::OpKind::Cat, ids);
    o.axis = static_cast<int>(axis);
    return make(Runtime{emit1(std::move(o), {ta.dtype, shape})});
  }
  if (op == "extract") {
    Bound b(*this, op, args, {"x", "index", "shape"}, {}, 3, range);
    ir::ValueId x = tile_operand(b, "x", false);
    const ir::TileType t = type_of(x);
    bool element = false;
    if (auto* s = b.at("shape").as<TupleValue>(); s && s->items.empty()) element = true;
    ir::Shape shape = element ? ir::Shape{} : tile_shape_arg(b.at("shape"), b.range_of("shape"), b.what("shape"));
    if (!element && shape.size() != t.shape.size())
      error(ErrorKind::Type, b.range_of("shape"),
            fmt::format("Invalid {}: Expected shape length to be {}, got {}", b.what("shape"), t.shape.size(), shape.size()));
    ir::Shape grid = t.shape;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (t.shape[d] % shape[d] != 0)
        error(ErrorKind::Type, b.range_of("shape"),
              fmt::format("extract(): shape {} does not divide the tile shape {}", ir::shape_string(shape), ir::shape_string(t.shape)));
      grid[d] = t.shape[d] / shape[d];
    }
    auto [items, ids] = grid_index(b, t.shape.size());
    check_grid(b, items, grid, t.shape, shape, "result");
    if (!element && shape == t.shape) return make(Runtime{x});
    ids.insert(ids.begin(), x);
    return make(Runtime{emit1(make_op(ir::OpKind::Extract, ids), {t.dtype, shape})});
  }
  if (op == "insert") {
    Bound b(*this, op, args, {"x", "index", "value"}, {}, 3, range);
    ir::ValueId x = tile_operand(b, "x", false);
    const ir::TileType t = type_of(x);
    const Value& v = b.at("value");
    auto vdt = value_dtype(v);
    if (!vdt)
      error(ErrorKind::Type, b.range_of("value"), fmt::format("insert() expects a tile or a scalar value, got {}", describe(v)));
    // cuTile's texts (test_insert.py matches them).
    if (v.is<Runtime>() && *vdt != t.dtype)
      error(ErrorKind::Type, b.range_of("value"),
            fmt::format("Cannot insert a tile of dtype {} into a tile of dtype {}", dtype_name(*vdt), dtype_name(t.dtype)));
    ir::ValueId value = to_runtime_as(v, t.dtype, b.range_of("value"));
    const ir::Shape vshape = type_of(value).shape;
    if (!vshape.empty() && vshape.size() != t.shape.size())
      error(ErrorKind::Type, b.range_of("value"),
            fmt::format("insert(): the rank of the value's shape {} does not match the tile rank {}",
                        ir::shape_string(vshape), t.shape.size()));
    ir::Shape grid = t.shape;
    for (size_t d = 0; d < vshape.size(); ++d) {
      if (t.shape[d] % vshape[d] != 0)
        error(ErrorKind::Type, b.range_of("value"),
              fmt::format("insert(): the tile shape {} is not divisible by the value shape {} (dimension {})",
                          ir::shape_string(t.shape), ir::shape_string(vshape), d));
      grid[d] = t.shape[d] / vshape[d];
    }
    auto [items, ids] = grid_index(b, t.shape.size());
    check_grid(b, items, grid, t.shape, vshape, "value");
    if (vshape == t.shape) return make(Runtime{value});
    ids.insert(ids.begin(), {x, value});
    return make(Runtime{emit1(make_op(ir::OpKind::Insert, ids), t)});
  }
  if (op == "bitcast") {
    Bound b(*this, op, args, {"x", "dtype"}, {}, 2, range);
    ir::ValueId x = tile_operand(b, "x", true);
    const ir::TileType t = type_of(x);
    DType dt = const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
    if (t.dtype == DType::Bool || dt == DType::Bool)
      error(ErrorKind::Type, range, "bitcast() does not accept bool");
    if (dtype_bits(t.dtype) != dtype_bits(dt))
      error(ErrorKind::Type, range,
            fmt::format("bitcast() from {} to {}: bit widths differ ({} and {})", dtype_name(t.dtype), dtype_name(dt),
                        dtype_bits(t.dtype), dtype_bits(dt)));
    if (dt == t.dtype) return make(Runtime{x});
    return make(Runtime{emit1(make_op(ir::OpKind::Bitcast, {x}), {dt, t.shape})});
  }
  if (op == "pack_to_bytes" || op == "unpack_from_bytes") {
    const bool pack = op == "pack_to_bytes";
    Bound b = pack ? Bound(*this, op, args, {"x"}, {}, 1, range) : Bound(*this, op, args, {"x", "dtype"}, {}, 2, range);
    ir::ValueId x = tile_operand(b, "x", pack);
    // A 0-d tile packs as its one element (test_pack_unpack_roundtrip_0d): a (1,) tile of it.
    if (type_of(x).is_scalar()) x = broadcast(x, {1}, b.range_of("x"));
    const ir::TileType t = type_of(x);
    DType to = pack ? DType::UInt8 : const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
    // cuTile's texts (test_pack_unpack.py matches them).
    if (!pack && t.dtype != DType::UInt8)
      error(ErrorKind::Type, b.range_of("x"),
            fmt::format("unpack_from_bytes requires uint8 tile, got {}", describe(b.at("x"))));
    if (!pack && t.shape.size() != 1)
      error(ErrorKind::Type, b.range_of("x"),
            fmt::format("unpack_from_bytes requires a 1D tile, got {}", describe(b.at("x"))));
    if (t.dtype == DType::Bool) error(ErrorKind::Type, range, "pack_to_bytes from a bool_ tile is not supported");
    if (to == DType::Bool) error(ErrorKind::Type, range, "unpack_from_bytes to a bool_ tile is not supported");
    int64_t bits = ir::shape_elements(t.shape) * dtype_bits(t.dtype);
    if (bits % dtype_bits(to) != 0)
      error(ErrorKind::Type, range,
            fmt::format("{}(): the tile's {} bits are not divisible by {} (the bits of {})", op, bits,
                        dtype_bits(to), dtype_name(to)));
    ir::Shape shape = {bits / dtype_bits(to)};
    if (shape == t.shape && to == t.dtype) return make(Runtime{x});
    return make(Runtime{emit1(make_op(ir::OpKind::Reinterpret, {x}), {to, shape})});
  }
  error(ErrorKind::Type, range, fmt::format("Module 'cuda.tile' has no attribute '{}'", op));
}

}  // namespace tile2cu::sema
