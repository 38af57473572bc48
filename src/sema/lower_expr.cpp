// Expressions: names, attributes, operators with cuTile's promotion rules, calls.
#include <fmt/format.h>

#include <cmath>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

constexpr __int128 kLooseIntLimit = static_cast<__int128>(1) << 100;

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

// ---- names and attributes -----------------------------------------------------------------

Value KernelLowering::eval_name(const std::string& name, SourceRange range) {
  if (auto it = env_.find(name); it != env_.end()) {
    if (auto* p = it->second.as<PoisonValue>()) error(ErrorKind::Type, range, p->message);
    return it->second;
  }
  if (locals_.count(name))  // assigned somewhere in this function, so never the global
    error(ErrorKind::Syntax, range, fmt::format("Undefined variable {} used (it is assigned later in this function)", name));
  const ModuleScope* scope = current_scope_ ? current_scope_ : &scope_;
  if (auto it = scope->globals.find(name); it != scope->globals.end()) {
    if (it->second.error) {
      try {
        std::rethrow_exception(*it->second.error);
      } catch (const CompileError& inner) {
        error(inner.kind(), range,
              fmt::format("global '{}' is not a compile-time constant: {}", name, inner.message()));
      }
    }
    return it->second.value;
  }
  static const char* kBuiltins[] = {"range", "len", "min", "max", "abs", "int", "float", "bool",
                                    "print", "tuple", "divmod", "str", "repr", "getattr",
                                    "isinstance"};
  for (const char* b : kBuiltins)
    if (name == b) return make(BuiltinValue{name});
  error(ErrorKind::Syntax, range, fmt::format("Undefined variable {} used", name));
}

