// ct.reduce with a combiner function, and the scans ct.cumsum / ct.cumprod / ct.scan (spec c.8,
// c.9). A combiner (a helper function, a ct function such as ct.maximum, or operator.add and its
// siblings) is lowered once into a region of the op: two scalar arguments of the tile's dtype,
// one scalar yielded back. ct.reduce / ct.scan of a tuple of N tiles is the same op over N
// operands (broadcast to one shape): 2N arguments, N scalars yielded, N results.
#include <fmt/format.h>

#include <map>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// Why a combiner may not contain an op, in cuTile's words (it raises TileSyntaxError), or
// nullptr when it may. `body` is "reduction" or "scan".
std::string forbidden_in_combiner(const ir::Op& op, const std::string& body) {
  switch (op.kind) {
    case ir::OpKind::For: case ir::OpKind::While:
      return fmt::format("Loops inside {} body are not supported", body);
    case ir::OpKind::If: case ir::OpKind::Return:
      return fmt::format("Branching inside {} body is not supported", body);
    case ir::OpKind::Load: case ir::OpKind::Store: case ir::OpKind::Gather: case ir::OpKind::Scatter:
    case ir::OpKind::Atomic: case ir::OpKind::Print: case ir::OpKind::Assert:
      return fmt::format("Operations with memory effects are not supported inside {} body", body);
    case ir::OpKind::Reduce: case ir::OpKind::Scan:
      return "Nested scan/reduction is not supported";
    default:
      return {};
  }
}

// How many combiners are being lowered around the current call: a reduce or scan inside one is
// refused even where it folds away (a scan over one element emits no op to find afterwards).
thread_local int combiner_depth = 0;
// "reduction" or "scan" while a combiner is lowered (cuTile's words name the body), else nullptr.
thread_local const char* combiner_kind = nullptr;

// A reduction or scan axis: a constant int in [-rank, rank).
int single_axis(KernelLowering& k, const Value& v, SourceRange range, const std::string& what, int rank) {
  int64_t a = k.const_int(v, range, what);
  int64_t norm = a < 0 ? a + rank : a;
  if (norm < 0 || norm >= rank)
    k.error(ErrorKind::Type, range, fmt::format("Axis {} is out of range for rank {}'", a, rank));
  return static_cast<int>(norm);
}

}  // namespace

const char* combiner_body_kind() { return combiner_kind; }

// The binary functions and comparisons of Python's operator module (operator.add is the usual
// ct.reduce combiner).
Value KernelLowering::operator_function(const std::string& name, CallArgs& args, SourceRange range) {
  static const std::map<std::string, ast::BinaryOp> kBinary = {
      {"add", ast::BinaryOp::Add},          {"sub", ast::BinaryOp::Sub},       {"mul", ast::BinaryOp::Mul},
      {"truediv", ast::BinaryOp::Div},      {"floordiv", ast::BinaryOp::FloorDiv}, {"mod", ast::BinaryOp::Mod},
      {"pow", ast::BinaryOp::Pow},          {"and_", ast::BinaryOp::BitAnd},   {"or_", ast::BinaryOp::BitOr},
      {"xor", ast::BinaryOp::BitXor},       {"lshift", ast::BinaryOp::LShift}, {"rshift", ast::BinaryOp::RShift}};
  static const std::map<std::string, ast::CompareOp> kCompare = {
      {"lt", ast::CompareOp::Lt}, {"le", ast::CompareOp::Le}, {"eq", ast::CompareOp::Eq},
      {"ne", ast::CompareOp::NotEq}, {"gt", ast::CompareOp::Gt}, {"ge", ast::CompareOp::Ge}};
  auto it = kBinary.find(name);
  auto comparison = kCompare.find(name);
  if (it == kBinary.end() && comparison == kCompare.end())
    error(ErrorKind::UnsupportedFeature, range, fmt::format("operator.{}() is not supported in tile code yet", name));
  if (args.positional.size() != 2 || !args.keywords.empty())
    error(ErrorKind::Type, range, fmt::format("operator.{}() takes exactly two positional arguments", name));
  if (comparison != kCompare.end()) return compare(comparison->second, args.positional[0], args.positional[1], range);
  return binary(it->second, args.positional[0], args.positional[1], range);
}

