// Meta-programming (spec a.6, c.13): ct.static_eval, ct.static_assert, ct.ensure_constant and
// `for v in ct.static_iter(...)`. Real cuTile runs their arguments as host Python at compile
// time; tile2cu evaluates them with sema's own constant evaluator, which already folds literals,
// Constant parameters, globals, dtypes, shapes, tuples, `len` and `math.*`. Inside them a list
// display is a tuple and `range`/`enumerate`/`zip`/`reversed` build tuples. What needs the GPU
// (a load, an array's run-time shape, ct.bid) cannot be evaluated and is a TileStaticEvalError.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

constexpr size_t kMaxStaticIterItems = 1000;  // cuTile's limit

// Operations that only combine values already computed: the "symbolic arithmetic" that
// cuTile's proxies of run-time values allow inside static_eval.
bool pure_arithmetic(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Constant: case ir::OpKind::Binary: case ir::OpKind::Compare:
    case ir::OpKind::Unary: case ir::OpKind::Convert: case ir::OpKind::Select:
    case ir::OpKind::Broadcast: case ir::OpKind::Reshape:
      return true;
    default:
      return false;
  }
}

// break / continue directly in a static_iter body (not in a loop nested in it), or a return
// anywhere in it.
const ast::Stmt* forbidden_jump(const ast::Body& body, bool in_inner_loop) {
  for (const auto& s : body) {
    if (s->as<ast::Return>()) return s.get();
    if (!in_inner_loop && (s->as<ast::Break>() || s->as<ast::Continue>())) return s.get();
    if (auto* i = s->as<ast::If>()) {
      for (const auto& branch : i->branches)
        if (auto* j = forbidden_jump(branch.body, in_inner_loop)) return j;
      if (auto* j = forbidden_jump(i->orelse, in_inner_loop)) return j;
    } else if (auto* f = s->as<ast::For>()) {
      if (auto* j = forbidden_jump(f->body, true)) return j;
    } else if (auto* w = s->as<ast::While>()) {
      if (auto* j = forbidden_jump(w->body, true)) return j;
    } else if (auto* w = s->as<ast::With>()) {
      if (auto* j = forbidden_jump(w->body, in_inner_loop)) return j;
    }
  }
  return nullptr;
}

}  // namespace

// Python's str() of a compile-time value, for static_assert messages.
std::string python_str(const Value& v) {
  if (auto* s = v.as<StrValue>()) return s->value;
  if (auto* i = v.as<LooseInt>()) return ast::int128_to_string(i->value);  // an IntEnum's too (3.11)
  if (auto* f = v.as<LooseFloat>()) {
    std::string text = fmt::format("{}", f->value);  // shortest round trip, as Python's repr
    if (text.find_first_of(".en") == std::string::npos) text += ".0";  // 2.0, not 2
    return text;
  }
  if (auto* b = v.as<LooseBool>()) return b->value ? "True" : "False";
  if (v.is<NoneValue>()) return "None";
  if (auto* d = v.as<DTypeValue>()) return dtype_name(d->dtype);
  if (auto* e = v.as<EnumValue>()) return fmt::format("{}.{}", e->cls->name, e->cls->member_name(e->member));
  if (auto* t = v.as<TupleValue>()) {
    std::vector<std::string> items;
    for (const auto& item : t->items) items.push_back(python_repr(item));
    return fmt::format("({}{})", fmt::join(items, ", "), items.size() == 1 ? "," : "");
  }
  if (auto* d = v.as<DataclassValue>()) {  // the generated __repr__
    std::vector<std::string> fields;
    for (size_t k = 0; k < d->fields.size(); ++k)
      fields.push_back(fmt::format("{}={}", d->cls->fields[k].name, python_repr(d->fields[k])));
    return fmt::format("{}({})", d->cls->name, fmt::join(fields, ", "));
  }
  return "<value>";
}

