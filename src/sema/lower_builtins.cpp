// The ct.* functions, tile methods and the Python builtins tile code may call.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <set>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"
#include "sema/python_builtins.hpp"
#include "sema/python_numbers.hpp"

namespace tile2cu::sema {

namespace {

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// cuTile functions that exist but belong to later work; calling one is a clear error.
const std::set<std::string> kNotYet = {
    "mma_scaled", "assume_divisible_by", "grid_dependency_control_wait",
    "grid_dependency_control_launch_dependents"};

struct UnaryInfo {
  const char* name;
  ir::UnaryKind kind;
  bool to_float;     // bool/int inputs become float32
  bool float_only;   // integer input is an error
};

const UnaryInfo kUnary[] = {
    {"exp", ir::UnaryKind::Exp, true, false},     {"exp2", ir::UnaryKind::Exp2, true, false},
    {"log", ir::UnaryKind::Log, true, false},     {"log2", ir::UnaryKind::Log2, true, false},
    {"sqrt", ir::UnaryKind::Sqrt, true, false},   {"rsqrt", ir::UnaryKind::Rsqrt, true, false},
    {"sin", ir::UnaryKind::Sin, true, false},     {"cos", ir::UnaryKind::Cos, true, false},
    {"tan", ir::UnaryKind::Tan, true, false},     {"sinh", ir::UnaryKind::Sinh, true, false},
    {"cosh", ir::UnaryKind::Cosh, true, false},   {"tanh", ir::UnaryKind::Tanh, true, false},
    {"floor", ir::UnaryKind::Floor, false, true}, {"ceil", ir::UnaryKind::Ceil, false, true},
    {"abs", ir::UnaryKind::Abs, false, false},    {"negative", ir::UnaryKind::Neg, false, false},
    {"isnan", ir::UnaryKind::IsNan, false, true}, {"bitwise_not", ir::UnaryKind::BitNot, false, false},
};


}  // namespace

// ---- compile-time argument helpers ------------------------------------------------------------

int64_t KernelLowering::const_int(const Value& v, SourceRange range, const std::string& what) const {
  if (auto* i = v.as<LooseInt>()) {
    if (!integer_fits(DType::Int64, i->value))
      error(ErrorKind::Value, range,
            fmt::format("Invalid {}: integer constant {} is out of range of int64", what,
                        ast::int128_to_string(i->value)));
    return static_cast<int64_t>(i->value);
  }
  if (auto* b = v.as<LooseBool>()) return b->value;
  error(ErrorKind::Type, range,
        fmt::format("Invalid {}: Expected an integer constant, but given value {}", what,
                    v.is<Runtime>() ? "is not constant" : "has type " + describe(v)));
}

bool KernelLowering::const_bool(const Value& v, SourceRange range, const std::string& what) const {
  if (auto* b = v.as<LooseBool>()) return b->value;
  if (auto* i = v.as<LooseInt>()) return i->value != 0;
  error(ErrorKind::Type, range,
        fmt::format("Invalid {}: Expected a boolean constant, but given value {}", what,
                    v.is<Runtime>() ? "is not constant" : "has type " + cutile_type(v)));
}

std::vector<int64_t> KernelLowering::const_int_tuple(const Value& v, SourceRange range,
                                                     const std::string& what) const {
  std::vector<int64_t> out;
  if (auto* t = v.as<TupleValue>()) {
    for (size_t i = 0; i < t->items.size(); ++i) {
      const Value& item = t->items[i];
      if (item.is<Runtime>())
        error(ErrorKind::Type, range,
              fmt::format("Invalid {}: Expected a constant integer tuple, but given value is not constant "
                          "(element #{})", what, i));
      if (!item.is<LooseInt>())
        error(ErrorKind::Type, range,
              fmt::format("Invalid {}: Expected a tuple of integers, but element #{} has type {}", what, i,
                          cutile_type(item)));
      out.push_back(const_int(item, range, what));
    }
    return out;
  }
  out.push_back(const_int(v, range, what));
  return out;
}

DType KernelLowering::const_dtype(const Value& v, SourceRange range, const std::string& what) const {
  if (auto* d = v.as<DTypeValue>()) return d->dtype;
  error(ErrorKind::Type, range,
        fmt::format("Invalid {}: Expected a dtype constant, but given value has type {}", what, cutile_type(v)));
}

ir::Shape KernelLowering::tile_shape_arg(const Value& v, SourceRange range, const std::string& what) const {
  ir::Shape shape = const_int_tuple(v, range, what);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] <= 0)
      error(ErrorKind::Type, range,
            fmt::format("Invalid {}: Dimension #{} of shape {} is not positive", what, i, ir::shape_string(shape)));
    if (!is_power_of_two(shape[i]))
      error(ErrorKind::Type, range,
            fmt::format("Invalid {}: Dimension #{} of shape {} is not a power of two", what, i,
                        ir::shape_string(shape)));
  }
  check_tile_size(shape, range);
  return shape;
}

void KernelLowering::check_tile_size(const ir::Shape& shape, SourceRange range) const {
  if (ir::shape_elements(shape) <= ir::kMaxTileElements) return;
  std::string elements = ir::shape_elements(shape) == std::numeric_limits<int64_t>::max()
                             ? "more than 2**63"
                             : std::to_string(ir::shape_elements(shape));
  const std::string message =
      fmt::format("a tile of shape {} has {} elements; tile2cu supports at most {} (2**16) in one tile, "
                  "beyond which nvcc takes minutes",
                  ir::shape_string(shape), elements, ir::kMaxTileElements);
  // A tile cuTile itself takes (up to 2**24 elements) is refused after the kernel is lowered
  // (run()), so an error cuTile reports in the same kernel comes first (test_transpose_3d_default_axes
  // loads 128 x 64 x 32 and expects transpose's "`axes` must be specified").
  if (ir::shape_elements(shape) > (int64_t{1} << 24)) error(ErrorKind::UnsupportedFeature, range, message);
  if (oversized_tile_) return;
  try {
    error(ErrorKind::UnsupportedFeature, range, message);
  } catch (const CompileError& e) {
    oversized_tile_ = e;
  }
}

// ---- builtins ------------------------------------------------------------------------------

namespace {
// ct functions that touch memory, read the launch or make or combine tiles: cuTile refuses a
// call of one inside ct.static_eval / static_assert / static_iter's iterable, naming it.
bool runs_tile_code(const std::string& fn) {
  static const std::set<std::string> kNames = {
      "load", "store", "gather", "scatter", "printf", "print", "assert_", "ones", "zeros", "full",
      "arange", "bid", "num_blocks", "num_tiles", "mma", "matmul", "reduce", "scan", "cumsum",
      "cumprod", "sum", "prod", "max", "min", "argmax", "argmin"};
  return kNames.count(fn) || fn.rfind("atomic", 0) == 0;
}

std::string called_inside_static_message(const std::string& fn, const char* what) {
  // "inside static_eval()" without ct., as cuTile words it (its tests match that).
  return fmt::format("{}() cannot be called inside {}: ct.{}() is evaluated at compile time and cannot contain "
                     "the tile operation '{}'",
                     fn, std::string(what) == "static_iter" ? "static_iter() iterable" : fmt::format("{}()", what),
                     what, fn);
}
}  // namespace

