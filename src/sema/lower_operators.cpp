// Operators with cuTile's promotion rules (spec b.5), constant folding with Python semantics,
// and the conversions between sema values and IR values.
#include <fmt/format.h>

#include <cmath>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

constexpr __int128 kLooseIntLimit = static_cast<__int128>(1) << 100;
constexpr const char* kTooLarge = "integer constant too large: tile2cu folds integers up to 2**100";

__int128 magnitude(__int128 v) { return v < 0 ? -v : v; }

// a * b when it stays within kLooseIntLimit (then it cannot overflow 128 bits either).
std::optional<__int128> bounded_product(__int128 a, __int128 b) {
  if (a != 0 && magnitude(b) > kLooseIntLimit / magnitude(a)) return std::nullopt;
  return a * b;
}

__int128 floor_div(__int128 a, __int128 b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

__int128 python_mod(__int128 a, __int128 b) {
  __int128 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// The name cuTile gives an operator in its messages (its ct.add, ct.sub, ... functions).
const char* cutile_binary_op_name(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add: return "add";
    case ast::BinaryOp::Sub: return "sub";
    case ast::BinaryOp::Mul: return "mul";
    case ast::BinaryOp::Div: return "truediv";
    case ast::BinaryOp::FloorDiv: return "floordiv";
    case ast::BinaryOp::Mod: return "mod";
    case ast::BinaryOp::Pow: return "pow";
    default: return ast::binary_op_token(op);
  }
}

// Python's `a is b` where the answer does not depend on the interpreter: True, False, None and
// dtypes are singletons, and values of different kinds are never the same object. Equal ints,
// floats or strings may or may not be one object in CPython: nullopt.
std::optional<bool> python_identity(const Value& a, const Value& b) {
  auto* ab = a.as<LooseBool>();
  auto* bb = b.as<LooseBool>();
  if (ab && bb) return ab->value == bb->value;
  auto* ad = a.as<DTypeValue>();
  auto* bd = b.as<DTypeValue>();
  if (ad && bd) return ad->dtype == bd->dtype;
  bool a_constant = a.is_loose() || a.is<StrValue>() || ad;
  bool b_constant = b.is_loose() || b.is<StrValue>() || bd;
  if ((ab || bb || ad || bd) && a_constant && b_constant) return false;
  return std::nullopt;
}

double python_fmod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

bool loose_as_int(const Value& v, __int128* out) {
  if (auto* i = v.as<LooseInt>()) { *out = i->value; return true; }
  if (auto* b = v.as<LooseBool>()) { *out = b->value ? 1 : 0; return true; }
  return false;
}

double loose_as_double(const Value& v) {
  if (auto* f = v.as<LooseFloat>()) return f->value;
  __int128 i = 0;
  loose_as_int(v, &i);
  return static_cast<double>(i);
}

ir::BinaryKind binary_kind(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::Add: return ir::BinaryKind::Add;
    case ast::BinaryOp::Sub: return ir::BinaryKind::Sub;
    case ast::BinaryOp::Mul: return ir::BinaryKind::Mul;
    case ast::BinaryOp::Div: return ir::BinaryKind::Div;
    case ast::BinaryOp::FloorDiv: return ir::BinaryKind::FloorDiv;
    case ast::BinaryOp::Mod: return ir::BinaryKind::Mod;
    case ast::BinaryOp::Pow: return ir::BinaryKind::Pow;
    case ast::BinaryOp::BitAnd: return ir::BinaryKind::BitAnd;
    case ast::BinaryOp::BitOr: return ir::BinaryKind::BitOr;
    case ast::BinaryOp::BitXor: return ir::BinaryKind::BitXor;
    case ast::BinaryOp::LShift: return ir::BinaryKind::Shl;
    case ast::BinaryOp::RShift: return ir::BinaryKind::Shr;
    case ast::BinaryOp::MatMul: break;
  }
  return ir::BinaryKind::Add;
}

}  // namespace