std::string python_repr(const Value& v) {
  if (auto* s = v.as<StrValue>()) {
    bool single = s->value.find('\'') != std::string::npos && s->value.find('"') == std::string::npos;
    char quote = single ? '"' : '\'';
    std::string out(1, quote);
    for (char c : s->value) {
      if (c == '\\' || c == quote) out += '\\';
      out += c;
    }
    return out + quote;
  }
  if (auto* e = v.as<EnumValue>()) {
    const Value& value = e->cls->members.at(e->member).value;
    return fmt::format("<{}.{}: {}>", e->cls->name, e->cls->member_name(e->member), python_repr(value));
  }
  return python_str(v);
}

namespace {
// The name a call spells its callee with: "static_eval" for ct.static_eval(...) and for
// static_eval(...) after a from-import; "f" for f = ct.static_eval; f(...).
std::string spelled_name(const ast::Call& call) {
  if (auto* n = call.func->as<ast::Name>()) return n->id;
  if (auto* a = call.func->as<ast::Attribute>()) return a->attr;
  return {};
}

// cuTile's words for an unrolled iterable past the limit (test_static_iter.py).
std::string max_items_message(const char* what) {
  return fmt::format("Maximum number of iterations ({}) has been reached while unpacking the {}() iterable",
                     kMaxStaticIterItems, what);
}
}  // namespace

bool KernelLowering::is_constant(const Value& v) const {
  if (v.is_loose() || v.is<NoneValue>() || v.is<StrValue>() || v.is<DTypeValue>() ||
      v.is<EnumValue>() || v.is<EnumClassValue>() || v.is<ClassValue>() || v.is<ModuleValue>() ||
      v.is<FunctionValue>() || v.is<BuiltinValue>())
    return true;
  if (auto* t = v.as<TupleValue>()) {
    for (const auto& item : t->items)
      if (!is_constant(item)) return false;
    return true;
  }
  if (auto* d = v.as<DataclassValue>()) {
    for (const auto& field : d->fields)
      if (!is_constant(field)) return false;
    return true;
  }
  if (auto* d = v.as<DictValue>()) {  // keys always are
    for (const auto& value : d->values)
      if (!is_constant(value)) return false;
    return true;
  }
  if (auto* r = v.as<Runtime>()) {  // a strictly typed constant such as ct.int16(5)
    for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it)
      for (const auto& op : (*it)->ops)
        if (!op.results.empty() && op.results[0] == r->id) return op.kind == ir::OpKind::Constant;
  }
  return false;
}

namespace {
// A typed integer result wrapped to its dtype's width, as the GPU computes it.
__int128 wrap_to(DType dtype, __int128 v) {
  const int bits = dtype_bits(dtype);
  if (bits >= 64 && !is_unsigned_integer(dtype)) return static_cast<int64_t>(static_cast<uint64_t>(v));
  const unsigned __int128 mask = (static_cast<unsigned __int128>(1) << bits) - 1;
  unsigned __int128 u = static_cast<unsigned __int128>(v) & mask;
  if (!is_unsigned_integer(dtype) && (u >> (bits - 1)) & 1) return static_cast<__int128>(u) - (static_cast<__int128>(1) << bits);
  return static_cast<__int128>(u);
}
}  // namespace