Value KernelLowering::builtin_call(const std::string& name, CallArgs& args, SourceRange range) {
  if (static_eval_depth_ > 0 && name.rfind("ct.", 0) == 0 && runs_tile_code(name.substr(3)))
    error(ErrorKind::StaticEval, range, called_inside_static_message(name.substr(3), static_eval_what_));
  if (auto v = debug_call(name, args, range)) return *v;
  if (name == "dataclasses.replace") return dataclass_replace(args, range);
  if (name == "functools.wraps") return make(BuiltinValue{"functools.wraps()"});  // decorators.cpp
  auto runtime_int = [&](const Value& v, SourceRange r, const std::string& what) -> ir::ValueId {
    auto dt = value_dtype(v);
    if (!dt || !value_shape(v).empty() || (!v.is_loose() && !is_integer(*dt)) || v.is<LooseFloat>())
      error(ErrorKind::Type, r, fmt::format("Invalid {}: Expected an integer scalar, got {}", what, describe(v)));
    return to_runtime_as(v, v.is_loose() ? DType::Int32 : *dt, r);
  };
  auto axis_arg = [&](const Bound& b, const std::string& fn) {
    int64_t axis = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
    if (axis < 0 || axis > 2)
      error(ErrorKind::Type, b.range_of("axis"), fmt::format("Invalid argument \"axis\" of {}(): must be 0, 1 or 2, got {}", fn, axis));
    return static_cast<int>(axis);
  };
  auto order_arg = [&](const Bound& b, int rank) {
    std::vector<int> order(rank);
    for (int i = 0; i < rank; ++i) order[i] = i;
    const Value* v = b.get("order");
    if (!v) return order;
    if (auto* s = v->as<StrValue>()) {
      if (s->value == "F") std::reverse(order.begin(), order.end());
      else if (s->value != "C")
        error(ErrorKind::Type, b.range_of("order"), fmt::format("Invalid {}: Expected 'C' or 'F', got '{}'", b.what("order"), s->value));
      return order;
    }
    auto axes = const_int_tuple(*v, b.range_of("order"), b.what("order"));
    if (static_cast<int>(axes.size()) != rank)
      error(ErrorKind::Type, b.range_of("order"), fmt::format("Invalid {}: Expected {} axes, got {}", b.what("order"), rank, axes.size()));
    std::vector<bool> seen(rank, false);
    for (int i = 0; i < rank; ++i) {
      int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
      if (a < 0 || a >= rank)
        error(ErrorKind::Type, b.range_of("order"),
              fmt::format("Invalid {}: Axis {} is out of range for rank {}", b.what("order"), axes[i], rank));
      if (seen[a])
        error(ErrorKind::Type, b.range_of("order"),
              fmt::format("Axis order must be a permutation, but axis {} is used at least twice", a));
      seen[a] = true;
      order[i] = static_cast<int>(a);
    }
    return order;
  };
  auto hints_ok = [&](const Bound& b, bool is_load) {
    if (const Value* lat = b.get("latency"); lat && !lat->is<NoneValue>()) {
      int64_t l = const_int(*lat, b.range_of("latency"), b.what("latency"));
      if (l < 1 || l > 10) error(ErrorKind::Value, b.range_of("latency"), fmt::format("latency must be between 1 and 10, got {}", l));
    }
    if (const Value* tma = b.get("allow_tma"); tma && !tma->is<NoneValue>())
      const_bool(*tma, b.range_of("allow_tma"), b.what("allow_tma"));
    if (const Value* cb = b.get("check_bounds")) {
      if (!const_bool(*cb, b.range_of("check_bounds"), b.what("check_bounds")))
        {}  // a promise that accesses are in bounds; the masked code stays correct either way
    }
    const Value* mo = b.get("memory_order");
    if (mo) {
      auto* e = mo->as<EnumValue>();
      if (!e || e->cls->builtin != EnumKind::MemoryOrder)
        error(ErrorKind::Type, b.range_of("memory_order"), "memory_order must be a ct.MemoryOrder");
      // cuTile's rule before any support question: a load cannot release, a store cannot acquire.
      const std::string order = e->cls->member_name(e->member);
      if (order == "ACQ_REL" || order == (is_load ? "RELEASE" : "ACQUIRE"))
        error(ErrorKind::Type, b.range_of("memory_order"),
              fmt::format("Invalid memory order for {}: MemoryOrder.{} (a {} takes WEAK, RELAXED or {})",
                          is_load ? "tile_load" : "tile_store", order, is_load ? "load" : "store",
                          is_load ? "ACQUIRE" : "RELEASE"));
      if (order != "WEAK")
        error(ErrorKind::UnsupportedFeature, b.range_of("memory_order"),
              fmt::format("{} with memory_order={} is not supported yet by tile2cu", is_load ? "load" : "store", e->cls->member_name(e->member)));
    }
    if (const Value* ms = b.get("memory_scope")) {
      auto* e = ms->as<EnumValue>();
      if (!e || e->cls->builtin != EnumKind::MemoryScope)
        error(ErrorKind::Type, b.range_of("memory_scope"), "memory_scope must be a ct.MemoryScope");
      if (e->cls->member_name(e->member) != "NONE")
        error(ErrorKind::Type, b.range_of("memory_scope"),
              "a load or store with WEAK memory ordering cannot specify a memory scope");
    }
  };
  auto tile_index = [&](const Bound& b, const ir::ArrayParam& a, const std::string& fn) {
    const Value& idx = b.at("index");
    std::vector<Value> items;
    if (auto* t = idx.as<TupleValue>()) items = t->items;
    else items.push_back(idx);
    if (static_cast<int>(items.size()) != a.rank)
      error(ErrorKind::Type, b.range_of("index"),
            fmt::format("Index size {} does not match the array rank {}", items.size(), a.rank));
    std::vector<ir::ValueId> ids;
    for (const auto& item : items) {
      ir::ValueId id = runtime_int(item, b.range_of("index"), fmt::format("argument \"index\" of {}()", fn));
      if (is_unsigned_integer(type_of(id).dtype))
        error(ErrorKind::Type, b.range_of("index"), "a tile index must be a signed integer");
      ids.push_back(convert(id, DType::Int32));
    }
    return ids;
  };

  std::string fn = name;
  if (fn.rfind("ct.", 0) == 0) {
    std::string op = fn.substr(3);
    if (is_element_memory_op(op)) return element_memory(op, args, range);
    if (op == "load_advanced_indexing" || op == "store_advanced_indexing") return advanced_indexing(op, args, range);
    if (op == "Slice") return slice_index(args, range);
    if (kNotYet.count(op))
      error(ErrorKind::UnsupportedFeature, range, fmt::format("ct.{}() is not supported yet by tile2cu", op));
    if (op == "divmod") return divmod_pair(args, range, "ct.divmod");
    if (op == "mma") {
      Bound b(*this, op, args, {"x", "y", "acc"}, {"use_fast_acc"}, 3, range);
      return mma_call(b.at("x"), b.at("y"), b.at("acc"), b.get("use_fast_acc"),
                      {range, b.range_of("x"), b.range_of("y"), b.range_of("acc")});
    }
    if (op == "matmul") {
      Bound b(*this, op, args, {"x", "y"}, {}, 2, range);
      return matmul(b.at("x"), b.at("y"), {range, b.range_of("x"), b.range_of("y"), range});
    }
    if (op == "bid" || op == "num_blocks") {
      Bound b(*this, op, args, {"axis"}, {}, 1, range);
      ir::Op o = make_op(op == "bid" ? ir::OpKind::BlockId : ir::OpKind::NumBlocks);
      o.axis = axis_arg(b, op);
      return make(Runtime{emit1(std::move(o), {DType::Int32, {}})});
    }
    if (op == "cdiv") {
      Bound b(*this, op, args, {"x", "y"}, {}, 2, range);
      const Value &x = b.at("x"), &y = b.at("y");
      if (x.is<LooseInt>() && y.is<LooseInt>()) {
        __int128 a = x.as<LooseInt>()->value, d = y.as<LooseInt>()->value;
        if (d == 0) error(ErrorKind::Value, range, "cdiv by zero");
        __int128 q = (a + d - 1) / d;
        if (((a + d - 1) % d != 0) && ((a + d - 1 < 0) != (d < 0))) --q;
        return make(LooseInt{q});
      }
      // Scalars or tiles, promoted and broadcast as for `//`; the quotient rounds toward +inf
      // (cuTile: a signed or unsigned integer division with that rounding).
      auto dx = value_dtype(x), dy = value_dtype(y);
      if (!dx || !dy)
        error(ErrorKind::Type, range, fmt::format("cdiv() takes integer scalars or tiles, got {} and {}", describe(x), describe(y)));
      auto dt = promote_for_binary(dx, x.is_loose(), dy, y.is_loose());
      if (!dt)
        error(ErrorKind::Type, range,
              fmt::format("Implicit promotion of {} and {} is not supported; use astype() to convert explicitly",
                          dtype_name(*dx), dtype_name(*dy)));
      if (*dt == DType::Bool)
        error(ErrorKind::Type, range, "Binary arithmetic op `cdiv` does not support bool, please cast bool to int");
      if (!is_integer(*dt))
        error(ErrorKind::Type, range, fmt::format("cdiv() takes integer scalars or tiles, got {}", dtype_name(*dt)));
      const ir::Shape shape = broadcast_shape(value_shape(x), value_shape(y), range);
      ir::Op o = make_op(ir::OpKind::Binary, {broadcast(to_runtime_as(x, *dt, b.range_of("x")), shape, range),
                                              broadcast(to_runtime_as(y, *dt, b.range_of("y")), shape, range)});
      o.binary = ir::BinaryKind::CeilDiv;
      return make(Runtime{emit1(std::move(o), {*dt, shape})});
    }
    if (op == "num_tiles") {
      Bound b(*this, op, args, {"array", "axis", "shape", "order"}, {}, 3, range);
      auto* a = b.at("array").as<ArrayValue>();
      if (!a) error(ErrorKind::Type, b.range_of("array"), "num_tiles() expects an array");
      const ir::ArrayParam& p = fn_.arrays[a->param];
      int64_t axis = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
      if (axis < 0) axis += p.rank;
      if (axis < 0 || axis >= p.rank) error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", axis, p.rank));
      ir::Shape shape = tile_shape_arg(b.at("shape"), b.range_of("shape"), b.what("shape"));
      // shape=() counts single-element tiles, as load(..., shape=()) reads one element of any rank.
      if (shape.empty()) shape.assign(p.rank, 1);
      if (static_cast<int>(shape.size()) != p.rank)
        error(ErrorKind::Type, b.range_of("shape"), fmt::format("Expected shape length to be {}, got {}", p.rank, shape.size()));
      auto order = order_arg(b, p.rank);
      Value extent = attribute(b.at("array"), "shape", range).as<TupleValue>()->items[order[axis]];
      CallArgs cd;
      cd.positional = {extent, make(LooseInt{shape[axis]})};
      cd.positional_ranges = {range, range};
      return builtin_call("ct.cdiv", cd, range);
    }
    if (op == "load") {
      Bound b(*this, op, args, {"array", "index", "shape"},
              {"order", "padding_mode", "check_bounds", "latency", "allow_tma", "memory_order", "memory_scope"}, 3, range);
      auto* a = b.at("array").as<ArrayValue>();
      if (!a) error(ErrorKind::Type, b.range_of("array"), fmt::format("Invalid argument #1 of load(): Expected an array, but given value is {}", describe(b.at("array"))));
      const ir::ArrayParam& p = fn_.arrays[a->param];
      ir::Shape shape = tile_shape_arg(b.at("shape"), b.range_of("shape"), b.what("shape"));
      bool scalar = false;
      if (auto* t = b.at("shape").as<TupleValue>(); t && t->items.empty()) scalar = true;
      if (!scalar && static_cast<int>(shape.size()) != p.rank)
        error(ErrorKind::Type, b.range_of("shape"), fmt::format("Invalid argument \"shape\" of load(): Expected shape length to be {}, got {}", p.rank, shape.size()));
      auto order = order_arg(b, p.rank);
      hints_ok(b, true);
      ir::PaddingMode pad = ir::PaddingMode::Undetermined;
      if (const Value* pm = b.get("padding_mode")) {
        auto* e = pm->as<EnumValue>();
        if (!e || e->cls->builtin != EnumKind::PaddingMode)
          error(ErrorKind::Type, b.range_of("padding_mode"), "padding_mode must be a ct.PaddingMode");
        pad = static_cast<ir::PaddingMode>(e->member);
        if (!is_float(p.dtype) && (pad == ir::PaddingMode::Nan || pad == ir::PaddingMode::PosInf ||
                                   pad == ir::PaddingMode::NegInf))
          error(ErrorKind::Type, b.range_of("padding_mode"),
                fmt::format("padding mode {} needs a float array, got {}", e->cls->member_name(e->member), dtype_name(p.dtype)));
      }
      ir::Op o = make_op(ir::OpKind::Load, tile_index(b, p, op));
      o.param = a->param;
      o.tile_shape = scalar ? ir::Shape{} : shape;
      o.order = order;
      o.padding = pad;
      return make(Runtime{emit1(std::move(o), {p.dtype, scalar ? ir::Shape{} : shape})});
    }
    if (op == "store") {
      Bound b(*this, op, args, {"array", "index", "tile"},
              {"order", "check_bounds", "latency", "allow_tma", "memory_order", "memory_scope"}, 3, range);
      auto* a = b.at("array").as<ArrayValue>();
      if (!a) error(ErrorKind::Type, b.range_of("array"), fmt::format("Invalid argument #1 of store(): Expected an array, but given value is {}", describe(b.at("array"))));
      ir::ArrayParam& p = fn_.arrays[a->param];
      const Value& tile = b.at("tile");
      auto dt = value_dtype(tile);
      if (!dt) error(ErrorKind::Type, b.range_of("tile"), fmt::format("store() expects a tile or a scalar, got {}", describe(tile)));
      ir::Shape shape = value_shape(tile);
      if (!shape.empty() && static_cast<int>(shape.size()) != p.rank)
        error(ErrorKind::Type, b.range_of("tile"),
              fmt::format("Stored tile of rank {} does not match the array rank {}", shape.size(), p.rank));
      if (tile.is<Runtime>() && !implicitly_castable(*dt, p.dtype))
        error(ErrorKind::Type, b.range_of("tile"),
              fmt::format("Stored tile is incompatible with array's dtype: cannot implicitly cast {} to {}",
                          dtype_name(*dt), dtype_name(p.dtype)));
      if (tile.is_loose()) {
        auto cat = dtype_category(*value_dtype(tile));
        if (cat > dtype_category(p.dtype))
          error(ErrorKind::Type, b.range_of("tile"),
                fmt::format("cannot store {} into an array of {}", describe(tile), dtype_name(p.dtype)));
      }
      auto order = order_arg(b, p.rank);
      hints_ok(b, false);
      std::vector<ir::ValueId> operands = tile_index(b, p, op);
      operands.push_back(to_runtime_as(tile, p.dtype, b.range_of("tile")));
      ir::Op o = make_op(ir::OpKind::Store, std::move(operands));
      o.param = a->param;
      o.tile_shape = shape;
      o.order = order;
      p.written = true;
      emit(std::move(o), {});
      return make(NoneValue{});
    }
    if (op == "full" || op == "zeros" || op == "ones") {
      bool is_full = op == "full";
      Bound b = is_full ? Bound(*this, op, args, {"shape", "fill_value", "dtype"}, {}, 3, range)
                        : Bound(*this, op, args, {"shape", "dtype"}, {}, 2, range);
      Value fill = is_full ? b.at("fill_value") : make(LooseInt{op == "ones" ? 1 : 0});
      if (!value_dtype(fill) || !value_shape(fill).empty())  // checked first, as cuTile does
        error(ErrorKind::Type, b.range_of("fill_value"),
              fmt::format("Invalid {}: Expected a scalar or a 0D tile, but given value has type {}",
                          b.what("fill_value"), cutile_type(fill)));
      ir::Shape shape = tile_shape_arg(b.at("shape"), b.range_of("shape"), b.what("shape"));
      if (auto* t = b.at("shape").as<TupleValue>(); t && t->items.empty()) shape.clear();
      DType dt = const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
      ir::ValueId s;
      if (fill.is_loose()) {
        if (fill.is<LooseFloat>() && !is_float(dt) && !is_restricted(dt)) {  // tf32 and fp8 keep the fraction
          Value truncated = make(LooseInt{int_of_float(fill.as<LooseFloat>()->value, b.range_of("fill_value"))});
          s = to_runtime_as(truncated, dt, b.range_of("fill_value"));
        } else {
          s = to_runtime_as(fill, dt, b.range_of("fill_value"));
        }
      } else {
        check_plain_conversion(*value_dtype(fill), dt, b.range_of("fill_value"));
        s = convert(to_runtime(fill, b.range_of("fill_value")), dt);
      }
      return make(Runtime{broadcast(s, shape, range)});
    }
    if (op == "arange") {
      Bound b(*this, op, args, {"size"}, {"dtype", "start", "step"}, 1, range);
      int64_t size = const_int(b.at("size"), b.range_of("size"), b.what("size"));
      if (!is_power_of_two(size))
        error(ErrorKind::Type, b.range_of("size"), fmt::format("Invalid argument \"size\" of arange(): Result tile shape must be power of 2, got {}", size));
      if (!b.get("dtype")) error(ErrorKind::Type, range, "arange() missing required keyword argument 'dtype'");
      DType dt = const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
      Value start = b.get("start") ? *b.get("start") : make(LooseInt{0});
      Value step = b.get("step") ? *b.get("step") : make(LooseInt{1});
      // A float constant start or step of an integer arange is truncated toward zero, as the
      // start and step of torch.arange(8.5, 4.1, -1.1, dtype=torch.int32) are (8, 7, 6, 5).
      for (Value* v : {&start, &step})
        if (auto* f = v->as<LooseFloat>(); f && is_integer(dt) && std::isfinite(f->value))
          *v = make(LooseInt{static_cast<__int128>(std::trunc(f->value))});
      ir::Op o = make_op(ir::OpKind::Arange, {to_runtime_as(start, dt, b.range_of("start")),
                                              to_runtime_as(step, dt, b.range_of("step"))});
      return make(Runtime{emit1(std::move(o), {dt, {size}})});
    }
    if (op == "astype") {
      Bound b(*this, op, args, {"x", "dtype"}, {"rounding_mode"}, 2, range);
      CallArgs rest;
      rest.positional = {b.at("dtype")};
      rest.positional_ranges = {b.range_of("dtype")};
      if (const Value* rm = b.get("rounding_mode")) {  // ct.astype(x, dt, rounding_mode=m) is x.astype(dt, ...)
        rest.keywords.push_back({"rounding_mode", *rm});
        rest.keyword_ranges.push_back(b.range_of("rounding_mode"));
      }
      return method_call(b.at("x"), "astype", rest, range);
    }
    if (op == "where") {
      Bound b(*this, op, args, {"cond", "x", "y"}, {}, 3, range);
      const Value &c = b.at("cond"), &x = b.at("x"), &y = b.at("y");
      bool constant_cond = false;
      // A constant condition picks an operand, which still takes the result's dtype and shape.
      const Value* picked = nullptr;
      if (c.is_loose()) {
        picked = truth(c, b.range_of("cond"), &constant_cond) ? &x : &y;
        if (x.is_loose() && y.is_loose()) return *picked;
      }
      auto dx = value_dtype(x), dy = value_dtype(y);
      if (!dx || !dy) error(ErrorKind::Type, range, "where() expects tiles or scalars");
      if (x.is_loose() && y.is_loose()) {
        // Two literals: the result dtype follows the higher category's default.
        dx = default_dtype(x.is<LooseFloat>() || y.is<LooseFloat>() ? make(LooseFloat{0}) : x, range);
        if (dx == DType::Bool && !y.is<LooseBool>()) dx = default_dtype(y, range);
        dy = dx;
      }
      auto dt = promote_for_binary(dx, x.is_loose() && !(x.is_loose() && y.is_loose()), dy, y.is_loose() && !(x.is_loose() && y.is_loose()));
      if (!dt)
        error(ErrorKind::Type, range,
              fmt::format("Implicit promotion of {} and {} is not supported", dtype_name(*dx), dtype_name(*dy)));
      ir::Shape shape = broadcast_shape(broadcast_shape(value_shape(c), value_shape(x), range), value_shape(y), range);
      if (picked)
        return make(Runtime{broadcast(to_runtime_as(*picked, *dt, picked == &x ? b.range_of("x") : b.range_of("y")), shape, range)});
      ir::ValueId cv = to_runtime(c, b.range_of("cond"));
      if (type_of(cv).dtype != DType::Bool) {
        ir::Op ne = make_op(ir::OpKind::Compare, {cv, constant(static_cast<__int128>(0), type_of(cv).dtype, type_of(cv).shape)});
        if (is_float(type_of(cv).dtype)) ne.operands[1] = constant(0.0, type_of(cv).dtype, type_of(cv).shape);
        ne.compare = ir::CompareKind::Ne;
        cv = emit1(std::move(ne), {DType::Bool, type_of(cv).shape});
      }
      ir::Op o = make_op(ir::OpKind::Select, {broadcast(cv, shape, range),
                                              broadcast(to_runtime_as(x, *dt, b.range_of("x")), shape, range),
                                              broadcast(to_runtime_as(y, *dt, b.range_of("y")), shape, range)});
      return make(Runtime{emit1(std::move(o), {*dt, shape})});
    }
    if (op == "sum" || op == "prod" || op == "max" || op == "min" || op == "argmax" || op == "argmin")
      return reduction(op, args, range);
    if (op == "reduce" || op == "cumsum" || op == "cumprod" || op == "scan") return combining_op(op, args, range);
    if (is_shape_op(op)) return shape_op(op, args, range);
    if (op == "astile") return astile(args, range);
    if (op == "reshape" || op == "expand_dims" || op == "broadcast_to") {
      Bound b(*this, op, args, {"x", op == "expand_dims" ? "axis" : "shape"}, {}, 2, range);
      CallArgs rest;
      if (op == "expand_dims") {
        const Value& x = b.at("x");
        // A Python number is a 0-d tile of its default dtype, as in cuTile.
        if (!x.is<Runtime>() && !x.is_loose()) error(ErrorKind::Type, b.range_of("x"), "expand_dims() expects a tile");
        const ir::ValueId id = to_runtime(x, b.range_of("x"));
        ir::TileType t = type_of(id);
        int64_t rank = static_cast<int64_t>(t.shape.size());
        const int64_t axis_arg = const_int(b.at("axis"), b.range_of("axis"), b.what("axis"));
        int64_t axis = axis_arg < 0 ? axis_arg + rank + 1 : axis_arg;
        if (axis < 0 || axis > rank) error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", axis_arg, rank + 1));
        ir::Shape shape = t.shape;
        shape.insert(shape.begin() + axis, 1);
        ir::Op o = make_op(ir::OpKind::Reshape, {id});
        return make(Runtime{emit1(std::move(o), {t.dtype, shape})});
      }
      if (op == "reshape") {
        rest.positional = {b.at("shape")};
        rest.positional_ranges = {b.range_of("shape")};
        return method_call(b.at("x"), "reshape", rest, range);
      }
      ir::Shape shape = tile_shape_arg(b.at("shape"), b.range_of("shape"), b.what("shape"));
      const Value& x = b.at("x");
      return make(Runtime{broadcast(to_runtime(x, b.range_of("x")), shape, range)});
    }
    // Math with explicit options.
    static const std::map<std::string, ast::BinaryOp> kBinaryFns = {
        {"add", ast::BinaryOp::Add}, {"sub", ast::BinaryOp::Sub}, {"mul", ast::BinaryOp::Mul},
        {"truediv", ast::BinaryOp::Div}, {"floordiv", ast::BinaryOp::FloorDiv},
        {"mod", ast::BinaryOp::Mod}, {"pow", ast::BinaryOp::Pow},
        {"bitwise_and", ast::BinaryOp::BitAnd}, {"bitwise_or", ast::BinaryOp::BitOr},
        {"bitwise_xor", ast::BinaryOp::BitXor}, {"bitwise_lshift", ast::BinaryOp::LShift},
        {"bitwise_rshift", ast::BinaryOp::RShift}};
    static const std::map<std::string, ast::CompareOp> kCompareFns = {
        {"equal", ast::CompareOp::Eq}, {"not_equal", ast::CompareOp::NotEq},
        {"less", ast::CompareOp::Lt}, {"less_equal", ast::CompareOp::Le},
        {"greater", ast::CompareOp::Gt}, {"greater_equal", ast::CompareOp::Ge}};
    auto apply_options = [&](const Bound& b, const std::string& opname, Value result) -> Value {
      if (!result.is<Runtime>()) {
        math_flags(b, opname, std::nullopt);
        return result;
      }
      ir::ValueId id = result.as<Runtime>()->id;
      const MathFlags flags = math_flags(b, opname, type_of(id).dtype);
      if (flags.rounding == ir::Rounding::Default && !flags.flush_to_zero && !flags.propagate_nan) return result;
      // The op that produced the result carries the options.
      ir::Op& producer = blocks_.back()->ops.back();
      if (producer.results.empty() || producer.results[0] != id)
        error(ErrorKind::UnsupportedFeature, range, "options on this operation are not supported yet");
      producer.rounding = flags.rounding;
      producer.flush_to_zero = flags.flush_to_zero;
      producer.propagate_nan = flags.propagate_nan;
      return result;
    };
    if (auto it = kBinaryFns.find(op); it != kBinaryFns.end()) {
      Bound b(*this, op, args, {"x", "y"}, math_options(op).keywords, 2, range);
      return apply_options(b, op, binary(it->second, b.at("x"), b.at("y"), range));
    }
    if (auto it = kCompareFns.find(op); it != kCompareFns.end()) {
      Bound b(*this, op, args, {"x", "y"}, {}, 2, range);
      return compare(it->second, b.at("x"), b.at("y"), range);
    }
    if (op == "minimum" || op == "maximum" || op == "atan2") {
      Bound b(*this, op, args, {"x", "y"}, math_options(op).keywords, 2, range);
      const Value &x = b.at("x"), &y = b.at("y");
      if (op == "atan2") {
        Value fx = x.is_loose() ? x : make(Runtime{to_runtime(x, range)});
        Value r = binary(ast::BinaryOp::Add, fx, make(LooseFloat{0.0}), range);  // promote to float
        Value s = binary(ast::BinaryOp::Add, y.is_loose() ? y : make(Runtime{to_runtime(y, range)}), make(LooseFloat{0.0}), range);
        if (r.is_loose() && s.is_loose()) return make(LooseFloat{std::atan2(r.as<LooseFloat>()->value, s.as<LooseFloat>()->value)});
        // cuTile promotes the operands themselves (float16 with int32 stays float16, b.5); only an
        // integer or bool result, which cuTile cannot lower, is taken as float32.
        auto dt = promote_for_binary(value_dtype(x), x.is_loose(), value_dtype(y), y.is_loose());
        if (!dt)
          error(ErrorKind::Type, range,
                fmt::format("Implicit promotion of {} and {} is not supported in atan2(); use astype() to convert explicitly",
                            dtype_name(*value_dtype(x)), dtype_name(*value_dtype(y))));
        if (!is_float(*dt)) dt = DType::Float32;
        ir::Shape shape = broadcast_shape(value_shape(r), value_shape(s), range);
        ir::Op o = make_op(ir::OpKind::Binary, {broadcast(to_runtime_as(r, *dt, range), shape, range), broadcast(to_runtime_as(s, *dt, range), shape, range)});
        o.binary = ir::BinaryKind::Atan2;
        return make(Runtime{emit1(std::move(o), {*dt, shape})});
      }
      bool is_min = op == "minimum";
      if (x.is_loose() && y.is_loose()) {
        Value lt = compare(ast::CompareOp::Lt, x, y, range);
        bool k = false;
        return truth(lt, range, &k) == is_min ? x : y;
      }
      // Reuse the arithmetic promotion (bool is fine for min/max).
      auto dt = promote_for_binary(value_dtype(x), x.is_loose(), value_dtype(y), y.is_loose());
      if (!value_dtype(x) || !value_dtype(y))
        error(ErrorKind::Type, range, fmt::format("{}() expects tiles or scalars", op));
      if (!dt) error(ErrorKind::Type, range, fmt::format("Implicit promotion of {} and {} is not supported", dtype_name(*value_dtype(x)), dtype_name(*value_dtype(y))));
      ir::Shape shape = broadcast_shape(value_shape(x), value_shape(y), range);
      ir::Op o = make_op(ir::OpKind::Binary, {broadcast(to_runtime_as(x, *dt, range), shape, range),
                                              broadcast(to_runtime_as(y, *dt, range), shape, range)});
      o.binary = is_min ? ir::BinaryKind::Min : ir::BinaryKind::Max;
      return apply_options(b, op, make(Runtime{emit1(std::move(o), {*dt, shape})}));
    }
    for (const UnaryInfo& u : kUnary) {
      if (op != u.name) continue;
      Bound b(*this, op, args, {"x"}, math_options(op).keywords, 1, range);
      const Value& x = b.at("x");
      if (x.is_loose()) {
        double v = x.is<LooseFloat>() ? x.as<LooseFloat>()->value : static_cast<double>(x.is<LooseInt>() ? x.as<LooseInt>()->value : x.as<LooseBool>()->value);
        switch (u.kind) {
          case ir::UnaryKind::Exp: return make(LooseFloat{std::exp(v)});
          case ir::UnaryKind::Exp2: return make(LooseFloat{std::exp2(v)});
          case ir::UnaryKind::Log: return make(LooseFloat{std::log(v)});
          case ir::UnaryKind::Log2: return make(LooseFloat{std::log2(v)});
          case ir::UnaryKind::Sqrt: return make(LooseFloat{std::sqrt(v)});
          case ir::UnaryKind::Rsqrt: return make(LooseFloat{1.0 / std::sqrt(v)});
          case ir::UnaryKind::IsNan: return make(LooseBool{std::isnan(v)});
          case ir::UnaryKind::Neg: return unary(ast::UnaryOp::Neg, x, range);
          default: break;
        }
      }
      ir::ValueId id = to_runtime(x, b.range_of("x"));
      DType dt = type_of(id).dtype;
      require_arithmetic(dt, b.range_of("x"), fmt::format("{}()", op));
      if (u.float_only && !is_float(dt))
        error(ErrorKind::Type, b.range_of("x"), fmt::format("{}() requires a float tile, got {}", op, describe(make(Runtime{id}))));
      if (u.to_float && !is_float(dt)) id = convert(id, DType::Float32);
      if (u.kind == ir::UnaryKind::Neg && dt == DType::Bool) id = convert(id, DType::Int32);
      if (u.kind == ir::UnaryKind::BitNot && is_float(dt))
        error(ErrorKind::Type, b.range_of("x"), "bitwise_not() requires an integer or bool tile");
      ir::Op o = make_op(ir::OpKind::Unary, {id});
      o.unary = (u.kind == ir::UnaryKind::BitNot && dt == DType::Bool) ? ir::UnaryKind::Not : u.kind;
      ir::TileType rt = type_of(id);
      if (u.kind == ir::UnaryKind::IsNan) rt.dtype = DType::Bool;
      return apply_options(b, op, make(Runtime{emit1(std::move(o), rt)}));
    }
    if (op == "ByTarget") {
      // Per-architecture values of kernel options; tile2cu's generated code targets sm_90 first.
      if (!args.positional.empty()) error(ErrorKind::Type, range, "ByTarget() takes keyword arguments only");
      std::optional<Value> chosen, fallback;
      for (size_t i = 0; i < args.keywords.size(); ++i) {
        const auto& [key, v] = args.keywords[i];
        bool arch = key.size() > 3 && key.rfind("sm_", 0) == 0 &&
                    key.find_first_not_of("0123456789", 3) == std::string::npos;
        if (!arch && key != "default")
          error(ErrorKind::Value, args.keyword_ranges[i], fmt::format("ByTarget key '{}' should look like sm_<digits> or be 'default'", key));
        if (key == "sm_90") chosen = v;
        if (key == "default") fallback = v;
      }
      return chosen ? *chosen : fallback ? *fallback : make(NoneValue{});
    }
    if (op == "kernel" || op == "function" || op == "Constant" || op == "launch")
      error(ErrorKind::Type, range, fmt::format("ct.{} cannot be used inside tile code", op));
    error(ErrorKind::Type, range, fmt::format("Module 'cuda.tile' has no attribute '{}'", op));
  }

  if (fn.rfind("math.", 0) == 0) {
    std::string op = fn.substr(5);
    std::vector<double> xs;
    for (size_t i = 0; i < args.positional.size(); ++i) {
      const Value& v = args.positional[i];
      if (!v.is_loose())
        error(ErrorKind::Type, args.positional_ranges[i],
              fmt::format("math.{}() needs compile-time constant arguments; use ct.{}() on tiles", op, op));
      xs.push_back(v.is<LooseFloat>() ? v.as<LooseFloat>()->value
                                      : static_cast<double>(v.is<LooseInt>() ? v.as<LooseInt>()->value : v.as<LooseBool>()->value));
    }
    auto need = [&](size_t n) {
      if (xs.size() != n || !args.keywords.empty())
        error(ErrorKind::Type, range, fmt::format("math.{}() takes {} argument(s)", op, n));
    };
    static const std::map<std::string, double (*)(double)> kOne = {
        {"sqrt", [](double x) { return std::sqrt(x); }}, {"exp", [](double x) { return std::exp(x); }},
        {"log2", [](double x) { return std::log2(x); }}, {"log10", [](double x) { return std::log10(x); }},
        {"sin", [](double x) { return std::sin(x); }},   {"cos", [](double x) { return std::cos(x); }},
        {"tan", [](double x) { return std::tan(x); }},   {"tanh", [](double x) { return std::tanh(x); }},
        {"fabs", [](double x) { return std::fabs(x); }}, {"exp2", [](double x) { return std::exp2(x); }},
        {"atan", [](double x) { return std::atan(x); }}, {"erf", [](double x) { return std::erf(x); }}};
    if (auto it = kOne.find(op); it != kOne.end()) {
      need(1);
      return make(LooseFloat{it->second(xs[0])});
    }
    if (op == "log") {
      if (xs.size() == 2) return make(LooseFloat{std::log(xs[0]) / std::log(xs[1])});
      need(1);
      if (xs[0] <= 0) error(ErrorKind::Value, range, "math domain error");
      return make(LooseFloat{std::log(xs[0])});
    }
    if (op == "pow") { need(2); return make(LooseFloat{std::pow(xs[0], xs[1])}); }
    if (op == "atan2") { need(2); return make(LooseFloat{std::atan2(xs[0], xs[1])}); }
    if (op == "floor" || op == "ceil" || op == "trunc") {
      need(1);
      double r = op == "floor" ? std::floor(xs[0]) : op == "ceil" ? std::ceil(xs[0]) : std::trunc(xs[0]);
      return make(LooseInt{int_of_float(r, range)});
    }
    if (op == "isnan") { need(1); return make(LooseBool{std::isnan(xs[0])}); }
    if (op == "isinf") { need(1); return make(LooseBool{std::isinf(xs[0])}); }
    error(ErrorKind::UnsupportedFeature, range, fmt::format("math.{}() is not supported in tile code yet", op));
  }

  if (fn.rfind("operator.", 0) == 0) return operator_function(fn.substr(9), args, range);

  // Python builtins.
  if (fn == "min" || fn == "max") {
    if (args.positional.size() != 2 || !args.keywords.empty())
      error(ErrorKind::Type, range, fmt::format("{}() in tile code takes exactly two arguments (element-wise); use ct.{}() to reduce a tile", fn, fn));
    return builtin_call(fn == "min" ? "ct.minimum" : "ct.maximum", args, range);
  }
  if (fn == "abs") {
    if (args.positional.size() != 1) error(ErrorKind::Type, range, "abs() takes one argument");
    const Value& x = args.positional[0];
    if (auto* i = x.as<LooseInt>()) return make(LooseInt{i->value < 0 ? -i->value : i->value});
    if (auto* f = x.as<LooseFloat>()) return make(LooseFloat{std::fabs(f->value)});
    return builtin_call("ct.abs", args, range);
  }
  if (fn == "divmod") return divmod_pair(args, range, "divmod");
  if (fn == "len") {
    if (args.positional.size() != 1) error(ErrorKind::Type, range, "len() takes one argument");
    if (auto* t = args.positional[0].as<TupleValue>()) return make(LooseInt{static_cast<__int128>(t->items.size())});
    if (auto* d = args.positional[0].as<DictValue>()) return make(LooseInt{static_cast<__int128>(d->keys.size())});
    if (auto* l = args.positional[0].as<ListValue>()) return list_length(*l, range);
    error(ErrorKind::Type, range, fmt::format("len() of {} is not supported", describe(args.positional[0])));
  }
  if (fn == "int" || fn == "float" || fn == "bool") {
    if (args.positional.size() != 1) error(ErrorKind::Type, range, fmt::format("{}() takes one argument", fn));
    Value x = args.positional[0];
    // A strictly typed constant (ct.float32(5.0)) gives Python's loosely typed number.
    if (auto loose = loose_of_typed_constant(x)) x = *loose;
    if (auto* s = x.as<StrValue>(); s && fn != "bool") {  // Python's float("-inf"), int("12")
      if (fn == "float")
        if (auto f = python_float_of_string(s->value)) return make(LooseFloat{*f});
      if (fn == "int")
        if (auto i = python_int_of_string(s->value)) return make(LooseInt{*i});
      error(ErrorKind::Value, args.positional_ranges[0],
            fmt::format("could not convert string to {}: '{}'", fn, s->value));
    }
    if (!x.is_loose())
      error(ErrorKind::Type, args.positional_ranges[0],
            fmt::format("{}() accepts compile-time constants only; use astype() on tiles", fn));
    double d = x.is<LooseFloat>() ? x.as<LooseFloat>()->value : 0;
    __int128 i = x.is<LooseInt>() ? x.as<LooseInt>()->value : (x.is<LooseBool>() ? x.as<LooseBool>()->value : 0);
    if (fn == "int") return make(LooseInt{x.is<LooseFloat>() ? int_of_float(d, range) : i});
    if (fn == "float") return make(LooseFloat{x.is<LooseFloat>() ? d : static_cast<double>(i)});
    bool constant = false;
    return make(LooseBool{truth(x, range, &constant)});
  }
  if (fn == "tuple") {  // tuple() and tuple(t): what a tuple comprehension is written with
    if (!args.keywords.empty() || args.positional.size() > 1 ||
        (args.positional.size() == 1 && !args.positional[0].is<TupleValue>()))
      error(ErrorKind::Type, range,
            fmt::format("tuple() in tile code takes a tuple or a tuple comprehension{}",
                        args.positional.size() == 1 ? ", got " + describe(args.positional[0]) : std::string()));
    return args.positional.empty() ? make(TupleValue{}) : args.positional[0];
  }
  if (fn == "range")
    error(ErrorKind::Syntax, range, "range() can only be used as the iterable of a for loop");
  if (fn == "sum" && static_eval_depth_ > 0) return python_sum(args, range);
  if (unsupported_python_builtin(fn) == PythonBuiltin::Type)
    error(ErrorKind::UnsupportedCall, range,
          fmt::format("Creating instances of type \"{}\" is not supported in device code", fn));
  error(ErrorKind::UnsupportedCall, range, fmt::format("{}() is not supported in device code", fn));
}