Value KernelLowering::attribute(const Value& base, const std::string& attr, SourceRange range) {
  if (auto* m = base.as<ModuleValue>()) {
    const std::string& path = m->path;
    if (path == "cuda" && attr == "tile") return make(ModuleValue{"cuda.tile"});
    if (path == "cuda.tile") {
      if (auto dt = parse_dtype(attr); dt && attr != "float" && attr != "half" && attr != "int" &&
                                       attr != "bool" && attr != "double" && attr != "long" &&
                                       attr != "short" && attr.size() > 3)
        return make(DTypeValue{*dt});
      if (attr == "bool_") return make(DTypeValue{DType::Bool});
      if (attr == "PaddingMode") return make(EnumClassValue{EnumKind::PaddingMode});
      if (attr == "RoundingMode") return make(EnumClassValue{EnumKind::RoundingMode});
      if (attr == "MemoryOrder") return make(EnumClassValue{EnumKind::MemoryOrder});
      if (attr == "MemoryScope") return make(EnumClassValue{EnumKind::MemoryScope});
      static const char* kRestricted[] = {"tfloat32", "float8_e4m3fn", "float8_e5m2",
                                          "float8_e8m0fnu", "float8_e5m3fnu", "float4_e2m1fn"};
      for (const char* r : kRestricted)
        if (attr == r)
          error(ErrorKind::UnsupportedFeature, range,
                fmt::format("dtype ct.{} is not supported yet by tile2cu", attr));
      return make(BuiltinValue{"ct." + attr});  // checked when called
    }
    if (path == "math") {
      if (attr == "pi") return make(LooseFloat{M_PI});
      if (attr == "e") return make(LooseFloat{M_E});
      if (attr == "tau") return make(LooseFloat{2 * M_PI});
      if (attr == "inf") return make(LooseFloat{INFINITY});
      if (attr == "nan") return make(LooseFloat{NAN});
      return make(BuiltinValue{"math." + attr});
    }
    if (path == "numpy" || path == "torch") {
      if (attr == "inf") return make(LooseFloat{INFINITY});
      if (attr == "nan") return make(LooseFloat{NAN});
      if (attr == "pi") return make(LooseFloat{M_PI});
      if (attr == "e") return make(LooseFloat{M_E});
      if (auto dt = parse_dtype(attr); dt && attr.size() > 3) return make(DTypeValue{*dt});
      if (attr == "bool" || attr == "bool_") return make(DTypeValue{DType::Bool});
      if (attr == "half") return make(DTypeValue{DType::Float16});
      if (attr == "float") return make(DTypeValue{DType::Float32});
      if (attr == "double") return make(DTypeValue{DType::Float64});
      error(ErrorKind::Type, range, fmt::format("Module '{}' has no attribute '{}' usable in tile code", path, attr));
    }
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("module '{}' is not supported in tile code yet (only cuda.tile, math, numpy "
                      "and torch dtypes are)", path));
  }
  if (auto* e = base.as<EnumClassValue>()) {
    static const std::vector<std::vector<std::string>> kMembers = {
        {"UNDETERMINED", "ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF"},
        {"RN", "RZ", "RM", "RP", "RA", "FULL", "APPROX", "RZI"},
        {"WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"},
        {"NONE", "BLOCK", "CLUSTER", "DEVICE", "SYS"}};
    const auto& members = kMembers[static_cast<int>(e->kind)];
    for (size_t i = 0; i < members.size(); ++i)
      if (members[i] == attr) return make(EnumValue{e->kind, static_cast<int>(i), attr});
    error(ErrorKind::Type, range, fmt::format("enum has no member '{}'", attr));
  }
  if (auto* a = base.as<ArrayValue>()) {
    const ir::ArrayParam& p = fn_.arrays[a->param];
    if (attr == "dtype") return make(DTypeValue{p.dtype});
    if (attr == "ndim") return make(LooseInt{p.rank});
    if (attr == "shape" || attr == "strides") {
      bool shape = attr == "shape";
      std::vector<Value> items;
      for (int d = 0; d < p.rank; ++d) {
        if (shape && p.static_dims[d]) {
          items.push_back(make(LooseInt{*p.static_dims[d]}));
          continue;
        }
        ir::Op op = make_op(shape ? ir::OpKind::ArrayDim : ir::OpKind::ArrayStride);
        op.param = a->param;
        op.dim = d;
        items.push_back(make(Runtime{emit1(std::move(op), {DType::Int32, {}})}));
      }
      return make(TupleValue{std::move(items)});
    }
    if (attr == "slice" || attr == "tiled_view" || attr == "get_raw_memory")
      error(ErrorKind::UnsupportedFeature, range,
            fmt::format("Array.{} is not supported yet by tile2cu", attr));
    error(ErrorKind::Type, range, fmt::format("Array has no attribute '{}'", attr));
  }
  if (base.is<Runtime>() || base.is_loose()) {
    if (attr == "dtype") {
      if (auto dt = value_dtype(base); dt && base.is<Runtime>()) return make(DTypeValue{*dt});
      error(ErrorKind::Type, range, "a Python constant has no dtype until it meets a tile");
    }
    if (attr == "shape" || attr == "ndim") {
      ir::Shape s = value_shape(base);
      if (attr == "ndim") return make(LooseInt{static_cast<__int128>(s.size())});
      std::vector<Value> items;
      for (int64_t d : s) items.push_back(make(LooseInt{d}));
      return make(TupleValue{std::move(items)});
    }
    static const char* kMethods[] = {"astype", "reshape", "item", "permute", "transpose",
                                     "extract", "insert"};
    for (const char* m : kMethods)
      if (attr == m) return make(MethodValue{std::make_shared<const Value>(base), attr});
    error(ErrorKind::Type, range, fmt::format("{} has no attribute '{}'", describe(base), attr));
  }
  if (auto* d = base.as<DTypeValue>()) {
    if (attr == "name") return make(StrValue{dtype_name(d->dtype)});
  }
  if (auto* e = base.as<EnumValue>()) {
    if (attr == "name") return make(StrValue{e->name});
    if (attr == "value") return make(LooseInt{e->value});
  }
  error(ErrorKind::Type, range, fmt::format("{} has no attribute '{}'", describe(base), attr));
}

// ---- descriptions for messages ---------------------------------------------------------