std::optional<DType> promote_for_binary(std::optional<DType> a, bool a_loose,
                                        std::optional<DType> b, bool b_loose) {
  if (!a || !b) return std::nullopt;
  if (a_loose && !b_loose) std::swap(a, b), std::swap(a_loose, b_loose);
  if (!a_loose && b_loose) {
    // A loose constant adopts the typed side's dtype within the same category; otherwise
    // the higher category wins (spec b.5 rules 3 and 4).
    auto ca = dtype_category(*a), cb = dtype_category(*b);
    if (ca == cb || ca > cb) return a;
    return b;
  }
  return promote(*a, *b);
}


Value KernelLowering::loose_int(__int128 v, SourceRange range) const {
  if (magnitude(v) > kLooseIntLimit) error(ErrorKind::Value, range, kTooLarge);
  return make(LooseInt{v});
}

__int128 KernelLowering::int_of_float(double x, SourceRange range) const {
  // Python raises ValueError for NaN and OverflowError for infinities; TileValueError both.
  if (std::isnan(x)) error(ErrorKind::Value, range, "cannot convert float NaN to integer");
  if (std::isinf(x)) error(ErrorKind::Value, range, "cannot convert float infinity to integer");
  double t = std::trunc(x);
  if (std::fabs(t) > static_cast<double>(kLooseIntLimit)) error(ErrorKind::Value, range, kTooLarge);
  return static_cast<__int128>(t);
}

void KernelLowering::require_arithmetic(DType dtype, SourceRange range, const std::string& what) const {
  if (is_restricted(dtype))
    error(ErrorKind::Type, range,
          fmt::format("Non-arithmetic dtype {} is unsupported for {}: restricted floats only feed mma; "
                      "convert with astype() first", dtype_name(dtype), what));
}

// ---- operators -----------------------------------------------------------------------------