// The value of a scalar computed from strictly typed constants only (`n + ct.int16(2)`,
// `x == 4` for a captured np.int16): a Constant, a Convert, integer + - * and a comparison,
// folded as the GPU would compute them (integers wrap; floats only as float64 / float32).
// nullopt for anything else, which stays a run-time value.
std::optional<Value> KernelLowering::loose_of_typed_constant(const Value& v) const {
  auto* r = v.as<Runtime>();
  if (!r || !type_of(r->id).is_scalar()) return std::nullopt;
  const ir::Op* def = nullptr;
  for (auto it = blocks_.rbegin(); it != blocks_.rend() && !def; ++it)
    for (const auto& op : (*it)->ops)
      if (!op.results.empty() && op.results[0] == r->id) def = &op;
  if (!def) return std::nullopt;
  const DType dtype = type_of(r->id).dtype;
  auto as_loose = [&](const Value& x) -> std::optional<Value> {  // x's value read as dtype
    if (dtype == DType::Bool) {
      if (auto* b = x.as<LooseBool>()) return make(LooseBool{b->value});
      if (auto* i = x.as<LooseInt>()) return make(LooseBool{i->value != 0});
      return std::nullopt;
    }
    if (is_integer(dtype)) {
      if (auto* i = x.as<LooseInt>()) return make(LooseInt{wrap_to(dtype, i->value)});
      if (auto* b = x.as<LooseBool>()) return make(LooseInt{b->value ? 1 : 0});
      return std::nullopt;
    }
    if (dtype != DType::Float64 && dtype != DType::Float32) return std::nullopt;
    double d = 0;
    if (auto* f = x.as<LooseFloat>()) d = f->value;
    else if (auto* i = x.as<LooseInt>()) d = static_cast<double>(i->value);
    else if (auto* b = x.as<LooseBool>()) d = b->value ? 1 : 0;
    else return std::nullopt;
    return make(LooseFloat{dtype == DType::Float32 ? static_cast<double>(static_cast<float>(d)) : d});
  };
  switch (def->kind) {
    case ir::OpKind::Constant:
      if (auto* i = std::get_if<__int128>(&def->literal)) return as_loose(make(LooseInt{*i}));
      if (auto* d = std::get_if<double>(&def->literal)) return as_loose(make(LooseFloat{*d}));
      return as_loose(make(LooseBool{std::get<bool>(def->literal)}));
    case ir::OpKind::Convert: {
      auto x = loose_of_typed_constant(make(Runtime{def->operands[0]}));
      if (!x || (is_integer(dtype) && x->is<LooseFloat>())) return std::nullopt;  // float -> int: leave it
      return as_loose(*x);
    }
    case ir::OpKind::Binary: case ir::OpKind::Compare: {
      auto a = loose_of_typed_constant(make(Runtime{def->operands[0]}));
      auto b = loose_of_typed_constant(make(Runtime{def->operands[1]}));
      if (!a || !b) return std::nullopt;
      auto* ia = a->as<LooseInt>();
      auto* ib = b->as<LooseInt>();
      auto number = [](const Value& x) {
        if (auto* i = x.as<LooseInt>()) return static_cast<double>(i->value);
        if (auto* f = x.as<LooseFloat>()) return f->value;
        return x.as<LooseBool>()->value ? 1.0 : 0.0;
      };
      if (def->kind == ir::OpKind::Compare) {
        int order;  // -1, 0, 1; exact for two integers
        if (ia && ib) order = ia->value < ib->value ? -1 : ia->value > ib->value ? 1 : 0;
        else {
          const double x = number(*a), y = number(*b);
          if (std::isnan(x) || std::isnan(y)) return make(LooseBool{def->compare == ir::CompareKind::Ne});
          order = x < y ? -1 : x > y ? 1 : 0;
        }
        switch (def->compare) {
          case ir::CompareKind::Eq: return make(LooseBool{order == 0});
          case ir::CompareKind::Ne: return make(LooseBool{order != 0});
          case ir::CompareKind::Lt: return make(LooseBool{order < 0});
          case ir::CompareKind::Le: return make(LooseBool{order <= 0});
          case ir::CompareKind::Gt: return make(LooseBool{order > 0});
          case ir::CompareKind::Ge: return make(LooseBool{order >= 0});
        }
      }
      if (!ia || !ib || !is_integer(dtype)) return std::nullopt;
      switch (def->binary) {
        case ir::BinaryKind::Add: return as_loose(make(LooseInt{ia->value + ib->value}));
        case ir::BinaryKind::Sub: return as_loose(make(LooseInt{ia->value - ib->value}));
        case ir::BinaryKind::Mul: return as_loose(make(LooseInt{ia->value * ib->value}));
        default: return std::nullopt;
      }
    }
    default:
      return std::nullopt;
  }
}

void KernelLowering::check_static_op(const ir::Op& op) const {
  if (pure_arithmetic(op.kind)) return;
  error(ErrorKind::StaticEval, static_eval_range_,
        fmt::format("ct.{}() is evaluated at compile time and cannot contain the tile operation "
                    "'{}': only constants, tuples and arithmetic on values already computed are "
                    "allowed",
                    static_eval_what_, ir::op_kind_name(op.kind)));
}

