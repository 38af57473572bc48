// Expressions: names, attributes, subscripts and calls; operators live in lower_operators.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sema/lowering.hpp"
#include "sema/python_builtins.hpp"
#include "sema/python_numbers.hpp"

namespace tile2cu::sema {

// ---- names and attributes -----------------------------------------------------------------

Value KernelLowering::eval_name(const std::string& name, SourceRange range) {
  if (auto it = env_.find(name); it != env_.end()) {
    if (auto* p = it->second.as<PoisonValue>()) error(p->kind, range, p->message);
    if (!loop_watches_.empty()) note_name_read(name, it->second, range);
    return it->second;
  }
  if (locals_.count(name))  // assigned somewhere in this function, so never the global
    error(ErrorKind::Syntax, range, fmt::format("Undefined variable {} used (it is assigned later in this function)", name));
  const ModuleScope* scope = current_scope_ ? current_scope_ : &scope_;
  if (auto it = scope->globals.find(name); it != scope->globals.end()) return global_value(it->second, name, range);
  static const char* kBuiltins[] = {"range", "len", "min", "max", "abs", "int", "float", "bool",
                                    "print", "tuple", "divmod", "str", "repr", "getattr",
                                    "isinstance", "enumerate", "zip", "reversed"};
  for (const char* b : kBuiltins)
    if (name == b) return make(BuiltinValue{name});
  // Refused when called, with cuTile's message for builtins.
  if (unsupported_python_builtin(name) != PythonBuiltin::None) return make(BuiltinValue{name});
  error(ErrorKind::Syntax, range, fmt::format("Undefined variable {} used", name));
}

// A module-level name's value, or the error its evaluation ran into, reported where it is read.
Value KernelLowering::global_value(const Global& global, const std::string& name, SourceRange range) {
  if (global.error) {
    try {
      std::rethrow_exception(*global.error);
    } catch (const CompileError& inner) {
      // A global that failed because another one did names the first cause, once.
      const std::string& cause = inner.message();
      error(inner.kind(), range,
            cause.starts_with("global '") || cause.starts_with("cannot import")
                ? cause
                : fmt::format("global '{}' is not a compile-time constant: {}", name, cause));
    }
  }
  if (global.typed_as) {
    CallArgs args;
    args.positional.push_back(global.value);
    args.positional_ranges.push_back(range);
    return call(make(DTypeValue{*global.typed_as}), std::move(args), range);
  }
  return global.value;
}

// cuTile's private modules whose names public code imports (`from cuda.tile._numeric_semantics
// import RoundingMode as RMd`, as cuTile's own tests do): these names are plain aliases of
// cuda.tile's.
static bool is_cutile_private_alias(const std::string& module, const std::string& attr) {
  if (module == "cuda.tile._numeric_semantics") return attr == "PaddingMode" || attr == "RoundingMode";
  if (module == "cuda.tile._memory_model") return attr == "MemoryOrder" || attr == "MemoryScope";
  return false;
}

// `ct.float4_e2m1fn(...)`: the dtype tile2cu lacks is named by the call, before it is evaluated.
bool KernelLowering::calls_sub_byte_dtype(const ast::Call& call) {
  const auto* a = call.func->as<ast::Attribute>();
  if (!a || a->attr != "float4_e2m1fn") return false;
  if (!a->value->as<ast::Name>() && !a->value->as<ast::Attribute>()) return false;  // `ct`, `cuda.tile`: no side effects
  const Value base = eval(a->value);
  const auto* m = base.as<ModuleValue>();
  return m && m->path == "cuda.tile";
}

Value KernelLowering::attribute(const Value& base, const std::string& attr, SourceRange range) {
  if (auto* m = base.as<ModuleValue>()) {
    const std::string& path = m->path;
    if (is_cutile_private_alias(path, attr)) return attribute(make(ModuleValue{"cuda.tile"}), attr, range);
    const ModuleScope* importer = current_scope_ ? current_scope_ : &scope_;
    if (auto it = importer->dotted_imports.find(path + "." + attr); it != importer->dotted_imports.end())
      return make(ModuleValue{path + "." + attr, it->second});  // `import pkg.mod`, then pkg.mod
    if (m->user) {  // a module of the user's: its globals (helpers, constants, classes)
      if (auto it = m->user->globals.find(attr); it != m->user->globals.end()) return global_value(it->second, attr, range);
      error(ErrorKind::Type, range, fmt::format("module '{}' ({}) has no attribute '{}'", path,
                                                m->user->module->file->path(), attr));
    }
    if (path == "cuda" && attr == "tile") return make(ModuleValue{"cuda.tile"});
    if (path == "cuda.tile") {
      if (auto dt = parse_dtype(attr); dt && attr != "float" && attr != "half" && attr != "int" &&
                                       attr != "bool" && attr != "double" && attr != "long" &&
                                       attr != "short" && attr.size() > 3)
        return make(DTypeValue{*dt});
      if (attr == "bool_") return make(DTypeValue{DType::Bool});
      if (attr == "PaddingMode") return make(EnumClassValue{builtin_enum(EnumKind::PaddingMode)});
      if (attr == "RoundingMode") return make(EnumClassValue{builtin_enum(EnumKind::RoundingMode)});
      if (attr == "MemoryOrder") return make(EnumClassValue{builtin_enum(EnumKind::MemoryOrder)});
      if (attr == "MemoryScope") return make(EnumClassValue{builtin_enum(EnumKind::MemoryScope)});
      static const char* kRestricted[] = {"float8_e5m3fnu", "float4_e2m1fn"};  // the dtypes tile2cu lacks
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
      if (attr == "newaxis" && path == "numpy") return make(NoneValue{});  // tile[:, np.newaxis] is tile[:, None]
      if (attr == "pi") return make(LooseFloat{M_PI});
      if (attr == "e") return make(LooseFloat{M_E});
      if (auto dt = parse_dtype(attr); dt && attr.size() > 3) return make(DTypeValue{*dt});
      if (attr == "bool" || attr == "bool_") return make(DTypeValue{DType::Bool});
      if (attr == "half") return make(DTypeValue{DType::Float16});
      if (attr == "float") return make(DTypeValue{DType::Float32});
      if (attr == "double") return make(DTypeValue{DType::Float64});
      error(ErrorKind::Type, range, fmt::format("Module '{}' has no attribute '{}' usable in tile code", path, attr));
    }
    if (path == "operator") return make(BuiltinValue{"operator." + attr});  // checked when called
    if (path == "contextlib" && attr == "contextmanager") return make(BuiltinValue{"contextlib.contextmanager"});
    if (path == "functools" && attr == "wraps") return make(BuiltinValue{"functools.wraps"});
    // What class statements and tile code use of these: enum.Enum / IntEnum / auto as bases
    // and member values, dataclasses.dataclass / field / KW_ONLY in class bodies,
    // dataclasses.replace in tile code. Anything else is refused where it is used.
    if (path == "enum" || path == "dataclasses") return make(BuiltinValue{path + "." + attr});
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("module '{}' is not supported in tile code yet (only cuda.tile, math, operator, "
                      "numpy and torch dtypes are, and modules of yours found next to the kernel file "
                      "as {}.py)", path, path.substr(0, path.find('.'))));
  }
  if (auto* e = base.as<EnumClassValue>()) return enum_class_attribute(*e, attr, range);
  if (base.is<DictValue>()) return dict_attribute(base, attr, range);
  if (auto v = enum_member_attribute(base, attr, range)) return *v;
  if (auto* c = base.as<ClassValue>()) return class_attribute(*c, attr, range);
  if (base.is<DataclassValue>()) return dataclass_attribute(base, attr, range);
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
        if (!shape && !p.static_strides.empty() && p.static_strides[d]) {  // strides(...) in the signature
          items.push_back(make(LooseInt{*p.static_strides[d]}));
          continue;
        }
        ir::OpKind kind = shape ? ir::OpKind::ArrayDim : ir::OpKind::ArrayStride;
        if (static_eval_depth_ > 0) {
          // ct.static_eval(x.strides[0]) with only stride 0 static: a run-time item is an
          // error only where it is picked (subscript) or returned (static_eval).
          items.push_back(make(PoisonValue{
              fmt::format("ct.{}() is evaluated at compile time and cannot contain the tile operation '{}': "
                          "only constants, tuples and arithmetic on values already computed are allowed",
                          static_eval_what_, ir::op_kind_name(kind)),
              ErrorKind::StaticEval}));
          continue;
        }
        ir::Op op = make_op(kind);
        op.param = a->param;
        op.dim = d;
        items.push_back(make(Runtime{emit1(std::move(op), {DType::Int32, {}})}));
      }
      return make(TupleValue{std::move(items)});
    }
    if (attr == "slice" || attr == "get_raw_memory") return make(MethodValue{std::make_shared<const Value>(base), attr});
    if (attr == "tiled_view") return make(MethodValue{std::make_shared<const Value>(base), attr});
    error(ErrorKind::Type, range, fmt::format("Array has no attribute '{}'", attr));
  }
  if (auto* m = base.as<RawMemoryValue>()) return raw_memory_attribute(*m, attr, range);
  if (base.is<TiledViewValue>()) return tiled_view_attribute(base, attr, range);
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
  error(ErrorKind::Type, range, fmt::format("{} has no attribute '{}'", describe(base), attr));
}