std::string KernelLowering::describe(const Value& v) const {
  if (auto* r = v.as<Runtime>()) {
    const ir::TileType& t = type_of(r->id);
    if (t.is_scalar()) return fmt::format("{} scalar", dtype_name(t.dtype));
    return fmt::format("Tile[{},{}]", dtype_name(t.dtype), ir::shape_string(t.shape));
  }
  if (auto* i = v.as<LooseInt>()) return fmt::format("int constant {}", static_cast<long long>(i->value));
  if (auto* f = v.as<LooseFloat>()) return fmt::format("float constant {}", f->value);
  if (v.is<LooseBool>()) return "bool constant";
  if (v.is<NoneValue>()) return "None";
  if (v.is<StrValue>()) return "str";
  if (auto* a = v.as<ArrayValue>()) {
    const ir::ArrayParam& p = fn_.arrays[a->param];
    return fmt::format("Array[{},{}-d]", dtype_name(p.dtype), p.rank);
  }
  if (v.is<TupleValue>()) return "tuple";
  if (auto* d = v.as<DTypeValue>()) return fmt::format("dtype {}", dtype_name(d->dtype));
  if (v.is<EnumValue>()) return "enum value";
  if (v.is<EnumClassValue>()) return "enum class";
  if (auto* m = v.as<ModuleValue>()) return fmt::format("module '{}'", m->path);
  if (auto* f = v.as<FunctionValue>()) return fmt::format("function {}", f->def->name);
  if (auto* b = v.as<BuiltinValue>()) return fmt::format("function {}", b->name);
  if (auto* m = v.as<MethodValue>()) return fmt::format("method {}", m->name);
  return "value";
}

std::optional<DType> KernelLowering::value_dtype(const Value& v) const {
  if (auto* r = v.as<Runtime>()) return type_of(r->id).dtype;
  if (v.is<LooseInt>()) return DType::Int32;   // category stand-ins for promotion
  if (v.is<LooseFloat>()) return DType::Float32;
  if (v.is<LooseBool>()) return DType::Bool;
  return std::nullopt;
}

ir::Shape KernelLowering::value_shape(const Value& v) const {
  if (auto* r = v.as<Runtime>()) return type_of(r->id).shape;
  return {};
}

DType KernelLowering::default_dtype(const Value& v, SourceRange range) const {
  if (auto* i = v.as<LooseInt>()) {
    if (integer_fits(DType::Int32, i->value)) return DType::Int32;
    if (integer_fits(DType::Int64, i->value)) return DType::Int64;
    if (integer_fits(DType::UInt64, i->value)) return DType::UInt64;
    error(ErrorKind::Value, range, "Integer constant is out of range of every integer dtype");
  }
  if (v.is<LooseFloat>()) return DType::Float32;
  if (v.is<LooseBool>()) return DType::Bool;
  if (auto* r = v.as<Runtime>()) return type_of(r->id).dtype;
  error(ErrorKind::Type, range, fmt::format("expected a number or a tile, got {}", describe(v)));
}

// ---- expressions ---------------------------------------------------------------------------