ir::Literal KernelLowering::identity_literal(const Value& v, DType dtype, SourceRange range,
                                             const std::string& what) const {
  if (auto* i = v.as<LooseInt>()) {
    if (is_float(dtype)) return static_cast<double>(i->value);
    if (!integer_fits(dtype, i->value))
      error(ErrorKind::Type, range, fmt::format("Invalid {}: {} does not fit in {}", what,
                                                ast::int128_to_string(i->value), dtype_name(dtype)));
    return i->value;
  }
  if (auto* f = v.as<LooseFloat>()) {
    if (!is_float(dtype))
      error(ErrorKind::Type, range,
            fmt::format("Invalid {}: a float identity for a {} tile", what, dtype_name(dtype)));
    return f->value;
  }
  if (auto* b = v.as<LooseBool>()) return static_cast<__int128>(b->value ? 1 : 0);
  error(ErrorKind::Type, range,
        fmt::format("Invalid {}: Expected a constant scalar, but given value is {}", what,
                    v.is<Runtime>() ? "not constant" : describe(v)));
}

ir::Block KernelLowering::combiner_region(const Value& func, const std::vector<DType>& dtypes, bool tuple,
                                          SourceRange range, const std::string& fn) {
  const size_t n = dtypes.size();
  if (!func.is<FunctionValue>() && !func.is<BuiltinValue>())
    error(ErrorKind::Type, range,
          fmt::format("Invalid argument \"func\" of {}(): Expected a function of {} scalars, but given value is {}",
                      fn, 2 * n, describe(func)));
  ir::Block region;
  // The Python parameter names where the function has them (lambda a, b / def f(a_val, a_idx, ...)).
  std::vector<std::string> names;
  for (size_t i = 0; i < 2 * n; ++i)
    names.push_back(n == 1 ? std::string(i == 0 ? "a" : "b") : fmt::format("{}{}", i < n ? "a" : "b", i % n));
  if (auto* f = func.as<FunctionValue>())
    for (size_t i = 0; i < names.size() && i < f->def->params.size(); ++i) names[i] = f->def->params[i].name;
  CallArgs call_args;
  for (size_t i = 0; i < names.size(); ++i) {
    region.args.push_back(fn_.new_value({dtypes[i % n], {}}, names[i]));
    call_args.positional.push_back(make(Runtime{region.args.back()}));
    call_args.positional_ranges.push_back(range);
  }
  blocks_.push_back(&region);
  ++combiner_depth;
  const char* outer_kind = combiner_kind;
  combiner_kind = fn == "ct.reduce" ? "reduction" : "scan";
  Value result;
  try {
    result = call(func, std::move(call_args), range);
  } catch (...) {
    blocks_.pop_back();
    --combiner_depth;
    combiner_kind = outer_kind;
    throw;
  }
  blocks_.pop_back();
  --combiner_depth;
  combiner_kind = outer_kind;
  const std::string body = fn == "ct.reduce" ? "reduction" : "scan";
  for (const ir::Op& op : region.ops)
    if (std::string why = forbidden_in_combiner(op, body); !why.empty()) error(ErrorKind::Syntax, range, why);
  std::vector<Value> items = {result};
  if (auto* t = result.as<TupleValue>(); t && tuple) items = t->items;
  if (tuple && (!result.is<TupleValue>() || items.size() != n))
    error(ErrorKind::Type, range,
          fmt::format("the combiner of {}() over a tuple of {} tiles must return a tuple of {} scalars, got {}", fn, n,
                      n, describe(result)));
  for (size_t i = 0; i < n; ++i) {
    auto dt = value_dtype(items[i]);
    const std::string which = tuple ? fmt::format(" (item {})", i) : "";
    if (!dt || !value_shape(items[i]).empty())
      error(ErrorKind::Type, range,
            fmt::format("the combiner of {}() must return one scalar{}, got {}", fn, which, describe(items[i])));
    if (!items[i].is_loose() && *dt != dtypes[i])
      error(ErrorKind::Type, range,
            fmt::format("the combiner of {}() must return {}{}, got {}", fn, dtype_name(dtypes[i]), which,
                        dtype_name(*dt)));
  }
  blocks_.push_back(&region);
  std::vector<ir::ValueId> yielded;
  for (size_t i = 0; i < n; ++i) yielded.push_back(to_runtime_as(items[i], dtypes[i], range));
  emit(make_op(ir::OpKind::Yield, std::move(yielded)), {});
  blocks_.pop_back();
  return region;
}