// ---- descriptions for messages ---------------------------------------------------------

std::string KernelLowering::describe(const Value& v) const {
  if (auto* r = v.as<Runtime>()) {
    const ir::TileType t = type_of(r->id);
    if (t.is_scalar()) return fmt::format("{} scalar", dtype_name(t.dtype));
    return fmt::format("Tile[{},{}]", dtype_name(t.dtype), ir::shape_string(t.shape));
  }
  if (auto* i = v.as<LooseInt>()) return fmt::format("int constant {}", ast::int128_to_string(i->value));
  if (auto* f = v.as<LooseFloat>()) return fmt::format("float constant {}", f->value);
  if (v.is<LooseBool>()) return "bool constant";
  if (v.is<NoneValue>()) return "None";
  if (v.is<StrValue>()) return "str";
  if (auto* a = v.as<ArrayValue>()) {
    const ir::ArrayParam& p = fn_.arrays[a->param];
    return fmt::format("Array[{},{}-d]", dtype_name(p.dtype), p.rank);
  }
  if (auto* m = v.as<RawMemoryValue>()) return fmt::format("RawArrayMemory[{}]", dtype_name(fn_.arrays[m->param].dtype));
  if (auto* t = v.as<TiledViewValue>())
    return fmt::format("TiledView[{},{},steps={}]", dtype_name(fn_.arrays[t->param].dtype), ir::shape_string(t->tile_shape),
                       ir::shape_string(t->steps));
  if (v.is<TupleValue>()) return "tuple";
  if (v.is<DictValue>()) return "dict";
  if (auto* l = v.as<ListValue>()) {
    const ir::ArrayParam& p = fn_.arrays[l->param];
    return fmt::format("List[Array[{},{}-d]]", dtype_name(p.dtype), p.rank);
  }
  if (auto* d = v.as<DTypeValue>()) return fmt::format("dtype {}", dtype_name(d->dtype));
  if (auto* e = v.as<EnumValue>())
    return fmt::format("<enum constant {}.{}>", e->cls->name, e->cls->member_name(e->member));
  if (auto* e = v.as<EnumClassValue>()) return fmt::format("enum class {}", e->cls->name);
  if (auto* c = v.as<ClassValue>()) return fmt::format("class {}", c->cls->name);
  if (auto* d = v.as<DataclassValue>()) {  // as cuTile names a dataclass type: Cfg[scale: ..., ...]
    std::vector<std::string> fields;
    for (size_t k = 0; k < d->fields.size(); ++k)
      fields.push_back(fmt::format("{}: {}", d->cls->fields[k].name, describe(d->fields[k])));
    return fmt::format("{}[{}]", d->cls->name, fmt::join(fields, ", "));
  }
  if (auto* m = v.as<ModuleValue>()) return fmt::format("module '{}'", m->path);
  if (auto* f = v.as<FunctionValue>()) return fmt::format("function {}", f->def->name);
  if (auto* b = v.as<BuiltinValue>()) return fmt::format("function {}", b->name);
  if (auto* m = v.as<MethodValue>()) return fmt::format("method {}", m->name);
  if (v.is<FormattedStrValue>()) return "formatted string";
  if (auto* c = v.as<ContextManagerValue>()) return fmt::format("context manager {}()", c->helper.def->name);
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
    error(ErrorKind::Value, range, "Integer constant is out of range of any supported integer type");
  }
  if (v.is<LooseFloat>()) return DType::Float32;
  if (v.is<LooseBool>()) return DType::Bool;
  if (auto* r = v.as<Runtime>()) return type_of(r->id).dtype;
  error(ErrorKind::Type, range, fmt::format("expected a number or a tile, got {}", describe(v)));
}