Value KernelLowering::binary(ast::BinaryOp op, const Value& lhs, const Value& rhs, SourceRange range) {
  const char* token = ast::binary_op_token(op);
  if (auto v = dataclass_binary(op, lhs, rhs, range)) return *v;
  if (op == ast::BinaryOp::MatMul) return matmul(lhs, rhs, {range, range, range, range});
  if (auto* a = lhs.as<TupleValue>()) {
    if (auto* b = rhs.as<TupleValue>(); b && op == ast::BinaryOp::Add) {
      std::vector<Value> items = a->items;
      items.insert(items.end(), b->items.begin(), b->items.end());
      return make_tuple(std::move(items), range);
    }
  }
  // `tuple * n` and `n * tuple` inside ct.static_eval, which evaluates host Python: the tuple
  // repeated (empty for n <= 0), e.g. ct.static_eval((0,) * len(shape)). cuTile's tile code has
  // no such operator outside static_eval.
  if (static_eval_depth_ > 0 && op == ast::BinaryOp::Mul) {
    const TupleValue* t = lhs.as<TupleValue>() ? lhs.as<TupleValue>() : rhs.as<TupleValue>();
    const LooseInt* n = lhs.as<LooseInt>() ? lhs.as<LooseInt>() : rhs.as<LooseInt>();
    if (t && n) {
      // Past the tuple size limit make_tuple refuses it; the copies stop there, so a huge count
      // builds no huge vector.
      constexpr size_t kCap = 4097;
      std::vector<Value> items;
      for (__int128 k = 0; k < n->value && (k == 0 || items.size() < kCap); ++k)
        items.insert(items.end(), t->items.begin(), t->items.end());
      return make_tuple(std::move(items), range);
    }
  }
  if (auto* a = lhs.as<StrValue>(); a && op == ast::BinaryOp::Add)
    if (auto* b = rhs.as<StrValue>()) return make(StrValue{a->value + b->value});  // messages
  // A string joined to an f-string stays a formatted string (cuTile's string_concat).
  bool text_operands = (lhs.is<StrValue>() || lhs.is<FormattedStrValue>()) &&
                       (rhs.is<StrValue>() || rhs.is<FormattedStrValue>());
  if (text_operands && op == ast::BinaryOp::Add) {
    FormattedStrValue joined;
    joined.texts.emplace_back();
    append_formatted(joined, lhs, std::nullopt, range);
    append_formatted(joined, rhs, std::nullopt, range);
    return make(std::move(joined));
  }
  if (lhs.is_loose() && rhs.is_loose()) {
    bool both_int = !lhs.is<LooseFloat>() && !rhs.is<LooseFloat>();
    if (both_int) {
      __int128 a = 0, b = 0;
      loose_as_int(lhs, &a);
      loose_as_int(rhs, &b);
      auto checked = [&](__int128 v) { return loose_int(v, range); };
      auto product = [&](__int128 x, __int128 y) {
        auto p = bounded_product(x, y);
        if (!p) error(ErrorKind::Value, range, kTooLarge);
        return *p;
      };
      bool bitwise_bool = lhs.is<LooseBool>() && rhs.is<LooseBool>();
      switch (op) {
        case ast::BinaryOp::Add: return checked(a + b);
        case ast::BinaryOp::Sub: return checked(a - b);
        case ast::BinaryOp::Mul: return checked(product(a, b));
        case ast::BinaryOp::Div:
          if (b == 0) error(ErrorKind::Value, range, "division by zero");
          return make(LooseFloat{static_cast<double>(a) / static_cast<double>(b)});
        case ast::BinaryOp::FloorDiv:
          if (b == 0) error(ErrorKind::Value, range, "integer division by zero");
          return checked(floor_div(a, b));
        case ast::BinaryOp::Mod:
          if (b == 0) error(ErrorKind::Value, range, "integer modulo by zero");
          return checked(python_mod(a, b));
        case ast::BinaryOp::Pow: {
          if (b < 0) return make(LooseFloat{std::pow(static_cast<double>(a), static_cast<double>(b))});
          // 0, 1 and -1 never grow: answered at once, not by b multiplications (1 ** 10**25).
          if (a == 0 || a == 1) return checked(b == 0 ? 1 : a);
          if (a == -1) return checked(b % 2 == 0 ? 1 : -1);
          __int128 v = 1;
          for (__int128 i = 0; i < b; ++i) v = product(v, a);  // past the limit within 101 rounds
          return checked(v);
        }
        case ast::BinaryOp::BitAnd: return bitwise_bool ? make(LooseBool{(a & b) != 0}) : make(LooseInt{a & b});
        case ast::BinaryOp::BitOr: return bitwise_bool ? make(LooseBool{(a | b) != 0}) : make(LooseInt{a | b});
        case ast::BinaryOp::BitXor: return bitwise_bool ? make(LooseBool{(a ^ b) != 0}) : make(LooseInt{a ^ b});
        case ast::BinaryOp::LShift:
          if (b < 0) error(ErrorKind::Value, range, "negative shift count");
          if (b > 100) error(ErrorKind::Value, range, kTooLarge);
          return checked(product(a, static_cast<__int128>(1) << static_cast<int>(b)));
        case ast::BinaryOp::RShift:
          if (b < 0) error(ErrorKind::Value, range, "negative shift count");
          return make(LooseInt{b > 127 ? (a < 0 ? -1 : 0) : a >> static_cast<int>(b)});
        case ast::BinaryOp::MatMul: break;
      }
    }
    double a = loose_as_double(lhs), b = loose_as_double(rhs);
    switch (op) {
      case ast::BinaryOp::Add: return make(LooseFloat{a + b});
      case ast::BinaryOp::Sub: return make(LooseFloat{a - b});
      case ast::BinaryOp::Mul: return make(LooseFloat{a * b});
      case ast::BinaryOp::Div:
        if (b == 0) error(ErrorKind::Value, range, "float division by zero");
        return make(LooseFloat{a / b});
      case ast::BinaryOp::FloorDiv:
        if (b == 0) error(ErrorKind::Value, range, "float floor division by zero");
        return make(LooseFloat{std::floor(a / b)});
      case ast::BinaryOp::Mod:
        if (b == 0) error(ErrorKind::Value, range, "float modulo by zero");
        return make(LooseFloat{python_fmod(a, b)});
      case ast::BinaryOp::Pow: return make(LooseFloat{std::pow(a, b)});
      default:
        error(ErrorKind::Type, range, fmt::format("unsupported operand types for {}: float constants", token));
    }
  }

  // At least one typed operand: promote, broadcast, emit.
  auto da = value_dtype(lhs), db = value_dtype(rhs);
  if (!da || !db)
    error(ErrorKind::Type, range, fmt::format("Unsupported operand types for {}: {} and {}", token,
                                              cutile_type(lhs), cutile_type(rhs)));
  for (DType d : {*da, *db}) require_arithmetic(d, range, token);
  bool is_bitwise = op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitXor;
  bool is_shift = op == ast::BinaryOp::LShift || op == ast::BinaryOp::RShift;
  if (is_bitwise || is_shift) {
    for (const Value* v : {&lhs, &rhs}) {
      auto dt = value_dtype(*v);
      // cuTile's words, naming the side and its dtype.
      if (is_shift && (is_float(*dt) || (*dt == DType::Bool && !v->is_loose())))
        error(ErrorKind::Type, range,
              fmt::format("Bitwise shift requires an integer for {} side, got: {}",
                          v == &lhs ? "left-hand" : "right-hand", dtype_name(*dt)));
      if (is_float(*dt))
        error(ErrorKind::Type, range,
              fmt::format("Bitwise operations require integers or booleans, got {}; use an explicit bitcast",
                          describe(*v)));
    }
    if (is_bitwise && lhs.is<Runtime>() && rhs.is<Runtime>() && *da != *db)
      error(ErrorKind::Type, range,
            fmt::format("Bitwise operands must have same data type, got {} and {}",
                        dtype_name(*da), dtype_name(*db)));
  }
  auto result = promote_for_binary(da, lhs.is_loose(), db, rhs.is_loose());
  if (!result)
    error(ErrorKind::Type, range,
          fmt::format("Implicit promotion of {} and {} is not supported; use astype() to convert explicitly",
                      dtype_name(*da), dtype_name(*db)));
  DType dt = *result;
  if (op == ast::BinaryOp::Div && !is_float(dt)) dt = DType::Float32;
  bool arithmetic = !is_bitwise && !is_shift;
  if (arithmetic && dt == DType::Bool)
    error(ErrorKind::Type, range,
          fmt::format("Binary arithmetic op `{}` does not support bool, please cast bool to int (operator {})",
                      cutile_binary_op_name(op), token));
  if (op == ast::BinaryOp::Pow && !is_float(dt))
    error(ErrorKind::UnsupportedFeature, range,
          "integer ** integer is not supported on tiles; cast the base to a float dtype");
  ir::Shape shape = broadcast_shape(value_shape(lhs), value_shape(rhs), range);
  ir::ValueId a = broadcast(to_runtime_as(lhs, dt, range), shape, range);
  ir::ValueId b = broadcast(to_runtime_as(rhs, dt, range), shape, range);
  ir::Op bin = make_op(ir::OpKind::Binary, {a, b});
  bin.binary = binary_kind(op);
  return make(Runtime{emit1(std::move(bin), {dt, shape})});
}