Value KernelLowering::static_eval(const ast::ExprPtr& e, SourceRange range, const char* what) {
  SourceRange saved_range = static_eval_range_;
  const char* saved_what = static_eval_what_;
  ++static_eval_depth_;
  static_eval_range_ = range;
  static_eval_what_ = what;
  auto restore = [&] {
    --static_eval_depth_;
    static_eval_range_ = saved_range;
    static_eval_what_ = saved_what;
  };
  try {
    Value v = eval(e);
    if (auto* t = v.as<TupleValue>())  // x.shape with a run-time dim: see attribute()
      for (const Value& item : t->items)
        if (auto* p = item.as<PoisonValue>()) error(p->kind, range, p->message);
    restore();
    return v;
  } catch (const CompileError& inner) {
    restore();
    if (error_of_the_value_) {
      error_of_the_value_ = static_eval_depth_ > 0;
      throw;
    }
    // A syntax error (an undefined name, a construct outside tile code) stays one, as in cuTile.
    if (inner.kind() == ErrorKind::StaticEval || inner.kind() == ErrorKind::StaticAssertion ||
        inner.kind() == ErrorKind::Recursion || inner.kind() == ErrorKind::Syntax)
      throw;
    // Whatever went wrong inside is, as in cuTile, an error of the static evaluation.
    const auto& frames = inner.frames();
    // Python's ZeroDivisionError, named as cuTile does for an exception of the host evaluation.
    const std::string& m = inner.message();
    const bool by_zero = inner.kind() == ErrorKind::Value && m.size() >= 7 && m.compare(m.size() - 7, 7, "by zero") == 0;
    CompileError wrapped(ErrorKind::StaticEval,
                         by_zero ? fmt::format("Exception was raised inside {}() (ZeroDivisionError: {})", what, m)
                                 : fmt::format("ct.{}() could not evaluate its argument: {}", what, m),
                         frames.empty() ? current_file() : frames[0].file, frames.empty() ? range : frames[0].range);
    if (!frames.empty()) wrapped.set_function_of_innermost(frames[0].function);
    for (size_t i = 1; i < frames.size(); ++i) wrapped.add_caller_frame(frames[i]);
    throw wrapped;
  }
}