Value KernelLowering::combining_op(const std::string& op, CallArgs& args, SourceRange range) {
  const bool is_reduce = op == "reduce";
  const bool custom = is_reduce || op == "scan";
  std::vector<std::string> positional = {"x", "axis"};
  if (custom) positional.insert(positional.end(), {"func", "identity"});
  std::vector<std::string> keywords = {is_reduce ? "keepdims" : "reverse"};
  if (!custom) keywords.insert(keywords.end(), {"rounding_mode", "flush_to_zero"});
  Bound b(*this, op, args, positional, keywords, custom ? 4 : 1, range);
  if (combiner_depth > 0) error(ErrorKind::Syntax, range, "Nested scan/reduction is not supported");
  // The tiles: x itself, or (ct.reduce / ct.scan) the items of a tuple, broadcast to one shape.
  const auto* x_tuple = b.at("x").as<TupleValue>();
  if (x_tuple && (!custom || x_tuple->items.empty()))
    error(ErrorKind::Type, b.range_of("x"),
          fmt::format("Invalid {}: Expected a tile{}, but given value is {}", b.what("x"),
                      custom ? " or a non-empty tuple of tiles" : "", describe(b.at("x"))));
  const std::vector<Value> x_items = x_tuple ? x_tuple->items : std::vector<Value>{b.at("x")};
  ir::Shape shape;
  std::vector<ir::ValueId> xs;
  for (const Value& item : x_items) {
    ir::ValueId x = to_runtime(item, b.range_of("x"));
    if (type_of(x).dtype == DType::Bool) x = convert(x, DType::Int32);  // as cuTile: bool counts as int32
    require_arithmetic(type_of(x).dtype, b.range_of("x"), "ct." + op + "()");
    shape = broadcast_shape(shape, type_of(x).shape, b.range_of("x"));
    xs.push_back(x);
  }
  std::vector<DType> dtypes;
  for (ir::ValueId& x : xs) {
    x = broadcast(x, shape, b.range_of("x"));
    dtypes.push_back(type_of(x).dtype);
  }
  const int rank = static_cast<int>(shape.size());
  Value axis_value = b.get("axis") ? b.at("axis") : make(LooseInt{0});
  if (is_reduce && axis_value.is<TupleValue>())
    error(ErrorKind::Type, b.range_of("axis"), "ct.reduce() takes a single axis, not a tuple");
  if (rank == 0)
    error(ErrorKind::Type, b.range_of("x"), fmt::format("ct.{}() needs a tile of rank 1 or more, got {}", op, describe(b.at("x"))));
  const int axis = single_axis(*this, axis_value, b.range_of("axis"), b.what("axis"), rank);

  ir::Op o = make_op(is_reduce ? ir::OpKind::Reduce : ir::OpKind::Scan, xs);
  if (custom) {
    const Value& identity = b.at("identity");
    const auto* identity_tuple = identity.as<TupleValue>();
    if (x_tuple && (!identity_tuple || identity_tuple->items.size() != xs.size()))
      error(ErrorKind::Type, b.range_of("identity"),
            fmt::format("Invalid {}: Expected a tuple of {} constant scalars, one per tile, but given value is {}",
                        b.what("identity"), xs.size(), describe(identity)));
    for (size_t i = 0; i < xs.size(); ++i)
      o.identities.push_back(identity_literal(x_tuple ? identity_tuple->items[i] : identity, dtypes[i],
                                              b.range_of("identity"), b.what("identity")));
    o.regions.push_back(combiner_region(b.at("func"), dtypes, x_tuple != nullptr, b.range_of("func"), "ct." + op));
  } else {
    o.binary = op == "cumsum" ? ir::BinaryKind::Add : ir::BinaryKind::Mul;
    const MathFlags flags = math_flags(b, op, dtypes[0]);
    o.rounding = flags.rounding;
    o.flush_to_zero = flags.flush_to_zero;
  }
  // The op's results, as the call's value: one tile, or a tuple of them for a tuple of tiles.
  auto as_value = [&](const std::vector<ir::ValueId>& results) {
    if (!x_tuple) return make(Runtime{results[0]});
    TupleValue t;
    for (ir::ValueId r : results) t.items.push_back(make(Runtime{r}));
    return make(std::move(t));
  };
  std::vector<ir::TileType> result_types;
  if (is_reduce) {
    bool keepdims = b.get("keepdims") && const_bool(*b.get("keepdims"), b.range_of("keepdims"), b.what("keepdims"));
    ir::Shape kept = shape;
    if (keepdims) kept[axis] = 1;
    else kept.erase(kept.begin() + axis);
    if (shape[axis] == 1) {  // nothing to combine: the elements themselves
      if (kept == shape) return as_value(xs);
      std::vector<ir::ValueId> reshaped;
      for (size_t i = 0; i < xs.size(); ++i)
        reshaped.push_back(emit1(make_op(ir::OpKind::Reshape, {xs[i]}), {dtypes[i], kept}));
      return as_value(reshaped);
    }
    o.axes = {axis};
    for (DType dt : dtypes) result_types.push_back({dt, kept});
    return as_value(emit(std::move(o), result_types));
  }
  o.axis = axis;
  o.reverse = b.get("reverse") && const_bool(*b.get("reverse"), b.range_of("reverse"), b.what("reverse"));
  if (shape[axis] == 1) return as_value(xs);  // a line of one element is its own prefix
  for (DType dt : dtypes) result_types.push_back({dt, shape});
  return as_value(emit(std::move(o), result_types));
}

}  // namespace tile2cu::sema