Value KernelLowering::compare(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range) {
  using ast::CompareOp;
  if (op == CompareOp::Is || op == CompareOp::IsNot) {
    std::optional<bool> same;
    if (lhs.is<NoneValue>() || rhs.is<NoneValue>()) same = lhs.is<NoneValue>() && rhs.is<NoneValue>();
    else if (static_eval_depth_ > 0) same = python_identity(lhs, rhs);  // `a is True` in static_assert
    // cuTile's words outside static_eval (test_constfold.py::test_is_or_not_op_on_none_constant).
    if (!same)
      error(ErrorKind::Type, range,
            static_eval_depth_ > 0
                ? "'is' and 'is not' are supported against None, True, False and dtypes"
                : fmt::format("Operator '{}' expects one of the operands to be None ('is' and 'is not' are only "
                              "supported against None, and inside ct.static_assert / ct.static_eval True, False "
                              "and dtypes)",
                              op == CompareOp::Is ? "is" : "is not"));
    return make(LooseBool{op == CompareOp::Is ? *same : !*same});
  }
  if (auto v = dict_compare(op, lhs, rhs, range)) return *v;
  // Compares pairs with `pair_op` and joins the answers with and (`all`) or or: pairs known at
  // compile time decide or drop out, run-time scalars are joined with & or | on the GPU.
  // `scalars_only`: `in` and `not in` stop at the first pair decided at compile time, as
  // Python's do, so an item after it (a tile) is never compared.
  auto join_pairs = [&](CompareOp pair_op, bool all, const std::vector<std::pair<Value, Value>>& pairs,
                        bool scalars_only = false) -> Value {
    std::optional<Value> joined;
    for (const auto& [x, y] : pairs) {
      if (scalars_only)
        for (const Value* side : {&x, &y})
          if (side->is<Runtime>() && !value_shape(*side).empty())
            error(ErrorKind::Type, range, fmt::format("'in' requires scalar operands, got {}", describe(*side)));
      Value answer = compare(pair_op, x, y, range);
      bool constant = false;
      bool v = truth(answer, range, &constant);
      if (constant) {
        if (v != all) return make(LooseBool{v});
        continue;
      }
      joined = joined ? binary(all ? ast::BinaryOp::BitAnd : ast::BinaryOp::BitOr, *joined, answer, range) : answer;
    }
    return joined ? *joined : make(LooseBool{all});
  };
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    auto* t = rhs.as<TupleValue>();
    if (!t) error(ErrorKind::Type, range, "'in' needs a tuple on its right");
    std::vector<std::pair<Value, Value>> pairs;
    for (const Value& v : t->items) pairs.emplace_back(lhs, v);
    if (op == CompareOp::In) return join_pairs(CompareOp::Eq, false, pairs, /*scalars_only=*/true);
    return join_pairs(CompareOp::NotEq, true, pairs, /*scalars_only=*/true);
  }
  auto fold = [&](int c) -> Value {  // c: <0, 0, >0
    switch (op) {
      case CompareOp::Lt: return make(LooseBool{c < 0});
      case CompareOp::Le: return make(LooseBool{c <= 0});
      case CompareOp::Gt: return make(LooseBool{c > 0});
      case CompareOp::Ge: return make(LooseBool{c >= 0});
      case CompareOp::Eq: return make(LooseBool{c == 0});
      case CompareOp::NotEq: return make(LooseBool{c != 0});
      default: return make(LooseBool{false});
    }
  };
  bool equality = op == CompareOp::Eq || op == CompareOp::NotEq;
  // Compile-time objects compare by identity of meaning.
  if (auto* a = lhs.as<DTypeValue>()) {
    auto* b = rhs.as<DTypeValue>();
    if (!equality) error(ErrorKind::Type, range, "dtypes only compare with == and !=");
    return fold(b && a->dtype == b->dtype ? 0 : 1);
  }
  if (auto v = compare_dataclasses(op, lhs, rhs, range)) return *v;
  if (lhs.is<EnumValue>() || rhs.is<EnumValue>()) return compare_enums(op, lhs, rhs, range);
  if (auto* a = lhs.as<StrValue>()) {
    auto* b = rhs.as<StrValue>();
    // Python orders strings by code point, which UTF-8's byte order keeps.
    if (b) return fold(a->value.compare(b->value) < 0 ? -1 : a->value == b->value ? 0 : 1);
    if (!equality)
      error(ErrorKind::Type, range, fmt::format("'{}' is not supported between a string and {}",
                                                ast::compare_op_token(op), describe(rhs)));
    return fold(1);
  }
  if (lhs.is<NoneValue>() || rhs.is<NoneValue>()) {
    if (!equality) error(ErrorKind::Type, range, "None only compares with == and !=");
    return fold(lhs.is<NoneValue>() && rhs.is<NoneValue>() ? 0 : 1);
  }
  if (auto* a = lhs.as<TupleValue>()) {
    auto* b = rhs.as<TupleValue>();
    if (!equality)
      error(ErrorKind::Type, range, fmt::format("Operator '{}' is not supported for tuples", ast::compare_op_token(op)));
    if (!b)
      error(ErrorKind::Type, range,
            fmt::format("Comparing a tuple with {} is not supported for tuples (only == and != against a tuple)",
                        describe(rhs)));
    // cuTile compares tuples of scalars (constant or run-time) item by item.
    for (const auto* items : {&a->items, &b->items})
      for (const Value& v : *items) {
        if (v.is<Runtime>() && !value_shape(v).empty())
          error(ErrorKind::Type, range,
                fmt::format("Tuple comparison is not supported for non-scalar elements, got {}", describe(v)));
        if (v.is<ArrayValue>() || v.is<ListValue>())
          error(ErrorKind::Type, range,
                fmt::format("Tuple comparison is not supported for elements of type {}", describe(v)));
      }
    if (a->items.size() != b->items.size()) return fold(1);
    std::vector<std::pair<Value, Value>> pairs;
    for (size_t i = 0; i < a->items.size(); ++i) pairs.emplace_back(a->items[i], b->items[i]);
    return op == CompareOp::Eq ? join_pairs(CompareOp::Eq, true, pairs) : join_pairs(CompareOp::NotEq, false, pairs);
  }
  if (lhs.is_loose() && rhs.is_loose()) {
    if (!lhs.is<LooseFloat>() && !rhs.is<LooseFloat>()) {
      __int128 a = 0, b = 0;
      loose_as_int(lhs, &a);
      loose_as_int(rhs, &b);
      return fold(a < b ? -1 : (a > b ? 1 : 0));
    }
    double a = loose_as_double(lhs), b = loose_as_double(rhs);
    if (std::isnan(a) || std::isnan(b)) return make(LooseBool{op == CompareOp::NotEq});
    return fold(a < b ? -1 : (a > b ? 1 : 0));
  }
  auto da = value_dtype(lhs), db = value_dtype(rhs);
  if (!da || !db)
    error(ErrorKind::Type, range, fmt::format("cannot compare {} with {}", describe(lhs), describe(rhs)));
  for (DType d : {*da, *db}) require_arithmetic(d, range, "comparison");
  auto dt = promote_for_binary(da, lhs.is_loose(), db, rhs.is_loose());
  if (!dt)
    error(ErrorKind::Type, range,
          fmt::format("Implicit promotion of {} and {} is not supported; use astype() to convert explicitly",
                      dtype_name(*da), dtype_name(*db)));
  ir::Shape shape = broadcast_shape(value_shape(lhs), value_shape(rhs), range);
  ir::ValueId a = broadcast(to_runtime_as(lhs, *dt, range), shape, range);
  ir::ValueId b = broadcast(to_runtime_as(rhs, *dt, range), shape, range);
  ir::Op cmp = make_op(ir::OpKind::Compare, {a, b});
  static const ir::CompareKind kinds[] = {ir::CompareKind::Lt, ir::CompareKind::Le, ir::CompareKind::Gt,
                                          ir::CompareKind::Ge, ir::CompareKind::Eq, ir::CompareKind::Ne};
  cmp.compare = kinds[static_cast<int>(op)];
  return make(Runtime{emit1(std::move(cmp), {DType::Bool, shape})});
}