std::optional<Value> KernelLowering::meta_call(const std::string& name, const ast::Call& call,
                                               SourceRange range) {
  // cuTile recognises its compile-time functions by their name at the call, not through a variable.
  for (const char* meta : {"ct.static_eval", "ct.static_assert", "ct.static_iter"})
    if (name == meta && spelled_name(call) != name.substr(3))
      error(ErrorKind::Syntax, call.func->range, fmt::format("{}() must be used directly by name", name.substr(3)));
  auto one_positional = [&](size_t max_args) {
    if (!call.keywords.empty())
      error(ErrorKind::Type, call.keywords[0].range, fmt::format("{}() takes positional arguments only", name));
    for (const auto& a : call.args)
      if (a->as<ast::Starred>()) error(ErrorKind::Syntax, a->range, fmt::format("{}() does not take *args", name));
    // cuTile's words (a TileSyntaxError) for its own two compile-time functions.
    if (name == "ct.static_eval" && call.args.size() != 1)
      error(ErrorKind::Syntax, range, fmt::format("static_eval() expects a single expression, got {} arguments", call.args.size()));
    if (name == "ct.static_assert" && (call.args.empty() || call.args.size() > 2))
      error(ErrorKind::Syntax, range,
            fmt::format("static_assert(cond, msg=None, /) expects one or two positional arguments, got {}", call.args.size()));
    if (call.args.empty() || call.args.size() > max_args)
      error(ErrorKind::Type, range,
            fmt::format("{}() takes {} positional argument{}, got {}", name,
                        max_args == 1 ? "exactly 1" : "1 or 2", max_args == 1 ? "" : "s", call.args.size()));
  };
  if (name == "ct.static_eval") {
    // cuTile's words (test_static_eval.py::test_nested_static_eval). Inside a static_assert's
    // condition it stays allowed, as this project's tests have used it.
    if (static_eval_depth_ > 0 && std::string_view(static_eval_what_) == "static_eval")
      error(ErrorKind::StaticEval, range, "static_eval() cannot be used inside static_eval().");
    one_positional(1);
    return static_eval(call.args[0], range, "static_eval");
  }
  if (name == "ct.static_assert") {
    if (static_eval_depth_ > 0)  // cuTile's words (test_static_assert_inside_static_eval)
      error(ErrorKind::StaticEval, range, fmt::format("static_assert() cannot be used inside {}().", static_eval_what_));
    one_positional(2);
    Value cond = static_eval(call.args[0], call.args[0]->range, "static_assert");
    if (auto folded = loose_of_typed_constant(cond)) cond = *folded;  // `t == 7` of a typed constant t
    if (!is_constant(cond))
      error(ErrorKind::Type, call.args[0]->range,
            fmt::format("static_assert() condition must be a compile-time constant, got {}", describe(cond)));
    auto* b = cond.as<LooseBool>();
    if (!b)
      error(ErrorKind::Type, call.args[0]->range,
            fmt::format("static_assert() condition must be a boolean, got {}", describe(cond)));
    if (b->value) return make(NoneValue{});
    std::string message = "Static assertion failed";
    if (call.args.size() == 2) {
      Value msg = static_eval(call.args[1], call.args[1]->range, "static_assert");
      // An f-string of constants (`f"{n}! = {factorial(n)}"`) and an array's proxy are text
      // at compile time, as cuTile str()s the message.
      if (auto* f = msg.as<FormattedStrValue>()) {
        std::string text = f->texts[0];
        bool constant = true;
        for (size_t i = 0; i < f->fields.size() && constant; ++i) {
          constant = f->fields[i].value->is_loose() && !f->fields[i].spec;
          if (constant) text += python_str(*f->fields[i].value) + f->texts[i + 1];
        }
        if (constant) msg = make(StrValue{text});
      } else if (auto* a = msg.as<ArrayValue>()) {
        msg = make(StrValue{array_proxy_repr(a->param)});
      }
      if (!is_constant(msg))
        error(ErrorKind::StaticEval, call.args[1]->range,
              fmt::format("ct.static_assert(): the message must be a compile-time constant, got {}", describe(msg)));
      // As cuTile: an empty message adds nothing ("Static assertion failed" ends the line).
      if (!msg.is<NoneValue>() && !python_str(msg).empty()) message += ": " + python_str(msg);
    }
    error(ErrorKind::StaticAssertion, range, message);
  }
  if (name == "ct.ensure_constant") {
    one_positional(1);
    Value v = eval(call.args[0]);
    if (!is_constant(v))
      error(ErrorKind::StaticAssertion, call.args[0]->range,
            fmt::format("ct.ensure_constant(): the value is not a compile-time constant (it is {})", describe(v)));
    return v;
  }
  if (name == "ct.static_iter")
    error(ErrorKind::Syntax, range, "static_iter() is only allowed as iterable in a `for` loop");
  if ((name == "str" || name == "repr") && call.args.size() == 1 && call.keywords.empty()) {
    Value v = eval(call.args[0]);
    // The user's __str__ (else __repr__, as Python falls back) or __repr__.
    for (const char* dunder : {name == "str" ? "__str__" : "__repr__", "__repr__"}) {
      auto text = call_dunder(v, dunder, {}, range);
      if (!text) continue;
      if (!text->is<StrValue>())
        error(ErrorKind::Type, range, fmt::format("Expected {}() to return a string, got {}", dunder, describe(*text)));
      return *text;
    }
    if (!is_constant(v) || v.is<FunctionValue>() || v.is<ModuleValue>() || v.is<BuiltinValue>() || v.is<EnumClassValue>())
      error(ErrorKind::Type, call.args[0]->range, fmt::format("{}() in tile code needs a compile-time constant, got {}", name, describe(v)));
    return make(StrValue{name == "repr" ? python_repr(v) : python_str(v)});
  }
  if (static_eval_depth_ == 0) return std::nullopt;
  // Python builtins that build tuples, available inside a static evaluation only.
  if (name != "range" && name != "enumerate" && name != "zip" && name != "reversed") return std::nullopt;
  if (!call.keywords.empty())
    error(ErrorKind::StaticEval, call.keywords[0].range, fmt::format("{}() takes no keyword arguments here", name));
  std::vector<Value> args;
  for (const auto& a : call.args) args.push_back(eval(a));
  auto as_tuple = [&](size_t i) -> const TupleValue& {
    auto* t = args[i].as<TupleValue>();
    if (!t) error(ErrorKind::StaticEval, call.args[i]->range,
                  fmt::format("{}() needs a tuple here, got {}", name, describe(args[i])));
    return *t;
  };
  std::vector<Value> items;
  if (name == "range") {
    if (args.empty() || args.size() > 3) error(ErrorKind::StaticEval, range, "range() takes 1 to 3 arguments");
    std::vector<int64_t> n;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].is<LooseInt>())
        error(ErrorKind::StaticEval, call.args[i]->range,
              fmt::format("range() inside ct.{}() needs compile-time integers{}, got {}", static_eval_what_,
                          args[i].is<Runtime>() ? ": Symbolic tile has no concrete value and thus cannot be "
                                                  "converted to an integer" : "",
                          describe(args[i])));
      n.push_back(const_int(args[i], call.args[i]->range, "a range bound"));
    }
    int64_t lo = n.size() >= 2 ? n[0] : 0, hi = n.size() >= 2 ? n[1] : n[0], step = n.size() == 3 ? n[2] : 1;
    if (step == 0) error(ErrorKind::StaticEval, call.args.back()->range, "range() arg 3 must not be zero");
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
      if (items.size() > kMaxStaticIterItems)
        error(ErrorKind::StaticEval, range, max_items_message(static_eval_what_));
      items.push_back(make(LooseInt{i}));
    }
  } else if (name == "enumerate") {
    if (args.empty() || args.size() > 2) error(ErrorKind::StaticEval, range, "enumerate() takes a tuple and an optional start");
    const auto& t = as_tuple(0);
    const int64_t start = args.size() == 2 ? const_int(args[1], call.args[1]->range, "enumerate()'s start") : 0;
    for (size_t i = 0; i < t.items.size(); ++i)
      items.push_back(make(TupleValue{{make(LooseInt{static_cast<__int128>(start + int64_t(i))}), t.items[i]}}));
  } else if (name == "zip") {
    size_t n = SIZE_MAX;
    for (size_t i = 0; i < args.size(); ++i) n = std::min(n, as_tuple(i).items.size());
    if (args.empty()) n = 0;
    for (size_t k = 0; k < n; ++k) {
      std::vector<Value> row;
      for (size_t i = 0; i < args.size(); ++i) row.push_back(as_tuple(i).items[k]);
      items.push_back(make(TupleValue{std::move(row)}));
    }
  } else {
    if (args.size() != 1) error(ErrorKind::StaticEval, range, "reversed() takes one tuple");
    const auto& t = as_tuple(0);
    items.assign(t.items.rbegin(), t.items.rend());
  }
  return make(TupleValue{std::move(items)});
}