// Python's sum(iterable, start=0), which host Python inside ct.static_eval may call (cuTile's
// test_static_eval.py::test_tuple_sum): a tuple (a list is one there) added left to right
// onto `start`, as Python adds, so constants fold and run-time values become adds.
Value KernelLowering::python_sum(CallArgs& args, SourceRange range) {
  Bound b(*this, "sum", args, {"iterable", "start"}, {}, 1, range);
  const Value& iterable = b.at("iterable");
  const auto* items = iterable.as<TupleValue>();
  if (!items)
    error(ErrorKind::Type, b.range_of("iterable"),
          fmt::format("sum() takes a tuple or a list, got {}", describe(iterable)));
  Value total = b.get("start") ? *b.get("start") : make(LooseInt{0});
  for (const Value& item : items->items) total = binary(ast::BinaryOp::Add, total, item, range);
  return total;
}

// divmod(x, y) and ct.divmod(x, y): (x // y, x % y) with Python's floor semantics, for integer
// scalars or tiles. As in cuTile, two Python numbers fold (floats too), while a typed operand
// of float dtype, or one that makes the operands float, is refused: there is no float form.
Value KernelLowering::divmod_pair(CallArgs& args, SourceRange range, const std::string& what) {
  if (args.positional.size() != 2 || !args.keywords.empty())
    error(ErrorKind::Type, range, fmt::format("{}() takes two positional arguments", what));
  bool any_float = false;
  for (size_t k = 0; k < 2; ++k) {
    const Value& v = args.positional[k];
    auto dt = value_dtype(v);
    if (!dt)
      error(ErrorKind::Type, args.positional_ranges[k],
            fmt::format("{}() takes numbers or tiles, got {}", what, describe(v)));
    any_float |= is_float(*dt) || v.is<LooseFloat>();
  }
  const Value& x = args.positional[0];
  const Value& y = args.positional[1];
  if (any_float && !(x.is_loose() && y.is_loose()))
    error(ErrorKind::Type, range, "divmod() is not implemented for floating point values");
  return make(TupleValue{{binary(ast::BinaryOp::FloorDiv, x, y, range), binary(ast::BinaryOp::Mod, x, y, range)}});
}