Value KernelLowering::unary(ast::UnaryOp op, const Value& v, SourceRange range) {
  if (v.is_loose()) {
    switch (op) {
      case ast::UnaryOp::Pos: return v.is<LooseBool>() ? make(LooseInt{v.as<LooseBool>()->value}) : v;
      case ast::UnaryOp::Neg:
        if (auto* f = v.as<LooseFloat>()) return make(LooseFloat{-f->value});
        { __int128 i = 0; loose_as_int(v, &i); return make(LooseInt{-i}); }
      case ast::UnaryOp::Not: {
        bool constant = false;
        return make(LooseBool{!truth(v, range, &constant)});
      }
      case ast::UnaryOp::Invert:
        if (v.is<LooseBool>())
          error(ErrorKind::Type, range, "~ on a constant bool is not supported (Python's ~True is -2); use 'not'");
        if (v.is<LooseFloat>()) error(ErrorKind::Type, range, "~ requires an integer or bool operand");
        return make(LooseInt{~v.as<LooseInt>()->value});
    }
  }
  if (op == ast::UnaryOp::Not) {
    bool constant = false;
    if (!v.is<Runtime>()) return make(LooseBool{!truth(v, range, &constant)});
    ir::ValueId b = to_runtime_as(v, DType::Bool, range);
    ir::Op u = make_op(ir::OpKind::Unary, {b});
    u.unary = ir::UnaryKind::Not;
    return make(Runtime{emit1(std::move(u), type_of(b))});
  }
  auto dt = value_dtype(v);
  if (!dt || !v.is<Runtime>())
    error(ErrorKind::Type, range, fmt::format("bad operand for unary operator: {}", describe(v)));
  require_arithmetic(*dt, range, "a unary operator");
  ir::ValueId x = v.as<Runtime>()->id;
  switch (op) {
    case ast::UnaryOp::Pos: return v;
    case ast::UnaryOp::Neg: {
      if (*dt == DType::Bool) x = convert(x, DType::Int32);
      ir::Op u = make_op(ir::OpKind::Unary, {x});
      u.unary = ir::UnaryKind::Neg;
      return make(Runtime{emit1(std::move(u), type_of(x))});
    }
    case ast::UnaryOp::Invert: {
      if (is_float(*dt)) error(ErrorKind::Type, range, "~ requires an integer or bool operand, got a float tile");
      ir::Op u = make_op(ir::OpKind::Unary, {x});
      u.unary = *dt == DType::Bool ? ir::UnaryKind::Not : ir::UnaryKind::BitNot;
      return make(Runtime{emit1(std::move(u), type_of(x))});
    }
    default: break;
  }
  return v;
}