Flow KernelLowering::exec_static_iter(const ast::For& f, const ast::Call& call, SourceRange range) {
  if (spelled_name(call) != "static_iter")
    error(ErrorKind::Syntax, call.func->range, "static_iter() must be used directly by name");
  if (call.args.size() != 1 || !call.keywords.empty())
    error(ErrorKind::Type, call.func->range, "ct.static_iter() takes exactly one argument");
  if (const ast::Stmt* jump = forbidden_jump(f.body, false))
    error(ErrorKind::Syntax, jump->range,
          jump->as<ast::Return>() ? "Returning from a for loop is not supported"
          : jump->as<ast::Break>() ? "Break in a for loop with static_iter() is not supported"
                                   : "Continue in a for loop with static_iter() is not supported");
  // A list display as an item is host Python's list, no constant (cuTile's test_static_iter_unsupported_item).
  const ast::Expr& display = *call.args[0];
  const std::vector<ast::ExprPtr>* displayed = nullptr;
  if (auto* t = display.as<ast::TupleExpr>()) displayed = &t->elts;
  else if (auto* l = display.as<ast::ListExpr>()) displayed = &l->elts;
  if (displayed)
    for (size_t k = 0; k < displayed->size(); ++k)
      if ((*displayed)[k]->as<ast::ListExpr>())
        error(ErrorKind::StaticEval, (*displayed)[k]->range,
              fmt::format("Invalid item #{} of static_iter() iterable: Cannot create constant from value of type list.", k));
  Value iterable = static_eval(call.args[0], call.args[0]->range, "static_iter");
  if (auto* d = iterable.as<DictValue>()) iterable = make(TupleValue{d->keys});  // Python iterates the keys
  // A number is no iterable: Python's TypeError, in cuTile's words (a TileTypeError).
  for (auto [is, type] : {std::pair{iterable.is<LooseInt>(), "int"}, std::pair{iterable.is<LooseFloat>(), "float"},
                          std::pair{iterable.is<LooseBool>(), "bool"}, std::pair{iterable.is<NoneValue>(), "NoneType"}})
    if (is)
      error(ErrorKind::Type, call.args[0]->range,
            fmt::format("Invalid static_iter() iterable: '{}' object is not iterable", type));
  auto* tuple = iterable.as<TupleValue>();
  if (!tuple)
    error(ErrorKind::StaticEval, call.args[0]->range,
          fmt::format("ct.static_iter() needs a tuple, list or range of values known at compile time, got {}", describe(iterable)));
  if (tuple->items.size() > kMaxStaticIterItems)
    error(ErrorKind::StaticEval, call.args[0]->range,
          max_items_message("static_iter"));
  const std::vector<Value> items = tuple->items;
  // Unrolled: each item binds the target and the body is lowered again, so every iteration
  // may see values of different types (that is the point of static_iter).
  unrolling_.push_back({current_file(), f.iter->range, call_stack_.size()});
  for (const auto& item : items) {
    stmt_range_ = range;
    assign(f.target, item, range);
    exec_body(f.body);
  }
  unrolling_.pop_back();
  return Flow::Normal;
}