Value KernelLowering::eval(const ast::ExprPtr& e) {
  const SourceRange r = e->range;
  return std::visit(
      [&](const auto& node) -> Value {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          return eval_name(node.id, r);
        } else if constexpr (std::is_same_v<T, ast::IntLit>) {
          return make(LooseInt{node.value});
        } else if constexpr (std::is_same_v<T, ast::FloatLit>) {
          return make(LooseFloat{node.value});
        } else if constexpr (std::is_same_v<T, ast::BoolLit>) {
          return make(LooseBool{node.value});
        } else if constexpr (std::is_same_v<T, ast::NoneLit>) {
          return make(NoneValue{});
        } else if constexpr (std::is_same_v<T, ast::StrLit>) {
          return make(StrValue{node.value});
        } else if constexpr (std::is_same_v<T, ast::Attribute>) {
          return attribute(eval(node.value), node.attr, r);
        } else if constexpr (std::is_same_v<T, ast::Subscript>) {
          return subscript(eval(node.value), node.index, r);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          Value callee = eval(node.func);
          CallArgs args;
          for (const auto& a : node.args) {
            if (auto* star = a->template as<ast::Starred>()) {
              Value t = eval(star->value);
              auto* tuple = t.template as<TupleValue>();
              if (!tuple) error(ErrorKind::Type, a->range, "only a tuple can be unpacked with *");
              for (const auto& item : tuple->items) {
                args.positional.push_back(item);
                args.positional_ranges.push_back(a->range);
              }
              continue;
            }
            args.positional.push_back(eval(a));
            args.positional_ranges.push_back(a->range);
          }
          for (const auto& kw : node.keywords) {
            if (kw.name.empty())
              unsupported(kw.range, "**kwargs at a call site");
            args.keywords.emplace_back(kw.name, eval(kw.value));
            args.keyword_ranges.push_back(kw.range);
          }
          return call(callee, std::move(args), r);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          Value lhs = eval(node.lhs);
          Value rhs = eval(node.rhs);
          return binary(node.op, lhs, rhs, r);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          return unary(node.op, eval(node.operand), r);
        } else if constexpr (std::is_same_v<T, ast::BoolChain>) {
          // and/or short-circuit on constants; on runtime scalars both sides are computed
          // and combined, as tile code has no side effects worth skipping here.
          bool is_and = node.op == ast::BoolOp::And;
          std::optional<ir::ValueId> acc;
          for (const auto& item : node.values) {
            Value v = eval(item);
            bool constant = false;
            bool t = truth(v, item->range, &constant);
            if (constant) {
              if (t != is_and) return acc ? make(LooseBool{!is_and}) : v;  // decided
              if (!acc && &item == &node.values.back()) return v;
              continue;
            }
            ir::ValueId b = to_runtime_as(v, DType::Bool, item->range);
            if (!acc) {
              acc = b;
            } else {
              ir::Op op = make_op(ir::OpKind::Binary, {*acc, b});
              op.binary = is_and ? ir::BinaryKind::BitAnd : ir::BinaryKind::BitOr;
              acc = emit1(std::move(op), {DType::Bool, {}});
            }
          }
          if (!acc) return make(LooseBool{is_and});
          return make(Runtime{*acc});
        } else if constexpr (std::is_same_v<T, ast::Compare>) {
          Value left = eval(node.left);
          std::optional<Value> result;
          for (size_t i = 0; i < node.ops.size(); ++i) {
            Value right = eval(node.rights[i]);
            Value c = compare(node.ops[i], left, right, r);
            if (!result) {
              result = c;
            } else {
              bool k1 = false, k2 = false;
              bool t1 = truth(*result, r, &k1);
              bool t2 = truth(c, r, &k2);
              if (k1 && !t1) return *result;
              if (k1 && k2) result = make(LooseBool{t1 && t2});
              else if (k1) result = c;
              else if (!(k2 && t2)) {
                ir::Op op = make_op(ir::OpKind::Binary, {to_runtime_as(*result, DType::Bool, r),
                                                         to_runtime_as(c, DType::Bool, r)});
                op.binary = ir::BinaryKind::BitAnd;
                ir::TileType t = type_of(op.operands[0]);
                result = make(Runtime{emit1(std::move(op), t)});
              }
            }
            left = right;
          }
          return *result;
        } else if constexpr (std::is_same_v<T, ast::IfExp>) {
          Value cond = eval(node.cond);
          bool constant = false;
          bool t = truth(cond, node.cond->range, &constant);
          if (constant) return eval(t ? node.then_value : node.else_value);
          Value a = eval(node.then_value);
          Value b = eval(node.else_value);
          CallArgs args;
          args.positional = {cond, a, b};
          args.positional_ranges = {node.cond->range, node.then_value->range, node.else_value->range};
          return builtin_call("ct.where", args, r);
        } else if constexpr (std::is_same_v<T, ast::TupleExpr>) {
          std::vector<Value> items;
          for (const auto& item : node.elts) items.push_back(eval(item));
          return make(TupleValue{std::move(items)});
        } else if constexpr (std::is_same_v<T, ast::ListExpr>) {
          error(ErrorKind::Syntax, r, "list displays are not supported in tile code; use a tuple");
        } else if constexpr (std::is_same_v<T, ast::Starred>) {
          error(ErrorKind::Syntax, r, "a starred expression is only allowed in a call's arguments");
        } else if constexpr (std::is_same_v<T, ast::Slice> || std::is_same_v<T, ast::EllipsisLit>) {
          error(ErrorKind::Syntax, r, "a slice is only allowed inside a subscript");
        } else {
          unsupported(r, node.what);
        }
      },
      e->kind);
}

// ---- operators -----------------------------------------------------------------------------