bool KernelLowering::truth(const Value& v, SourceRange range, bool* is_constant) {
  *is_constant = true;
  if (auto* b = v.as<LooseBool>()) return b->value;
  if (auto* i = v.as<LooseInt>()) return i->value != 0;
  if (auto* f = v.as<LooseFloat>()) return f->value != 0;
  if (v.is<NoneValue>()) return false;
  if (auto* s = v.as<StrValue>()) return !s->value.empty();
  if (auto* t = v.as<TupleValue>()) return !t->items.empty();
  if (auto* d = v.as<DictValue>()) return !d->keys.empty();
  if (auto* r = v.as<Runtime>()) {
    if (!type_of(r->id).is_scalar())
      error(ErrorKind::Type, range,
            fmt::format("a condition must be a scalar, got {}", describe(v)));
    *is_constant = false;
    return false;
  }
  return true;  // arrays, dtypes, functions, modules are truthy
}

// ---- conversions -------------------------------------------------------------------------

ir::Shape KernelLowering::broadcast_shape(const ir::Shape& a, const ir::Shape& b, SourceRange range) const {
  size_t rank = std::max(a.size(), b.size());
  ir::Shape shape(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      error(ErrorKind::Type, range,
            fmt::format("Shapes {} and {} are not broadcastable", ir::shape_string(a), ir::shape_string(b)));
    shape[i] = std::max(x, y);
  }
  return shape;
}