// ---- expressions ---------------------------------------------------------------------------

Value KernelLowering::eval(const ast::ExprPtr& e) {
  guard_stack(e->range);
  spend_step(e->range);
  const SourceRange r = e->range;
  return std::visit(
      [&](const auto& node) -> Value {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          return eval_name(node.id, r);
        } else if constexpr (std::is_same_v<T, ast::IntLit>) {
          return loose_int(node.value, r);
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
          if (calls_sub_byte_dtype(node))  // cuTile's TileTypeError: a 4-bit float has no scalar form
            error(ErrorKind::Type, r, "Cannot call an object of type DTypeSpec(dtype=<DType 'float4_e2m1fn'>)");
          Value callee = eval(node.func);
          if (auto* b = callee.template as<BuiltinValue>())
            if (auto v = meta_call(b->name, node, r)) return *v;
          CallArgs args;
          for (const auto& a : node.args) {
            if (auto* star = a->template as<ast::Starred>()) {
              Value t = eval(star->value);
              auto* tuple = t.template as<TupleValue>();
              if (!tuple) error(ErrorKind::Type, a->range, fmt::format("Expected a tuple after *, got {}", describe(t)));
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
            if (kw.name.empty()) {  // f(**d): d's items, in order, as keywords
              keywords_from_dict(eval(kw.value), kw.range, args);
              continue;
            }
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
          // cuTile makes a run-time conditional expression an if/else with one result, whose
          // two sides must have one type, a Python number counting as its default dtype (no
          // promotion, no broadcast); tile2cu then selects with ct.where.
          auto result_type = [&](const Value& v) -> std::optional<ir::TileType> {
            if (auto* rt = v.as<Runtime>()) return type_of(rt->id);
            if (v.is_loose()) return ir::TileType{default_dtype(v, r), {}};
            return std::nullopt;
          };
          auto type_text = [](const ir::TileType& t) {
            return t.is_scalar() ? std::string(dtype_name(t.dtype))
                                 : fmt::format("Tile[{},{}]", dtype_name(t.dtype), ir::shape_string(t.shape));
          };
          auto ta = result_type(a), tb = result_type(b);
          if (ta && tb && *ta != *tb)
            error(ErrorKind::Type, r,
                  fmt::format("Type of the conditional expression depends on path taken: {} vs. {}",
                              type_text(*ta), type_text(*tb)));
          CallArgs args;
          args.positional = {cond, a, b};
          args.positional_ranges = {node.cond->range, node.then_value->range, node.else_value->range};
          return builtin_call("ct.where", args, r);
        } else if constexpr (std::is_same_v<T, ast::TupleExpr>) {
          std::vector<Value> items;
          for (const auto& item : node.elts) {
            auto* star = item->template as<ast::Starred>();
            if (!star) {
              items.push_back(eval(item));
              continue;
            }
            // (7, *a, 8): a's items in its place, as in a call's arguments.
            Value t = eval(star->value);
            auto* tuple = t.template as<TupleValue>();
            if (!tuple) error(ErrorKind::Type, item->range, fmt::format("Expected a tuple after *, got {}", describe(t)));
            items.insert(items.end(), tuple->items.begin(), tuple->items.end());
          }
          return make_tuple(std::move(items), r);
        } else if constexpr (std::is_same_v<T, ast::ListExpr>) {
          if (ast::is_list_comprehension(node)) {  // host Python only: its call builds a tuple
            if (static_eval_depth_ == 0) unsupported(r, "list comprehension");
            return eval(node.elts[0]);
          }
          if (static_eval_depth_ > 0) {  // host Python inside static_eval: a list acts as a tuple
            std::vector<Value> items;
            for (const auto& item : node.elts) items.push_back(eval(item));
            return make(TupleValue{std::move(items)});
          }
          error(ErrorKind::Syntax, r, "list displays are not supported in tile code; use a tuple");
        } else if constexpr (std::is_same_v<T, ast::DictExpr>) {
          return dict_display(node);
        } else if constexpr (std::is_same_v<T, ast::Lambda>) {
          return make_function(*node.def);
        } else if constexpr (std::is_same_v<T, ast::Starred>) {
          error(ErrorKind::Syntax, r, "a starred expression is only allowed in a call's arguments");
        } else if constexpr (std::is_same_v<T, ast::Slice> || std::is_same_v<T, ast::EllipsisLit>) {
          error(ErrorKind::Syntax, r, "a slice is only allowed inside a subscript");
        } else if constexpr (std::is_same_v<T, ast::FString>) {
          return formatted_string(node);
        } else if constexpr (std::is_same_v<T, ast::Yield>) {
          // A context manager's own yield is taken apart by the with statement (lower_with.cpp).
          error(ErrorKind::UnsupportedFeature, r, "yield inside an expression is not supported yet by tile2cu; write `yield value` as a statement");
        } else {
          if (static_eval_depth_ > 0 && !node.assigned_name.empty())  // cuTile's words for `:=`
            error(ErrorKind::Syntax, r,
                  fmt::format("{}() expression attempted to modify a local variable '{}'",
                              static_eval_what_, node.assigned_name));
          unsupported(r, node.what);
        }
      },
      e->kind);
}

// ---- tuples ------------------------------------------------------------------------------

namespace {

// Tuples are values, copied whole on every use: `t = (t, t)` repeated would grow them
// exponentially. 4096 values and 1000 levels are far beyond what kernels use.
constexpr size_t kMaxTupleValues = 4096;
constexpr int kMaxTupleDepth = 1000;

// Adds the values in `v` (a nested tuple counts itself and its items) to `count`, stopping
// past `limit`; returns the nesting depth of `v` (0 for a value that is not a tuple).
int count_tuple_values(const Value& v, size_t limit, size_t& count) {
  ++count;
  auto* t = v.as<TupleValue>();
  if (!t) return 0;
  int inner = 0;
  for (const Value& item : t->items) {
    if (count > limit) break;
    inner = std::max(inner, count_tuple_values(item, limit, count));
  }
  return inner + 1;
}

}  // namespace

Value KernelLowering::make_tuple(std::vector<Value> items, SourceRange range) const {
  size_t count = 0;
  int depth = 0;
  for (const Value& item : items) {
    depth = std::max(depth, count_tuple_values(item, kMaxTupleValues, count) + 1);
    if (count > kMaxTupleValues)
      error(ErrorKind::UnsupportedFeature, range,
            fmt::format("a tuple of more than {} values (nested tuples' included) is larger than "
                        "tile2cu supports", kMaxTupleValues));
    if (depth > kMaxTupleDepth)
      error(ErrorKind::UnsupportedFeature, range,
            fmt::format("tuples nested more than {} deep are deeper than tile2cu supports",
                        kMaxTupleDepth));
  }
  return make(TupleValue{std::move(items)});
}

// ---- subscripts and calls ------------------------------------------------------------------

Value KernelLowering::subscript(const Value& base, const ast::ExprPtr& index, SourceRange range) {
  if (auto* b = base.as<BuiltinValue>(); b && b->name == "ct.Constant")
    return make(BuiltinValue{"ct.Constant"});  // ct.Constant[int] is still the marker
  if (auto* d = base.as<DictValue>()) {
    if (index->as<ast::Slice>()) error(ErrorKind::Type, index->range, "a dict can be indexed by a key, not sliced");
    return dict_item(*d, eval(index), index->range);
  }
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
    if (!iv.is<LooseInt>() && !iv.is<LooseBool>()) {  // cuTile's words for each kind of bad index
      auto dt = value_dtype(iv);
      bool runtime_integer = iv.is<Runtime>() && value_shape(iv).empty() && dt && (is_integer(*dt) || *dt == DType::Bool);
      error(ErrorKind::Type, index->range,
            runtime_integer ? std::string("Tuple indices must be constant, but given value is not constant")
                            : fmt::format("Tuple indices must be integers or slices, not {}", describe(iv)));
    }
    int64_t i = const_int(iv, index->range, "tuple index");
    int64_t n = static_cast<int64_t>(t->items.size());
    if (i < -n || i >= n)
      error(ErrorKind::Type, index->range, fmt::format("tuple index {} out of range for length {}", i, n));
    const Value& item = t->items[i < 0 ? i + n : i];
    if (auto* p = item.as<PoisonValue>())  // see attribute(): reported at the static_eval, as its other errors
      error(p->kind, p->kind == ErrorKind::StaticEval && static_eval_depth_ > 0 ? static_eval_range_ : range, p->message);
    return item;
  }
  if (base.is<ArrayValue>())
    error(ErrorKind::Type, range, "Arrays are not directly subscriptable. Use load() or gather() instead.");
  if (auto* d = base.as<DataclassValue>()) {
    if (index->as<ast::Slice>())
      error(ErrorKind::UnsupportedFeature, index->range,
            "a slice as the index of a dataclass instance is not supported yet by tile2cu");
    if (auto v = call_dunder(base, "__getitem__", {eval(index)}, range)) return *v;
    error(ErrorKind::Type, range, fmt::format("'{}' object is not subscriptable", d->cls->name));
  }
  if (auto* l = base.as<ListValue>()) {
    if (index->as<ast::Slice>()) error(ErrorKind::Type, index->range, "a list of arrays can be indexed, not sliced");
    return list_item(*l, eval(index), index->range, range);
  }
  if (auto* r = base.as<Runtime>()) {
    // Only new axes: t[None, :], t[:, None], t[..., None].
    std::vector<ast::ExprPtr> entries;
    if (auto* tup = index->as<ast::TupleExpr>()) entries = tup->elts;
    else entries.push_back(index);
    const ir::TileType t = type_of(r->id);
    // None, or a name or attribute bound to it (np.newaxis, cuTile's test_new_axis_indexing).
    auto new_axis = [&](const ast::ExprPtr& e) {
      if (e->as<ast::NoneLit>()) return true;
      return (e->as<ast::Attribute>() || e->as<ast::Name>()) && eval(e).is<NoneValue>();
    };
    size_t real_axes = 0;
    bool ellipsis = false;
    for (const auto& e : entries) {
      if (new_axis(e)) continue;
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
            fmt::format("Directly indexing a tile is not supported: a subscript of a tile of rank {} names every "
                        "axis with ':' or uses '...' (got {} ':' entries)", t.shape.size(), real_axes));
    ir::Shape shape;
    size_t axis = 0;
    size_t fill = t.shape.size() - real_axes;
    bool filled = false;
    for (const auto& e : entries) {
      if (new_axis(e)) shape.push_back(1);
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
  if (auto* f = callee.as<FunctionValue>()) {
    // As cuTile: a static evaluation runs host Python, where module-level functions exist but
    // the kernel's own nested defs and lambdas do not.
    // A comprehension written inside the static_eval is part of its host Python.
    const bool comprehension = f->def->name == "<genexpr>" || f->def->name == "<listcomp>";
    if (static_eval_depth_ > 0 && f->frame != 0 && !f->bound_self && !comprehension)
      error(ErrorKind::StaticEval, range,
            fmt::format("{}() cannot be called inside {}(): it is defined inside the kernel", f->def->name,
                        static_eval_what_));
    return call_function(*f, std::move(args), range);
  }
  if (auto* m = callee.as<MethodValue>()) return method_call(*m->self, m->name, args, range);
  if (auto* e = callee.as<EnumClassValue>()) return construct_enum(*e, args, range);
  if (auto* c = callee.as<ClassValue>()) return construct_dataclass(*c, args, range);
  if (auto* d = callee.as<DataclassValue>()) {
    if (const Value* m = d->cls->find("__call__"); m && m->is<FunctionValue>()) {
      args.positional.insert(args.positional.begin(), callee);
      args.positional_ranges.insert(args.positional_ranges.begin(), range);
      return call_function(*m->as<FunctionValue>(), std::move(args), range);
    }
    error(ErrorKind::Type, range, fmt::format("Cannot call an object of type {}", describe(callee)));
  }
  if (auto* d = callee.as<DTypeValue>()) {
    // ct.float16(0.5): a strictly typed constant, or a cast of a runtime scalar.
    // cuTile's signature is (x=0, /): positional only, and ct.float32() is 0.
    if (args.positional.size() > 1 || !args.keywords.empty())
      error(ErrorKind::Type, range, fmt::format("{}() takes at most one positional argument", dtype_name(d->dtype)));
    if (args.positional.empty()) {
      args.positional.push_back(make(LooseInt{0}));
      args.positional_ranges.push_back(range);
    }
    const Value& v = args.positional[0];
    if (auto* r = v.as<Runtime>()) {
      if (!type_of(r->id).is_scalar())
        error(ErrorKind::Type, range, "a dtype constructor casts a scalar; use astype() for tiles");
      check_plain_conversion(type_of(r->id).dtype, d->dtype, range);
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
    if (auto* str = v.as<StrValue>()) {
      // cuTile applies the dtype's Python type to a constant: float("-inf"), int("12").
      if (is_float(d->dtype)) {
        if (auto f = python_float_of_string(str->value)) return make(Runtime{to_runtime_as(make(LooseFloat{*f}), d->dtype, range)});
      } else if (is_integer(d->dtype)) {
        if (auto i = python_int_of_string(str->value)) {
          CallArgs again = args;
          again.positional[0] = make(LooseInt{*i});
          return call(callee, std::move(again), range);  // wraps as an int constant does
        }
      }
      error(ErrorKind::Type, range, fmt::format("Invalid argument type for {}", dtype_name(d->dtype)));
    }
    if (v.is_loose()) {
      if (is_integer(d->dtype) && v.is<LooseFloat>())
        return make(Runtime{to_runtime_as(make(LooseInt{int_of_float(v.as<LooseFloat>()->value, range)}), d->dtype, range)});
      return make(Runtime{to_runtime_as(v, d->dtype, range)});
    }
    error(ErrorKind::Type, range, fmt::format("cannot convert {} to {}", describe(v), dtype_name(d->dtype)));
  }
  error(ErrorKind::Type, range, fmt::format("{} is not callable", describe(callee)));
}

}  // namespace tile2cu::sema