Value KernelLowering::binary(ast::BinaryOp op, const Value& lhs, const Value& rhs, SourceRange range) {
  const char* token = ast::binary_op_token(op);
  if (op == ast::BinaryOp::MatMul)
    error(ErrorKind::UnsupportedFeature, range, "matrix multiply (@ / ct.matmul) is not supported yet by tile2cu");
  if (auto* a = lhs.as<TupleValue>()) {
    if (auto* b = rhs.as<TupleValue>(); b && op == ast::BinaryOp::Add) {
      std::vector<Value> items = a->items;
      items.insert(items.end(), b->items.begin(), b->items.end());
      return make(TupleValue{std::move(items)});
    }
  }
  if (lhs.is_loose() && rhs.is_loose()) {
    bool both_int = !lhs.is<LooseFloat>() && !rhs.is<LooseFloat>();
    if (both_int) {
      __int128 a = 0, b = 0;
      loose_as_int(lhs, &a);
      loose_as_int(rhs, &b);
      auto checked = [&](__int128 v) {
        if (v > kLooseIntLimit || v < -kLooseIntLimit)
          error(ErrorKind::Value, range, "integer constant too large");
        return make(LooseInt{v});
      };
      bool bitwise_bool = lhs.is<LooseBool>() && rhs.is<LooseBool>();
      switch (op) {
        case ast::BinaryOp::Add: return checked(a + b);
        case ast::BinaryOp::Sub: return checked(a - b);
        case ast::BinaryOp::Mul:
          if (a != 0 && (b > kLooseIntLimit / (a < 0 ? -a : a) || b < -kLooseIntLimit / (a < 0 ? -a : a)))
            error(ErrorKind::Value, range, "integer constant too large");
          return checked(a * b);
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
          __int128 v = 1;
          for (__int128 i = 0; i < b; ++i) {
            v *= a;
            if (v > kLooseIntLimit || v < -kLooseIntLimit)
              error(ErrorKind::Value, range, "integer constant too large");
          }
          return make(LooseInt{v});
        }
        case ast::BinaryOp::BitAnd: return bitwise_bool ? make(LooseBool{(a & b) != 0}) : make(LooseInt{a & b});
        case ast::BinaryOp::BitOr: return bitwise_bool ? make(LooseBool{(a | b) != 0}) : make(LooseInt{a | b});
        case ast::BinaryOp::BitXor: return bitwise_bool ? make(LooseBool{(a ^ b) != 0}) : make(LooseInt{a ^ b});
        case ast::BinaryOp::LShift:
          if (b < 0) error(ErrorKind::Value, range, "negative shift count");
          if (b > 100) error(ErrorKind::Value, range, "integer constant too large");
          return checked(a << static_cast<int>(b));
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
    error(ErrorKind::Type, range, fmt::format("unsupported operand types for {}: {} and {}", token,
                                              describe(lhs), describe(rhs)));
  bool is_bitwise = op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr || op == ast::BinaryOp::BitXor;
  bool is_shift = op == ast::BinaryOp::LShift || op == ast::BinaryOp::RShift;
  if (is_bitwise || is_shift) {
    for (const Value* v : {&lhs, &rhs}) {
      auto dt = value_dtype(*v);
      if (is_float(*dt) && is_shift)
        error(ErrorKind::Type, range, fmt::format("Bitwise shift requires integer operands, got {}", describe(*v)));
      if (is_float(*dt))
        error(ErrorKind::Type, range,
              fmt::format("Bitwise operations require integers or booleans, got {}; use an explicit bitcast",
                          describe(*v)));
      if (is_shift && *dt == DType::Bool && !v->is_loose())
        error(ErrorKind::Type, range, "Bitwise shift requires an integer, got bool");
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
          fmt::format("Binary arithmetic op `{}` does not support bool, please cast bool to int", token));
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
    if (!lhs.is<NoneValue>() && !rhs.is<NoneValue>())
      error(ErrorKind::Type, range, "'is' and 'is not' are only supported against None");
    bool same = lhs.is<NoneValue>() && rhs.is<NoneValue>();
    return make(LooseBool{op == CompareOp::Is ? same : !same});
  }
  if (op == CompareOp::In || op == CompareOp::NotIn) {
    auto* t = rhs.as<TupleValue>();
    if (!t) error(ErrorKind::Type, range, "'in' needs a tuple on its right");
    bool found = false;
    for (const auto& item : t->items) {
      Value eq = compare(CompareOp::Eq, lhs, item, range);
      bool constant = false;
      bool v = truth(eq, range, &constant);
      if (!constant) error(ErrorKind::Type, range, "'in' needs compile-time constant values");
      found |= v;
    }
    return make(LooseBool{op == CompareOp::In ? found : !found});
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
  if (auto* a = lhs.as<EnumValue>()) {
    auto* b = rhs.as<EnumValue>();
    if (!equality) error(ErrorKind::Type, range, "enum values only compare with == and !=");
    return fold(b && a->kind == b->kind && a->value == b->value ? 0 : 1);
  }
  if (auto* a = lhs.as<StrValue>()) {
    auto* b = rhs.as<StrValue>();
    if (!equality) error(ErrorKind::Type, range, "strings only compare with == and !=");
    return fold(b && a->value == b->value ? 0 : 1);
  }
  if (lhs.is<NoneValue>() || rhs.is<NoneValue>()) {
    if (!equality) error(ErrorKind::Type, range, "None only compares with == and !=");
    return fold(lhs.is<NoneValue>() && rhs.is<NoneValue>() ? 0 : 1);
  }
  if (auto* a = lhs.as<TupleValue>()) {
    auto* b = rhs.as<TupleValue>();
    if (!equality || !b) error(ErrorKind::Type, range, "tuples only compare with == and != against tuples");
    if (a->items.size() != b->items.size()) return fold(1);
    for (size_t i = 0; i < a->items.size(); ++i) {
      bool constant = false;
      bool same = truth(compare(CompareOp::Eq, a->items[i], b->items[i], range), range, &constant);
      if (!constant) error(ErrorKind::Type, range, "tuple comparison needs compile-time constant elements");
      if (!same) return fold(1);
    }
    return fold(0);
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

ir::ValueId KernelLowering::to_runtime_as(const Value& v, DType dtype, SourceRange range) {
  if (auto* r = v.as<Runtime>()) return convert(r->id, dtype);
  if (auto* i = v.as<LooseInt>()) {
    if (is_float(dtype)) return constant(static_cast<double>(i->value), dtype);
    if (dtype == DType::Bool) return constant(i->value != 0, dtype);
    if (!integer_fits(dtype, i->value))
      error(ErrorKind::Value, range,
            fmt::format("Integer constant {} is out of range of {}", static_cast<long long>(i->value),
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
  const ir::TileType& t = type_of(v);
  if (t.dtype == dtype) return v;
  ir::Op op = make_op(ir::OpKind::Convert, {v});
  ir::TileType result{dtype, t.shape};
  return emit1(std::move(op), result);
}

ir::ValueId KernelLowering::broadcast(ir::ValueId v, const ir::Shape& shape, SourceRange range) {
  const ir::TileType t = type_of(v);
  if (t.shape == shape) return v;
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

// ---- subscripts and calls ------------------------------------------------------------------

Value KernelLowering::subscript(const Value& base, const ast::ExprPtr& index, SourceRange range) {
  if (auto* b = base.as<BuiltinValue>(); b && b->name == "ct.Constant")
    return make(BuiltinValue{"ct.Constant"});  // ct.Constant[int] is still the marker
  if (auto* t = base.as<TupleValue>()) {
    if (auto* s = index->as<ast::Slice>()) {
      auto bound = [&](const ast::ExprPtr& e, int64_t dflt) -> int64_t {
        return e ? const_int(eval(e), e->range, "a tuple slice bound") : dflt;
      };
      int64_t n = static_cast<int64_t>(t->items.size());
      int64_t step = bound(s->step, 1);
      if (step == 0) error(ErrorKind::Value, range, "slice step cannot be zero");
      int64_t lo = bound(s->lower, step > 0 ? 0 : n - 1), hi = bound(s->upper, step > 0 ? n : -n - 1);
      auto clamp = [&](int64_t i, bool upper) {
        if (i < 0) i += n;
        int64_t min = step > 0 ? 0 : -1, max = step > 0 ? n : n - 1;
        (void)upper;
        return std::clamp(i, min, max);
      };
      lo = clamp(lo, false);
      hi = clamp(hi, true);
      std::vector<Value> items;
      for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) items.push_back(t->items[i]);
      return make(TupleValue{std::move(items)});
    }
    Value iv = eval(index);
    int64_t i = const_int(iv, index->range, "a tuple index");
    int64_t n = static_cast<int64_t>(t->items.size());
    if (i < -n || i >= n)
      error(ErrorKind::Type, index->range, fmt::format("tuple index {} out of range for length {}", i, n));
    return t->items[i < 0 ? i + n : i];
  }
  if (base.is<ArrayValue>())
    error(ErrorKind::Type, range, "Arrays are not directly subscriptable. Use load() or gather() instead.");
  if (auto* r = base.as<Runtime>()) {
    // Only new axes: t[None, :], t[:, None], t[..., None].
    std::vector<ast::ExprPtr> entries;
    if (auto* tup = index->as<ast::TupleExpr>()) entries = tup->elts;
    else entries.push_back(index);
    const ir::TileType& t = type_of(r->id);
    size_t real_axes = 0;
    bool ellipsis = false;
    for (const auto& e : entries) {
      if (e->as<ast::NoneLit>()) continue;
      if (e->as<ast::EllipsisLit>()) {
        if (ellipsis) error(ErrorKind::Type, e->range, "a tile subscript can have only one '...'");
        ellipsis = true;
        continue;
      }
      auto* s = e->as<ast::Slice>();
      if (!s || s->lower || s->upper || s->step)
        error(ErrorKind::Type, e->range,
              "Directly indexing a tile is not supported; use `extract()` or `item()` instead.");
      ++real_axes;
    }
    if (real_axes > t.shape.size() || (!ellipsis && real_axes != t.shape.size() && real_axes != 0))
      error(ErrorKind::Type, range,
            fmt::format("too many or too few ':' entries for a tile of rank {}", t.shape.size()));
    ir::Shape shape;
    size_t axis = 0;
    size_t fill = t.shape.size() - real_axes;
    bool filled = false;
    for (const auto& e : entries) {
      if (e->as<ast::NoneLit>()) shape.push_back(1);
      else if (e->as<ast::EllipsisLit>()) {
        if (!filled) for (size_t k = 0; k < fill; ++k) shape.push_back(t.shape[axis++]);
        filled = true;
      } else shape.push_back(t.shape[axis++]);
    }
    while (axis < t.shape.size()) shape.push_back(t.shape[axis++]);
    if (shape == t.shape) return base;
    ir::Op op = make_op(ir::OpKind::Reshape, {r->id});
    return make(Runtime{emit1(std::move(op), {t.dtype, shape})});
  }
  error(ErrorKind::Type, range, fmt::format("{} is not subscriptable", describe(base)));
}

Value KernelLowering::call(const Value& callee, CallArgs args, SourceRange range) {
  if (auto* b = callee.as<BuiltinValue>()) return builtin_call(b->name, args, range);
  if (auto* f = callee.as<FunctionValue>()) return call_function(*f, std::move(args), range);
  if (auto* m = callee.as<MethodValue>()) return method_call(*m->self, m->name, args, range);
  if (auto* d = callee.as<DTypeValue>()) {
    // ct.float16(0.5): a strictly typed constant, or a cast of a runtime scalar.
    if (args.positional.size() != 1 || !args.keywords.empty())
      error(ErrorKind::Type, range, fmt::format("{}() takes exactly one argument", dtype_name(d->dtype)));
    const Value& v = args.positional[0];
    if (auto* r = v.as<Runtime>()) {
      if (!type_of(r->id).is_scalar())
        error(ErrorKind::Type, range, "a dtype constructor casts a scalar; use astype() for tiles");
      return make(Runtime{convert(r->id, d->dtype)});
    }
    if (auto* i = v.as<LooseInt>(); i && is_integer(d->dtype)) {
      // Out-of-range values wrap, as a strictly typed constant does.
      int bits = dtype_bits(d->dtype);
      unsigned __int128 mask = bits >= 128 ? ~static_cast<unsigned __int128>(0)
                                           : ((static_cast<unsigned __int128>(1) << bits) - 1);
      unsigned __int128 u = static_cast<unsigned __int128>(i->value) & mask;
      __int128 wrapped = static_cast<__int128>(u);
      if (is_signed_integer(d->dtype) && (u >> (bits - 1)) & 1) wrapped -= static_cast<__int128>(1) << bits;
      return make(Runtime{constant(wrapped, d->dtype)});
    }
    if (v.is_loose()) {
      if (is_integer(d->dtype) && v.is<LooseFloat>())
        return make(Runtime{constant(static_cast<__int128>(std::trunc(v.as<LooseFloat>()->value)), d->dtype)});
      return make(Runtime{to_runtime_as(v, d->dtype, range)});
    }
    error(ErrorKind::Type, range, fmt::format("cannot convert {} to {}", describe(v), dtype_name(d->dtype)));
  }
  error(ErrorKind::Type, range, fmt::format("{} is not callable", describe(callee)));
}

}  // namespace tile2cu::sema