ir::ValueId KernelLowering::constant(const ir::Literal& lit, DType dtype, const ir::Shape& shape) {
  ir::Op op = make_op(ir::OpKind::Constant);
  op.literal = lit;
  ir::ValueId scalar = emit1(std::move(op), {dtype, {}});
  if (shape.empty()) return scalar;
  ir::Op full = make_op(ir::OpKind::Broadcast, {scalar});
  return emit1(std::move(full), {dtype, shape});
}

ir::ValueId KernelLowering::to_runtime(const Value& v, SourceRange range) {
  if (auto* r = v.as<Runtime>()) return r->id;
  return to_runtime_as(v, default_dtype(v, range), range);
}

// float8_e8m0fnu holds 2**-127 .. 2**127 and NaN, no sign: a constant rounds here, as cuTile
// folds it (to the nearer power of two, a significand of 1.5 up; zero and values below the range
// to 2**-127; past it, and infinities, to NaN), so the C++ constant is exact. A negative one
// (-0.0 too) is cuTile's TileValueError.
double KernelLowering::round_to_e8m0(double x, SourceRange range) const {
  if (std::signbit(x))
    error(ErrorKind::Value, range, "Negative values cannot be represented in an unsigned float format");
  constexpr int kMinExp = -127, kMaxExp = 127;
  if (x == 0.0) return std::ldexp(1.0, kMinExp);
  if (!std::isfinite(x)) return std::nan("");
  int e = 0;
  const double m = 2 * std::frexp(x, &e);  // x = m * 2**(e - 1), m in [1, 2)
  e -= 1;
  if (e < kMinExp) return std::ldexp(1.0, kMinExp);
  if (m >= 1.5) ++e;
  if (e > kMaxExp) return std::nan("");
  return std::ldexp(1.0, e);
}