// ct.sum / prod / max / min / argmax / argmin (spec c.8): no widening, bool counts as int32.
Value KernelLowering::reduction(const std::string& op, CallArgs& args, SourceRange range) {
  bool is_arg = op == "argmax" || op == "argmin";
  std::vector<std::string> keywords{"keepdims"};
  if (op == "sum" || op == "prod") keywords.insert(keywords.end(), {"rounding_mode", "flush_to_zero"});
  if (op == "max" || op == "min") keywords.insert(keywords.end(), {"flush_to_zero", "propagate_nan"});
  if (is_arg) keywords.push_back("propagate_nan");
  Bound b(*this, op, args, {"x", "axis"}, keywords, 1, range);
  ir::ValueId x = to_runtime(b.at("x"), b.range_of("x"));
  require_arithmetic(type_of(x).dtype, b.range_of("x"), "reduction");
  if (type_of(x).dtype == DType::Bool) x = convert(x, DType::Int32);
  const ir::TileType t = type_of(x);
  const int rank = static_cast<int>(t.shape.size());
  bool keepdims = b.get("keepdims") && const_bool(*b.get("keepdims"), b.range_of("keepdims"), b.what("keepdims"));
  const MathFlags flags = math_flags(b, op, t.dtype);
  // Which axes fold away.
  std::vector<int> axes;
  const Value* axis = b.get("axis");
  if (!axis || axis->is<NoneValue>()) {
    for (int a = 0; a < rank; ++a) axes.push_back(a);
  } else {
    if (is_arg && axis->is<TupleValue>())
      error(ErrorKind::Type, b.range_of("axis"), fmt::format("ct.{}() takes a single axis, not a tuple", op));
    for (int64_t a : const_int_tuple(*axis, b.range_of("axis"), b.what("axis"))) {
      int64_t norm = a < 0 ? a + rank : a;
      if (norm < 0 || norm >= rank)
        error(ErrorKind::Type, b.range_of("axis"), fmt::format("Axis {} is out of range for rank {}'", a, rank));
      if (std::find(axes.begin(), axes.end(), norm) != axes.end())
        error(ErrorKind::Type, b.range_of("axis"), fmt::format("Repeated reduction axis {}", a));
      axes.push_back(static_cast<int>(norm));
    }
    std::sort(axes.begin(), axes.end());
  }
  ir::Shape shape;
  for (int d = 0; d < rank; ++d) {
    bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
    if (!reduced) shape.push_back(t.shape[d]);
    else if (keepdims) shape.push_back(1);
  }
  DType result = is_arg ? DType::Int32 : t.dtype;
  if (axes.empty() || ir::shape_elements(t.shape) == ir::shape_elements(shape)) {
    // Nothing to combine (a scalar, or only axes of extent 1): the value itself, or index 0.
    ir::ValueId v = is_arg ? constant(static_cast<__int128>(0), DType::Int32) : x;
    if (is_arg) return make(Runtime{broadcast(v, shape, range)});
    if (shape == t.shape) return make(Runtime{v});
    ir::Op r = make_op(ir::OpKind::Reshape, {v});
    return make(Runtime{emit1(std::move(r), {result, shape})});
  }
  ir::Op o = make_op(ir::OpKind::Reduce, {x});
  o.binary = op == "sum" ? ir::BinaryKind::Add
           : op == "prod" ? ir::BinaryKind::Mul
           : (op == "max" || op == "argmax") ? ir::BinaryKind::Max : ir::BinaryKind::Min;
  o.arg = is_arg;
  o.axes = axes;
  o.propagate_nan = flags.propagate_nan;
  o.rounding = flags.rounding;
  o.flush_to_zero = flags.flush_to_zero;
  if (!shape.empty() && ir::shape_elements(shape) == 1) {
    // keepdims over a whole tile: reduce to a scalar (every thread gets it) and splat that, so
    // the (1, 1) result broadcasts back over the tile without moving through shared memory.
    ir::ValueId scalar = emit1(std::move(o), {result, {}});
    return make(Runtime{broadcast(scalar, shape, range)});  // a splat (see emit())
  }
  return make(Runtime{emit1(std::move(o), {result, shape})});
}