// Inside a static evaluation a for loop is host Python (cuTile evaluates the argument of
// static_eval / static_assert with the interpreter: `factorial(n) < 100` with a helper that
// loops over range(1, n + 1)): its iterable is a compile-time tuple (range, enumerate, zip and
// reversed build one there) and the body runs once per item, nothing emitted. A break, continue
// or return in it is refused with the loop's line rather than run wrongly.
Flow KernelLowering::exec_compile_time_for(const ast::For& f, SourceRange range) {
  if (const ast::Stmt* jump = forbidden_jump(f.body, false))
    error(ErrorKind::StaticEval, jump->range,
          fmt::format("ct.{}(): {} in a for loop evaluated at compile time is not supported by tile2cu yet",
                      static_eval_what_, jump->as<ast::Return>() ? "return" : jump->as<ast::Break>() ? "break" : "continue"));
  Value iterable = eval(f.iter);
  if (auto* d = iterable.as<DictValue>()) iterable = make(TupleValue{d->keys});
  auto* tuple = iterable.as<TupleValue>();
  if (!tuple)
    error(ErrorKind::StaticEval, f.iter->range,
          fmt::format("ct.{}(): a for loop evaluated at compile time needs a tuple, list or range of values known "
                      "at compile time, got {}",
                      static_eval_what_, describe(iterable)));
  const std::vector<Value> items = tuple->items;
  for (const auto& item : items) {
    stmt_range_ = range;
    assign(f.target, item, range);
    exec_body(f.body);
  }
  if (!f.orelse.empty()) exec_body(f.orelse);
  return Flow::Normal;
}

}  // namespace tile2cu::sema