ir::ValueId KernelLowering::to_runtime_as(const Value& v, DType dtype, SourceRange range) {
  if (auto* r = v.as<Runtime>()) return convert(r->id, dtype);
  // A restricted float (tfloat32, fp8) may hold a constant (ct.tfloat32(3.14), read by printf
  // and astype), though it takes no arithmetic.
  if (is_restricted(dtype) && (v.is<LooseInt>() || v.is<LooseFloat>() || v.is<LooseBool>())) {
    double x = v.is<LooseFloat>() ? v.as<LooseFloat>()->value
               : v.is<LooseInt>() ? static_cast<double>(v.as<LooseInt>()->value)
                                  : (v.as<LooseBool>()->value ? 1.0 : 0.0);
    if (dtype == DType::Float8E8M0FNU) x = round_to_e8m0(x, range);
    return constant(x, dtype);
  }
  if (auto* i = v.as<LooseInt>()) {
    if (is_float(dtype)) return constant(static_cast<double>(i->value), dtype);
    if (dtype == DType::Bool) return constant(i->value != 0, dtype);
    if (!integer_fits(dtype, i->value))
      error(ErrorKind::Value, range,
            fmt::format("Integer constant {} is out of range of {}", ast::int128_to_string(i->value),
                        dtype_name(dtype)));
    return constant(i->value, dtype);
  }
  if (auto* f = v.as<LooseFloat>()) {
    if (!is_float(dtype)) {
      if (dtype == DType::Bool) return constant(f->value != 0, dtype);
      error(ErrorKind::Type, range,
            fmt::format("cannot use float constant {} as {}", f->value, dtype_name(dtype)));
    }
    return constant(f->value, dtype);
  }
  if (auto* b = v.as<LooseBool>()) {
    if (dtype == DType::Bool) return constant(b->value, dtype);
    if (is_float(dtype)) return constant(b->value ? 1.0 : 0.0, dtype);
    return constant(static_cast<__int128>(b->value ? 1 : 0), dtype);
  }
  error(ErrorKind::Type, range, fmt::format("expected a number or a tile, got {}", describe(v)));
}

ir::ValueId KernelLowering::convert(ir::ValueId v, DType dtype) {
  const ir::TileType t = type_of(v);
  if (t.dtype == dtype) return v;
  ir::Op op = make_op(ir::OpKind::Convert, {v});
  ir::TileType result{dtype, t.shape};
  return emit1(std::move(op), result);
}

ir::ValueId KernelLowering::broadcast(ir::ValueId v, const ir::Shape& shape, SourceRange range) {
  if (type_of(v).shape == shape) return v;
  if (auto it = splats_.find(v); it != splats_.end() && type_of(v).shape.size() <= shape.size()) v = it->second;
  const ir::TileType t = type_of(v);
  if (t.shape.size() > shape.size())
    error(ErrorKind::Type, range,
          fmt::format("cannot broadcast shape {} to {}", ir::shape_string(t.shape), ir::shape_string(shape)));
  if (t.is_scalar()) {
    ir::Op b = make_op(ir::OpKind::Broadcast, {v});
    return emit1(std::move(b), {t.dtype, shape});
  }
  ir::Shape padded(shape.size() - t.shape.size(), 1);
  padded.insert(padded.end(), t.shape.begin(), t.shape.end());
  for (size_t i = 0; i < shape.size(); ++i)
    if (padded[i] != shape[i] && padded[i] != 1)
      error(ErrorKind::Type, range,
            fmt::format("cannot broadcast shape {} to {}", ir::shape_string(t.shape), ir::shape_string(shape)));
  if (padded != t.shape) {
    ir::Op r = make_op(ir::OpKind::Reshape, {v});
    v = emit1(std::move(r), {t.dtype, padded});
  }
  if (padded == shape) return v;
  ir::Op b = make_op(ir::OpKind::Broadcast, {v});
  return emit1(std::move(b), {t.dtype, shape});
}

}  // namespace tile2cu::sema