Value KernelLowering::method_call(const Value& self, const std::string& name, CallArgs& args, SourceRange range) {
  if (self.is<TiledViewValue>() || (self.is<ArrayValue>() && name == "tiled_view")) {
    if (static_eval_depth_ > 0) error(ErrorKind::StaticEval, range, called_inside_static_message(name, static_eval_what_));
    if (auto* v = self.as<TiledViewValue>()) return tiled_view_method(*v, name, args, range);
    return make_tiled_view(self.as<ArrayValue>()->param, args, range);
  }
  if (auto* a = self.as<ArrayValue>()) {
    if (static_eval_depth_ > 0) error(ErrorKind::StaticEval, range, called_inside_static_message(name, static_eval_what_));
    if (name == "get_raw_memory") {
      Bound b(*this, name, args, {}, {}, 0, range);
      return make(RawMemoryValue{a->param});
    }
    return array_slice(a->param, args, range);
  }
  if (auto* m = self.as<RawMemoryValue>()) {
    if (static_eval_depth_ > 0) error(ErrorKind::StaticEval, range, called_inside_static_message(name, static_eval_what_));
    return raw_memory_access(m->param, name, args, range);
  }
  if (auto* d = self.as<DictValue>()) return dict_method(*d, name, args, range);
  if (name == "astype") {
    Bound b(*this, "astype", args, {"dtype"}, {"rounding_mode"}, 1, range);
    DType dt = const_dtype(b.at("dtype"), b.range_of("dtype"), b.what("dtype"));
    if (const Value* rm = b.get("rounding_mode"); rm && !rm->is<NoneValue>()) {
      auto from = value_dtype(self);
      auto float_like = [](DType d) { return is_float(d) || dtype_category(d) == DTypeCategory::Restricted; };
      if (!from || !float_like(*from) || !float_like(dt) || self.is_loose())
        error(ErrorKind::Type, b.range_of("rounding_mode"), "rounding_mode is only valid for float to float conversions");
      const ir::Rounding rounding = conversion_rounding(*rm, *from, dt, b.range_of("rounding_mode"));
      ir::ValueId x = to_runtime(self, range);
      if (rounding == ir::Rounding::Default) return make(Runtime{convert(x, dt)});
      ir::Op o = make_op(ir::OpKind::Convert, {x});
      o.rounding = rounding;
      return make(Runtime{emit1(std::move(o), {dt, type_of(x).shape})});
    }
    if (self.is_loose()) return make(Runtime{to_runtime_as(self, dt, range)});
    if (auto from = value_dtype(self)) check_plain_conversion(*from, dt, range);
    return make(Runtime{convert(to_runtime(self, range), dt)});
  }
  if (name == "reshape") {
    Bound b(*this, "reshape", args, {"shape"}, {}, 1, range);
    ir::ValueId id = to_runtime(self, range);
    ir::TileType t = type_of(id);
    std::vector<int64_t> shape = const_int_tuple(b.at("shape"), b.range_of("shape"), b.what("shape"));
    int64_t known = 1, minus = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] == -1) {
        if (minus >= 0) error(ErrorKind::Type, b.range_of("shape"), "reshape(): Only one dimension can be -1");
        minus = static_cast<int64_t>(i);
      } else known *= shape[i];
    }
    if (minus >= 0 && known > 0) shape[minus] = ir::shape_elements(t.shape) / known;
    for (int64_t d : shape)
      if (!is_power_of_two(d)) error(ErrorKind::Type, b.range_of("shape"), fmt::format("Cannot reshape {} to {}", ir::shape_string(t.shape), ir::shape_string(shape)));
    if (ir::shape_elements(shape) != ir::shape_elements(t.shape))
      error(ErrorKind::Type, b.range_of("shape"), fmt::format("Cannot reshape {} to {}", ir::shape_string(t.shape), ir::shape_string(shape)));
    if (shape == t.shape) return make(Runtime{id});
    ir::Op o = make_op(ir::OpKind::Reshape, {id});
    return make(Runtime{emit1(std::move(o), {t.dtype, shape})});
  }
  if (name == "item") {
    Bound b(*this, "item", args, {}, {}, 0, range);
    ir::ValueId id = to_runtime(self, range);
    ir::TileType t = type_of(id);
    if (ir::shape_elements(t.shape) != 1)
      error(ErrorKind::Type, range, fmt::format("Cannot reshape {} to ()", ir::shape_string(t.shape)));  // cuTile's item() reshapes
    if (t.is_scalar()) return make(Runtime{id});
    if (auto it = splats_.find(id); it != splats_.end()) return make(Runtime{it->second});
    ir::Op o = make_op(ir::OpKind::Reshape, {id});
    return make(Runtime{emit1(std::move(o), {t.dtype, {}})});
  }
  if (name == "permute" || name == "transpose" || name == "extract" || name == "insert") {
    args.positional.insert(args.positional.begin(), self);
    args.positional_ranges.insert(args.positional_ranges.begin(), range);
    return shape_op(name, args, range);
  }
  error(ErrorKind::UnsupportedFeature, range, fmt::format("Tile.{}() is not supported yet by tile2cu", name));
}

}  // namespace tile2cu::sema
