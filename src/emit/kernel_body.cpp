#include "emit/kernel_body.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>

#include "emit/cpp_names.hpp"
#include "emit/emit_debug.hpp"
#include "emit/element_memory_call.hpp"
#include "emit/emit_attention.hpp"
#include "emit/tensor_maps.hpp"
#include "emit/emit_gemm.hpp"
#include "ir/printer.hpp"
#include "support/c_text.hpp"

namespace tile2cu {

namespace {

using ir::Op;
using ir::OpKind;
using ir::ValueId;

// Scalar dtypes whose C++ operators behave as cuTile's (no promotion to int leaks out).
bool operators_are_exact(DType t) {
  return t == DType::Int32 || t == DType::Int64 || t == DType::UInt32 || t == DType::UInt64 ||
         t == DType::Float32 || t == DType::Float64;
}

// Whether an op's rounding or flush-to-zero options pick a runtime variant of it (RN is the
// default); has_math_options adds the NaN-propagating variants of min and max.
bool has_rounding_options(const Op& op) {
  return (op.rounding != ir::Rounding::Default && op.rounding != ir::Rounding::RN) || op.flush_to_zero;
}
bool has_math_options(const Op& op) { return has_rounding_options(op) || op.propagate_nan; }

// The runtime function for `base` with an op's options, in this order: the NaN variant, the
// rounding, flush to zero. "add" -> add_rz, add_ftz, add_rz_ftz; "div" -> div_approx_ftz;
// "maximum" -> maximum_nan_ftz; "sqrt" -> sqrt_approx. RN is the default, so it adds nothing.
std::string with_math_options(const char* base, const Op& op) {
  std::string name = base;
  if (op.propagate_nan) name += "_nan";
  if (op.rounding != ir::Rounding::Default && op.rounding != ir::Rounding::RN)
    name += fmt::format("_{}", ir::rounding_name(op.rounding));
  if (op.flush_to_zero) name += "_ftz";
  return name;
}

// C++ operator precedence, as far as generated expressions need it (higher binds tighter).
enum Precedence { kOr = 5, kXor, kAnd, kEquality, kRelational, kShift = 11, kAdditive, kMultiplicative, kUnary,
                  kAtom = 100 };

struct Expr {
  std::string text;
  int precedence = kAtom;
};

class BodyEmitter {
 public:
  BodyEmitter(const ir::Function& fn, const LayoutPlan& plan, bool line_directives)
      : fn_(fn), plan_(plan), line_directives_(line_directives) {}

  std::string run() {
    for (const auto& a : fn_.arrays) reserve(a.name);
    for (const auto& s : fn_.scalars) reserve(s.name);
    number(fn_.body, nullptr);
    // The whole-tile tests name the accesses' computed index values once more, so none is folded
    // into its access as an only use (a literal or the block id is spelled out in both places).
    for (const Op* op : plan_.whole_tile_split.accesses)
      for (size_t i = 0; i < tile_index_count(*op); ++i)
        if (!def_op_.at(op->operands[i])->operands.empty()) ++uses_[op->operands[i]];
    count_array_ops(fn_.body);
    plan_carried_variables(fn_.body);
    declare_whole_at_launch();
    const size_t split = std::min(plan_.whole_tile_split.first_statement, fn_.body.ops.size());
    block(fn_.body, 1, 0, split);
    if (split < fn_.body.ops.size()) {
      open_whole_tiles_body();
      block(fn_.body, 2, split, fn_.body.ops.size());
      line(1, "});");
    }
    // What follows the body is C++ again; cuda_emitter.cpp fills in the line number.
    if (line_directives_) line(0, kRestoreLineMarker);
    return out_;
  }

 private:
  // ---- accesses whose whole-tile test runs once (whole_tile_split.hpp) ----

  bool in_whole_tile_split(const Op& op) const {
    const auto& accesses = plan_.whole_tile_split.accesses;
    return std::find(accesses.begin(), accesses.end(), &op) != accesses.end();
  }

  bool launch_whole(const Op& op) const {
    return std::any_of(plan_.launch_whole.begin(), plan_.launch_whole.end(),
                       [&](const LaunchWholeAccess& a) { return a.access == &op; });
  }

  // What a load or store passes for whether its tile is whole: the split's answer, or the
  // launcher's (kTilesWhole), or nothing (the access tests its tile itself).
  std::string whole_argument(const Op& op) const {
    if (in_whole_tile_split(op)) return ", whole";
    return launch_whole(op) ? ", whole_at_launch" : "";
  }

  // The launcher's answer, for the accesses it proved that the split does not test, and the
  // masks that answer proves all true.
  void declare_whole_at_launch() {
    std::vector<const Op*> untested;
    for (const LaunchWholeAccess& a : plan_.launch_whole)
      if (!in_whole_tile_split(*a.access)) untested.push_back(a.access);
    if (untested.empty()) return;
    launch_masks_ = masks_true_when_whole(fn_, 0, untested);
    const std::string names = accessed_arrays(fn_, untested);
    comment(1, fmt::format("True in the copy of the kernel that the launcher runs when every tile of {} that a block "
                           "touches is whole (in bounds, aligned): those accesses then have no checked path.",
                           names));
    line(1, "constexpr std::bool_constant<kTilesWhole> whole_at_launch{};");
  }

  // What proves `op` (a ragged-row mask) all true, "whole" (the split's tests) or
  // "whole_at_launch" (the launcher's); empty when nothing does.
  std::string mask_true_when(const Op& op) const {
    const auto& split_masks = plan_.whole_tile_split.masks_true_when_whole;
    if (std::find(split_masks.begin(), split_masks.end(), &op) != split_masks.end()) return "whole";
    if (std::find(launch_masks_.begin(), launch_masks_.end(), &op) != launch_masks_.end()) return "whole_at_launch";
    return "";
  }

  // The tests of those tiles, once, and the opening of the body compiled for both answers.
  void open_whole_tiles_body() {
    std::vector<std::string> tests;
    for (const Op* op : plan_.whole_tile_split.accesses) {
      std::string targs = layout(accessed_tile(*op));
      if (std::string ord = order_arg(*op); !ord.empty()) targs += ", " + ord;
      // An index with no operands of its own (a literal, the block id) may be defined further
      // down, after the tests: it is spelled out.
      std::vector<std::string> index;
      for (size_t i = 0; i < tile_index_count(*op); ++i) {
        ValueId v = op->operands[i];
        const Op* def = def_op_.at(v);
        index.push_back(exprs_.count(v) || !def->operands.empty() ? expr(v).text : expression(*def).text);
      }
      std::string test = fmt::format("whole_tile<{}>({}, {{{}}})", targs, fn_.arrays[op->param].name,
                                     fmt::join(index, ", "));
      if (std::find(tests.begin(), tests.end(), test) == tests.end()) tests.push_back(test);
    }
    const std::string names = accessed_arrays(fn_, plan_.whole_tile_split.accesses);
    const bool one = tests.size() == 1;
    const bool block_known = plan_.whole_tile_split.block_known_tiles;
    if (block_known) {
      comment(1, fmt::format("Whether the {} of {} this block touches {} whole (in bounds, aligned) is tested "
                             "once, here; the rest of the kernel is compiled for both answers, the checked copy "
                             "out of line, so that its registers do not count against the fast copy's "
                             "(tile2cu/memory.cuh).",
                             one ? "tile" : "tiles", names, one ? "is" : "are"));
    } else {
      comment(1, fmt::format("Every block loads the same {} of {}: whether {} whole (in bounds, aligned) is "
                             "tested once, and the rest of the kernel is compiled for both answers "
                             "(tile2cu/memory.cuh).",
                             one ? "tile" : "tiles", names, one ? "it is" : "they are"));
    }
    const std::string flag = block_known ? "tiles_whole" : "fixed_tiles_whole";
    // Where the launcher proved every tested tile whole, the kernel's copy for kTilesWhole = true
    // needs no test.
    const bool launch_proves_all = std::all_of(plan_.whole_tile_split.accesses.begin(), plan_.whole_tile_split.accesses.end(),
                                               [&](const Op* op) { return launch_whole(*op); });
    const std::string prefix = launch_proves_all ? "kTilesWhole || " : "";
    const bool parens = launch_proves_all && tests.size() > 1;
    std::string one_line = fmt::format("const bool {} = {}{}{}{};", flag, prefix, parens ? "(" : "",
                                       fmt::join(tests, " && "), parens ? ")" : "");
    if (one_line.size() <= 100) {
      line(1, one_line);
    } else {  // one test per line
      line(1, fmt::format("const bool {} ={}", flag, launch_proves_all ? " kTilesWhole ||" : ""));
      for (size_t i = 0; i < tests.size(); ++i)
        line(3, fmt::format("{}{}{}", parens && i == 0 ? "(" : parens ? " " : "", tests[i],
                            i + 1 < tests.size() ? " &&" : parens ? ");" : ";"));
    }
    // The out-of-line copy gets the captures by value; inline, references cost nothing.
    line(1, block_known ? fmt::format("with_whole_tiles_outlined({}, [=](auto whole) mutable {{", flag)
                        : fmt::format("with_whole_tiles({}, [&](auto whole) {{", flag));
  }

  // ---- analysis ----

  void number(const ir::Block& b, const ir::Block* parent) {
    (void)parent;
    for (ValueId a : b.args) def_block_[a] = &b;
    for (const Op& op : b.ops) {
      for (ValueId v : op.operands) {
        ++uses_[v];
        use_block_[v] = &b;
      }
      for (const ir::Block& r : op.regions) number(r, &b);
      for (ValueId v : op.results) {
        def_block_[v] = &b;
        def_op_[v] = &op;
      }
    }
  }

  // Loop-carried variables reuse their initial value's variable when nothing else reads it.
  void plan_carried_variables(const ir::Block& b) {
    for (const Op& op : b.ops) {
      for (const ir::Block& r : op.regions) plan_carried_variables(r);
      if (op.kind != OpKind::For && op.kind != OpKind::While) continue;
      size_t first = op.kind == OpKind::For ? 3 : 0;
      for (size_t k = first; k < op.operands.size(); ++k) {
        ValueId init = op.operands[k];
        ValueId arg = op.regions[0].args[op.kind == OpKind::For ? k - 2 : k];
        const std::string& name = fn_.values[arg].name;
        bool reusable = uses_[init] == 1 && fn_.values[init].name == name && !name.empty() &&
                        def_block_[init] == &b && (!def_op_.count(init) || is_expression_op(*def_op_[init]));
        if (reusable) mutable_.insert(init);
      }
    }
  }

  static bool is_expression_op(const Op& op) {
    switch (op.kind) {
      case OpKind::For: case OpKind::If: case OpKind::While: case OpKind::Store: case OpKind::Scatter:
      case OpKind::Yield: case OpKind::Condition: case OpKind::Break: case OpKind::Continue:
      case OpKind::Return: case OpKind::ListItem: case OpKind::ArraySlice: case OpKind::ArraySelect: case OpKind::Print:
      case OpKind::Assert: case OpKind::AttentionLoop:
        return false;
      default:
        return true;
    }
  }

  static bool is_pure(const Op& op) {
    return is_expression_op(op) && op.kind != OpKind::Load && op.kind != OpKind::Gather &&
           op.kind != OpKind::Atomic && op.kind != OpKind::GemmLoop;
  }

  static bool is_trivial(const Op& op) {
    return op.kind == OpKind::Constant || op.kind == OpKind::ScalarParam ||
           op.kind == OpKind::ArrayDim || op.kind == OpKind::ArrayStride || op.kind == OpKind::ListLength;
  }

  // ---- assigning a region's results where they are computed ----

  static bool uses_within(const Op& op, ValueId v) {
    if (std::find(op.operands.begin(), op.operands.end(), v) != op.operands.end()) return true;
    for (const ir::Block& r : op.regions)
      for (const Op& inner : r.ops)
        if (uses_within(inner, v)) return true;
    return false;
  }

  // A value computed only to be yielded is written straight into the variable the yield
  // assigns ("acc = acc + t;"), unless the region still reads that variable's old value
  // after the computation (`old_value`, the loop's block argument; none for an if).
  void plan_direct_assignments(const ir::Block& region, const std::vector<std::string>& vars,
                               const std::vector<ValueId>& old_values) {
    if (region.ops.empty() || region.ops.back().kind != OpKind::Yield) return;
    const Op& yield = region.ops.back();
    for (size_t k = 0; k < yield.operands.size() && k < vars.size(); ++k) {
      ValueId y = yield.operands[k];
      if (uses_[y] != 1 || def_block_[y] != &region || !def_op_.count(y) || !is_expression_op(*def_op_[y]))
        continue;
      size_t d = 0;
      while (d < region.ops.size() && &region.ops[d] != def_op_[y]) ++d;
      if (k >= old_values.size() || !old_value_read_after(region, d, old_values[k], y))
        direct_assign_[y] = vars[k];
    }
  }

  // Whether ops after region.ops[d] (the yield's other operands included) read `old`, directly
  // or through a pure value computed from it before d: such a value may be an expression
  // written inline where it is used, so it reads the variable only then
  // (`t = t[1], t[0] + t[1]`). Other ops' results are variables, computed where they stand.
  bool old_value_read_after(const ir::Block& region, size_t d, ValueId old, ValueId yielded) const {
    std::set<ValueId> reads_old{old};
    auto reads = [&](const Op& op) {
      for (ValueId v : reads_old)
        if (uses_within(op, v)) return true;
      return false;
    };
    for (size_t i = 0; i < d; ++i)
      if (is_pure(region.ops[i]) && reads(region.ops[i]))
        reads_old.insert(region.ops[i].results.begin(), region.ops[i].results.end());
    for (size_t i = d + 1; i + 1 < region.ops.size(); ++i)
      if (reads(region.ops[i])) return true;
    for (ValueId v : region.ops.back().operands)
      if (v != yielded && reads_old.count(v)) return true;
    return false;
  }

  // ---- names ----

  void reserve(const std::string& n) { used_names_.insert(n); }

  // `base` is a C++ name (cpp_names.hpp) or one of the emitter's; a name it composes
  // (`x_tile`, `x_2`) is spelled by the same rule when it is not free as it is.
  std::string fresh_name(std::string base) {
    if (base.empty()) base = "t";
    if (!cpp_name_is_free(base)) base = cpp_name(base);
    if (!used_names_.count(base)) {
      used_names_.insert(base);
      return base;
    }
    // Names are never released, so every suffix below the last one handed out for this
    // base is taken: start there (a long chain of `x = ...` stays linear, not quadratic).
    int& next = next_suffix_[base];
    for (int i = std::max(next, 2);; ++i) {
      std::string n = cpp_name(fmt::format("{}_{}", base, i));
      if (!used_names_.count(n)) {
        used_names_.insert(n);
        next = i + 1;
        return n;
      }
    }
  }

  // ---- output ----

  void line(int depth, const std::string& text) {
    out_.append(static_cast<size_t>(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  // `keep_indent`: later lines keep their indentation relative to the first (a whole loop
  // quoted above the one call it became).
  void source_comment(const Op& op, int depth, bool header_only, bool keep_indent = false) {
    const SourceFile* file = fn_.file_of(op);
    if (!op.loc.valid() || !file || in_combiner_) return;
    if (op.loc.line == last_comment_line_ && file == last_comment_file_) return;
    int last = header_only ? op.loc.line : std::max(op.loc.line, op.loc.end_line);
    size_t first_indent = std::string_view::npos;
    for (int l = op.loc.line; l <= last; ++l) {
      std::string_view text = file->line_text(l);
      size_t start = text.find_first_not_of(" \t");
      if (start == std::string_view::npos) continue;
      if (first_indent == std::string_view::npos) first_indent = start;
      if (keep_indent && start > first_indent) start = first_indent;
      line(depth, "// " + comment_safe(text.substr(start)));  // Python text: never splices the next line
    }
    // The code that follows is attributed to the statement's first Python line.
    if (line_directives_) line(0, fmt::format("#line {} \"{}\"", op.loc.line, c_string_body(file->path())));
    last_comment_line_ = op.loc.line;
    last_comment_file_ = file;
  }

  // A comment of the emitter's own, wrapped at 100 columns.
  void comment(int depth, const std::string& text) {
    const size_t width = 100 - static_cast<size_t>(depth) * 2 - 3;
    std::string current;
    size_t at = 0;
    while (at < text.size()) {
      size_t end = text.find(' ', at);
      if (end == std::string::npos) end = text.size();
      std::string word = text.substr(at, end - at);
      if (!current.empty() && current.size() + 1 + word.size() > width) {
        line(depth, "// " + current);
        current.clear();
      }
      current += (current.empty() ? "" : " ") + word;
      at = end + 1;
    }
    if (!current.empty()) line(depth, "// " + current);
  }

  const Expr& expr(ValueId v) {
    auto it = exprs_.find(v);
    if (it == exprs_.end()) throw std::logic_error(fmt::format("emitter: value %{} has no expression", v));
    return it->second;
  }

  // `v` as an operand of an operator of precedence `parent`. Arithmetic nests by precedence;
  // anything inside a bitwise, shift or comparison operator gets parentheses, as a reader
  // (and -Wparentheses) would want.
  std::string operand(ValueId v, int parent = kUnary, bool right = false) {
    const Expr& e = expr(v);
    bool arithmetic_parent = parent == kAdditive || parent == kMultiplicative;
    bool bare = e.precedence == kAtom ||
                (arithmetic_parent && (e.precedence > parent || (e.precedence == parent && !right)));
    return bare ? e.text : "(" + e.text + ")";
  }

  // A splat used by an elementwise op is just the scalar: the runtime's tile-scalar overloads.
  ValueId look_through_splat(ValueId v) const {
    if (auto it = def_op_.find(v); it != def_op_.end() && it->second->kind == OpKind::Broadcast &&
                                   fn_.type(it->second->operands[0]).is_scalar())
      return it->second->operands[0];
    return v;
  }
  std::string elementwise_operand(ValueId v, int parent, bool right) {
    return operand(look_through_splat(v), parent, right);
  }
  std::string elementwise_argument(ValueId v) { return expr(look_through_splat(v)).text; }
  std::string layout(ValueId v) { return plan_.layout(fn_.type(v).shape).name; }

  std::string index_list(const Op& op, size_t count) {
    std::vector<std::string> parts;
    for (size_t i = 0; i < count; ++i) parts.push_back(expr(op.operands[i]).text);
    return fmt::format("{{{}}}", fmt::join(parts, ", "));
  }

  static std::string order_arg(const Op& op) {
    for (size_t i = 0; i < op.order.size(); ++i)
      if (op.order[i] != static_cast<int>(i)) return fmt::format("Order<{}>", fmt::join(op.order, ", "));
    return "";
  }

  Expr binary_expr(const Op& op) {
    ValueId r = op.results[0];
    const ir::TileType& t = fn_.type(r);
    bool tile = !t.is_scalar();
    auto infix = [&](const char* sym, const char* named) -> Expr {
      static const std::map<std::string, int> kPrecedence = {
          {"+", kAdditive}, {"-", kAdditive}, {"*", kMultiplicative}, {"/", kMultiplicative},
          {"&", kAnd}, {"|", kOr}, {"^", kXor}, {"<<", kShift}, {">>", kShift}};
      int p = kPrecedence.at(sym);
      if (tile || operators_are_exact(t.dtype))
        return {fmt::format("{} {} {}", elementwise_operand(op.operands[0], p, false), sym,
                            elementwise_operand(op.operands[1], p, true)), p};
      return {fmt::format("{}({}, {})", named, expr(op.operands[0]).text, expr(op.operands[1]).text)};
    };
    auto call = [&](const std::string& f) -> Expr {
      return {fmt::format("{}({}, {})", f, elementwise_argument(op.operands[0]), elementwise_argument(op.operands[1]))};
    };
    // Rounding and flush-to-zero choices select the runtime's variant of the operation.
    auto rounded = [&](const char* base, const char* sym, const char* named) -> Expr {
      if (has_math_options(op)) return call(with_math_options(base, op));
      return infix(sym, named);
    };
    using ir::BinaryKind;
    switch (op.binary) {
      case BinaryKind::Add: return rounded("add", "+", "add");
      case BinaryKind::Sub: return rounded("sub", "-", "sub");
      case BinaryKind::Mul: return rounded("mul", "*", "mul");
      case BinaryKind::Div: return rounded("div", "/", "truediv");
      case BinaryKind::FloorDiv: return call("floordiv");
      case BinaryKind::Mod: return call("mod");
      case BinaryKind::CeilDiv: return call("cdiv");
      case BinaryKind::Pow: return call("tile2cu::pow");
      case BinaryKind::Min: return call(with_math_options("minimum", op));
      case BinaryKind::Max: return call(with_math_options("maximum", op));
      case BinaryKind::BitAnd: return infix("&", "bitwise_and");
      case BinaryKind::BitOr: return infix("|", "bitwise_or");
      case BinaryKind::BitXor: return infix("^", "bitwise_xor");
      case BinaryKind::Shl: return infix("<<", "bitwise_lshift");
      case BinaryKind::Shr: return infix(">>", "bitwise_rshift");
      case BinaryKind::Atan2: return call("tile2cu::atan2");
    }
    return {};
  }


  Expr unary_expr(const Op& op) {
    const ir::TileType& t = fn_.type(op.results[0]);
    std::string x = expr(op.operands[0]).text;
    bool tile = !t.is_scalar();
    using ir::UnaryKind;
    switch (op.unary) {
      case UnaryKind::Neg:
        if (tile || operators_are_exact(t.dtype)) return {"-" + operand(op.operands[0]), kUnary};
        return {fmt::format("negative({})", x)};
      case UnaryKind::Not: return {"!" + operand(op.operands[0]), kUnary};
      case UnaryKind::BitNot:
        if (tile || operators_are_exact(t.dtype)) return {"~" + operand(op.operands[0]), kUnary};
        return {fmt::format("bitwise_not({})", x)};
      case UnaryKind::Exp:
        return {fmt::format("{}({})", op.rounding == ir::Rounding::Approx ? "exp_approx" : "tile2cu::exp", x)};
      case UnaryKind::Exp2:
        return {fmt::format("{}({})", op.flush_to_zero ? "exp2_ftz" : "tile2cu::exp2", x)};
      case UnaryKind::Tanh:
        return {fmt::format("{}({})", op.rounding == ir::Rounding::Approx ? "tanh_approx" : "tile2cu::tanh", x)};
      case UnaryKind::Sqrt:
        if (has_math_options(op)) return {fmt::format("{}({})", with_math_options("sqrt", op), x)};
        return {fmt::format("tile2cu::sqrt({})", x)};
      case UnaryKind::Rsqrt:
        return {fmt::format("{}({})", op.flush_to_zero ? "rsqrt_ftz" : "tile2cu::rsqrt", x)};
      default:
        return {fmt::format("tile2cu::{}({})", ir::unary_kind_name(op.unary), x)};
    }
  }

  Expr expression(const Op& op) {
    ValueId r = op.results.empty() ? ir::kNoValue : op.results[0];
    switch (op.kind) {
      case OpKind::Constant: return {cpp_literal(op.literal, fn_.type(r).dtype)};
      // Where a CTA runs several blocks, the prologue computes the block along x (block_x) and
      // the launcher passes the grid's count (blocks_x).
      case OpKind::BlockId:
        if (op.axis == 0 && plan_.blocks_per_cta > 1) return {"block_x"};
        return {fmt::format("int32_t(blockIdx.{})", "xyz"[op.axis])};
      case OpKind::NumBlocks:
        if (op.axis == 0 && plan_.blocks_per_cta > 1) return {"blocks_x"};
        return {fmt::format("int32_t(gridDim.{})", "xyz"[op.axis])};
      case OpKind::ScalarParam: return {fn_.scalars[op.param].name};
      case OpKind::ArrayDim: return {fmt::format("{}.shape[{}]", fn_.arrays[op.param].name, op.dim)};
      case OpKind::ArrayStride: return {fmt::format("{}.stride[{}]", fn_.arrays[op.param].name, op.dim)};
      case OpKind::ListLength: return {fmt::format("{}.size", fn_.arrays[op.param].name)};
      case OpKind::Binary: return binary_expr(op);
      case OpKind::Compare: {
        static const char* syms[] = {"==", "!=", "<", "<=", ">", ">="};
        int p = op.compare == ir::CompareKind::Eq || op.compare == ir::CompareKind::Ne ? kEquality : kRelational;
        return {fmt::format("{} {} {}", elementwise_operand(op.operands[0], p, false), syms[static_cast<int>(op.compare)],
                            elementwise_operand(op.operands[1], p, true)), p};
      }
      case OpKind::Unary: return unary_expr(op);
      case OpKind::Convert: return {astype_call(op, expr(op.operands[0]).text)};
      case OpKind::Select:
        return {fmt::format("where({}, {}, {})", elementwise_argument(op.operands[0]),
                            elementwise_argument(op.operands[1]), elementwise_argument(op.operands[2]))};
      case OpKind::Broadcast:
        if (fn_.type(op.operands[0]).is_scalar())
          return {fmt::format("full<{}>({})", layout(r), expr(op.operands[0]).text)};
        if (auto it = plan_.broadcast_loads.folded.find(r); it != plan_.broadcast_loads.folded.end())
          return load_broadcast_expr(op, it->second);
        return {fmt::format("broadcast_to<{}>({}, smem)", layout(r), expr(op.operands[0]).text)};
      case OpKind::Reshape:
        if (fn_.type(r).is_scalar()) return {fmt::format("item({}, smem)", expr(op.operands[0]).text)};
        // A scalar reshaped to a tile (expand_dims, s[None]) is a splat, as a broadcast.
        if (fn_.type(op.operands[0]).is_scalar())
          return {fmt::format("full<{}>({})", layout(r), expr(op.operands[0]).text)};
        // A kernel with no scratch only has reshapes that are register copies.
        return {fmt::format("reshape<{}>({}, {})", layout(r), expr(op.operands[0]).text,
                            plan_.smem_bytes > 0 ? "smem" : "nullptr")};
      case OpKind::Reduce: {
        // The kernel's combiner, or a sum / max ... with rounding or flush-to-zero options.
        if (!op.regions.empty() || has_rounding_options(op)) {
          std::string dst = fn_.type(r).is_scalar() ? "" : ", " + layout(r);
          auto [combine, start] = fold_with(op);
          return {fmt::format("reduce_with<Axes<{}>{}>({}, {}, {}, smem)", fmt::join(op.axes, ", "), dst,
                              combined_operand(op), combine, start)};
        }
        static const std::map<ir::BinaryKind, const char*> kNames = {
            {ir::BinaryKind::Add, "reduce_sum"}, {ir::BinaryKind::Mul, "reduce_prod"},
            {ir::BinaryKind::Max, "reduce_max"}, {ir::BinaryKind::Min, "reduce_min"}};
        std::string name = op.arg ? (op.binary == ir::BinaryKind::Max ? "argmax" : "argmin") : kNames.at(op.binary);
        std::string targs = fmt::format("Axes<{}>", fmt::join(op.axes, ", "));
        std::string dst = fn_.type(r).is_scalar() ? "void" : layout(r);
        if (op.propagate_nan) targs += fmt::format(", {}, true", dst);
        else if (dst != "void") targs += ", " + dst;
        return {fmt::format("{}<{}>({}, smem)", name, targs, expr(op.operands[0]).text)};
      }
      case OpKind::Scan: {
        std::string targs = fmt::format("{}{}", op.axis, op.reverse ? ", true" : "");
        if (!op.regions.empty() || has_rounding_options(op)) {
          auto [combine, start] = fold_with(op);
          return {fmt::format("scan_with<{}>({}, {}, {}, smem)", targs, combined_operand(op), combine, start)};
        }
        return {fmt::format("{}<{}>({}, smem)", op.binary == ir::BinaryKind::Add ? "cumsum" : "cumprod", targs,
                            expr(op.operands[0]).text)};
      }
      case OpKind::Permute:
        return {fmt::format("permute<{}, Order<{}>>({}, smem)", layout(r), fmt::join(op.order, ", "),
                            expr(op.operands[0]).text)};
      case OpKind::Cat:
        return {fmt::format("cat<{}, {}>({}, {}, smem)", layout(r), op.axis, expr(op.operands[0]).text,
                            expr(op.operands[1]).text)};
      case OpKind::Extract: {
        std::vector<std::string> index;
        for (size_t i = 1; i < op.operands.size(); ++i) index.push_back(expr(op.operands[i]).text);
        if (fn_.type(r).is_scalar())
          return {fmt::format("extract_element({}, {{{}}}, smem)", expr(op.operands[0]).text, fmt::join(index, ", "))};
        return {fmt::format("extract<{}>({}, {{{}}}, smem)", layout(r), expr(op.operands[0]).text, fmt::join(index, ", "))};
      }
      case OpKind::Insert: {
        std::vector<std::string> index;
        for (size_t i = 2; i < op.operands.size(); ++i) index.push_back(expr(op.operands[i]).text);
        if (fn_.type(op.operands[1]).is_scalar())
          return {fmt::format("insert_element({}, {}, {{{}}})", expr(op.operands[0]).text, expr(op.operands[1]).text,
                              fmt::join(index, ", "))};
        return {fmt::format("insert({}, {}, {{{}}}, smem)", expr(op.operands[0]).text, expr(op.operands[1]).text,
                            fmt::join(index, ", "))};
      }
      case OpKind::Bitcast:
        return {fmt::format("bitcast<{}>({})", dtype_cpp_name(fn_.type(r).dtype), expr(op.operands[0]).text)};
      case OpKind::Reinterpret:
        return {fmt::format("reinterpret<{}, {}>({}, smem)", layout(r), dtype_cpp_name(fn_.type(r).dtype),
                            expr(op.operands[0]).text)};
      case OpKind::GemmLoop: {
        const int ra = fn_.arrays[op.param].rank, rb = fn_.arrays[op.param_b].rank;
        std::vector<std::string> a_index, b_index;
        for (int d = 0; d < ra; ++d) a_index.push_back(expr(op.operands[2 + d]).text);
        for (int d = 0; d < rb; ++d) b_index.push_back(expr(op.operands[2 + ra + d]).text);
        const std::string maps = tensor_maps_name(fn_, op);
        return {fmt::format("gemm_main_loop<{}>({}, {{{}}}, {}, {{{}}}, {}, {}, {}, smem{})", gemm_loop_config_name(fn_, op),
                            fn_.arrays[op.param].name, fmt::join(a_index, ", "), fn_.arrays[op.param_b].name,
                            fmt::join(b_index, ", "), expr(op.operands[0]).text, expr(op.operands[1]).text,
                            expr(op.operands.back()).text, maps.empty() ? "" : ", &" + maps)};
      }
      case OpKind::Mma:
        return {fmt::format("mma({}, {}, {}, smem)", expr(op.operands[0]).text, expr(op.operands[1]).text,
                            expr(op.operands[2]).text)};
      case OpKind::Arange:
        return {fmt::format("arange<{}, {}>({}, {})", layout(r), dtype_cpp_name(fn_.type(r).dtype),
                            expr(op.operands[0]).text, expr(op.operands[1]).text)};
      case OpKind::Load: {
        const ir::ArrayParam& a = fn_.arrays[op.param];
        std::string pad = fmt::format("PaddingMode::{}", padding_cpp(op.padding));
        if (op.tile_shape.empty()) {
          std::string targs = op.padding == ir::PaddingMode::Undetermined ? "" : fmt::format("<{}>", pad);
          return {fmt::format("load_scalar{}({}, {})", targs, a.name, index_list(op, op.operands.size()))};
        }
        std::string ord = order_arg(op);
        std::string targs = layout(r);
        if (!ord.empty()) targs += ", " + pad + ", " + ord;
        else if (op.padding != ir::PaddingMode::Undetermined) targs += ", " + pad;
        return {fmt::format("load<{}>({}, {}{})", targs, a.name, index_list(op, op.operands.size()), whole_argument(op))};
      }
      case OpKind::Gather: case OpKind::Atomic: return {element_memory_call(fn_, op, plan_, operand_text())};
      default:
        throw std::logic_error(fmt::format("emitter: {} is not an expression", ir::op_kind_name(op.kind)));
    }
  }

  // astype<bfloat16>(x), or astype_rz<float>(x) with a directed rounding.
  std::string astype_call(const Op& convert, const std::string& operand) {
    return fmt::format("{}<{}>({})", with_math_options("astype", convert), dtype_cpp_name(fn_.type(convert.results[0]).dtype),
                       operand);
  }

  // A combiner's identity: "0.0f", or for N operands one Values<...> braced: "{2147483647, 0}".
  std::string identity(const Op& op) {
    std::vector<std::string> items;
    for (size_t i = 0; i < op.operands.size(); ++i)
      items.push_back(cpp_literal(op.identities.at(i), fn_.type(op.operands[i]).dtype));
    if (items.size() == 1) return items[0];
    return fmt::format("{{{}}}", fmt::join(items, ", "));
  }

  // What a reduce_with / scan_with folds: the tile, or the operands' tiles zipped into one tile of
  // Values<...> (ct.reduce / ct.scan of a tuple of tiles).
  std::string combined_operand(const Op& op) {
    if (op.operands.size() == 1) return expr(op.operands[0]).text;
    std::vector<std::string> tiles;
    for (ValueId v : op.operands) tiles.push_back(expr(v).text);
    return fmt::format("zip({})", fmt::join(tiles, ", "));
  }

  // The element type a tuple combiner hands back: "Values<int32_t, float>".
  std::string values_type(const std::vector<ValueId>& vs) const {
    std::vector<std::string> types;
    for (ValueId v : vs) types.push_back(dtype_cpp_name(fn_.type(v).dtype));
    return fmt::format("Values<{}>", fmt::join(types, ", "));
  }

  // The combiner and identity of a reduce_with / scan_with: the kernel's own (a region), or for
  // a sum, prod, max, min, cumsum or cumprod with rounding or flush-to-zero options the op so
  // rounded: {"[](float a, float b) { return add_rz(a, b); }", "0.0f"}.
  std::pair<std::string, std::string> fold_with(const Op& op) {
    if (!op.regions.empty()) return {combiner_lambda(op, reads_from_outside(op.regions[0]) ? "&" : ""), identity(op)};
    struct Fold { const char* function; double identity; };
    static const std::map<ir::BinaryKind, Fold> kFolds = {
        {ir::BinaryKind::Add, {"add", 0.0}}, {ir::BinaryKind::Mul, {"mul", 1.0}},
        {ir::BinaryKind::Max, {"maximum", -INFINITY}}, {ir::BinaryKind::Min, {"minimum", INFINITY}}};
    const Fold& fold = kFolds.at(op.binary);
    const DType dtype = fn_.type(op.operands[0]).dtype;
    // max / min that ignore NaN start from NaN, as the runtime's MaxOp / MinOp do (reduce.cuh).
    const bool ignores_nan = (op.binary == ir::BinaryKind::Max || op.binary == ir::BinaryKind::Min) &&
                             !op.propagate_nan && is_float(dtype);
    return {fmt::format("[]({0} a, {0} b) {{ return {1}(a, b); }}", dtype_cpp_name(dtype),
                        with_math_options(fold.function, op)),
            cpp_literal(ignores_nan ? NAN : fold.identity, dtype)};
  }

  // Whether a region reads a value defined around it (a combiner capturing a kernel variable,
  // `lambda a, b: (a + b) % modulo`): its lambda must capture, or nvcc rejects the name.
  static bool reads_from_outside(const ir::Block& region) {
    std::set<ValueId> inside(region.args.begin(), region.args.end());
    bool outside = false;
    auto walk = [&](auto& self, const ir::Block& b) -> void {
      for (ValueId a : b.args) inside.insert(a);
      for (const Op& op : b.ops) {
        for (ValueId v : op.operands)
          if (!inside.count(v)) outside = true;
        for (const ir::Block& r : op.regions) self(self, r);
        for (ValueId v : op.results) inside.insert(v);
      }
    };
    walk(walk, region);
    return outside;
  }

  // A combiner region as a C++ lambda: "[](float a, float b) { return a + b; }", or one line per
  // named intermediate when the helper had several statements.
  // `capture` is "&" for a region that reads values from around it (the attention score).
  std::string combiner_lambda(const Op& op, const char* capture = "", size_t region_index = 0) {
    const ir::Block& region = op.regions[region_index];
    std::vector<std::string> params;
    for (ValueId a : region.args) {
      std::string name = fresh_name(fn_.values[a].name);
      exprs_[a] = {name};
      params.push_back(fmt::format("{} {}", dtype_cpp_name(fn_.type(a).dtype), name));
    }
    std::string saved = std::move(out_);
    out_.clear();
    const int depth = depth_;
    const Op* next = next_op_;
    in_combiner_ = true;
    block(region, depth + 2);
    in_combiner_ = false;
    depth_ = depth;
    next_op_ = next;
    std::string body = std::move(out_);
    out_ = std::move(saved);
    std::string head = fmt::format("[{}]({})", capture, fmt::join(params, ", "));
    // A tuple combiner returns its values braced, so the lambda names its return type.
    const Op& yield = region.ops.back();
    if (yield.kind == OpKind::Yield && yield.operands.size() > 1) head += " -> " + values_type(yield.operands);
    if (std::count(body.begin(), body.end(), '\n') == 1) {  // only the return: one line
      size_t start = body.find_first_not_of(' ');
      return fmt::format("{} {{ {} }}", head, body.substr(start, body.size() - start - 1));
    }
    return fmt::format("{} {{\n{}{}}}", head, body, std::string(static_cast<size_t>(depth + 1) * 2, ' '));
  }

  OperandText operand_text() {
    return {[this](ValueId v) { return expr(v).text; },
            [this](ValueId v) -> const Op* {
              auto it = def_op_.find(v);
              return it == def_op_.end() ? nullptr : it->second;
            }};
  }

  // Only thread 0 runs the body of once_per_block, so its operands must be computed before,
  // by every thread (computing one may take the whole block: item(), a reduction, ...).
  void materialize_operands(const Op& op, int depth) {
    for (ValueId v : op.operands) {
      const std::string& text = expr(v).text;
      if (text.find_first_of("( ") == std::string::npos) continue;  // a name or a literal
      std::string name = fresh_name(fn_.values[v].name);
      line(depth, fmt::format("const auto {} = {};", name, text));
      exprs_[v] = {name};
    }
  }

  // A statement that must run once per block: thread 0 runs it, everyone waits (block_uniform.cuh).
  // A store to an array no other op touches needs no waiting (in_one_thread).
  void once_per_block_statement(const std::string& call, int depth, const Op& op) {
    bool alone = (op.kind == OpKind::Store || op.kind == OpKind::Scatter) && array_ops_[op.param] == 1;
    line(depth, fmt::format("{}([&] {{ {}; }});", alone ? "in_one_thread" : "once_per_block", call));
  }

  // How many memory ops (load, store, gather, scatter, atomic) name each array parameter.
  void count_array_ops(const ir::Block& b) {
    for (const Op& op : b.ops) {
      if (op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::Gather ||
          op.kind == OpKind::Scatter || op.kind == OpKind::Atomic)
        ++array_ops_[op.param];
      for (const ir::Block& r : op.regions) count_array_ops(r);
    }
  }

  // broadcast_to(reshape*(load(a, index))) as one read in the broadcast's layout; astype links
  // apply to the result.
  Expr load_broadcast_expr(const Op& broadcast, const FoldedBroadcast& fold) {
    const Op& load = *fold.load;
    std::string targs = fmt::format("{}, {}, {}", layout(broadcast.results[0]), layout(broadcast.operands[0]),
                                    layout(load.results[0]));
    if (load.padding != ir::PaddingMode::Undetermined)
      targs += fmt::format(", PaddingMode::{}", padding_cpp(load.padding));
    std::string text = fmt::format("load_broadcast<{}>({}, {})", targs, fn_.arrays[load.param].name,
                                   index_list(load, load.operands.size()));
    for (const Op* c : fold.converts) text = astype_call(*c, text);
    return {text};
  }

  static const char* padding_cpp(ir::PaddingMode m) {
    static const char* names[] = {"Undetermined", "Zero", "NegZero", "Nan", "PosInf", "NegInf"};
    return names[static_cast<int>(m)];
  }

  // ---- statements ----

  // Ops [begin, end) of `b` (all of them by default).
  void block(const ir::Block& b, int depth, size_t begin = 0, size_t end = SIZE_MAX) {
    for (size_t i = begin; i < std::min(end, b.ops.size()); ++i) {
      // Trivial ops (constants, parameters) print nothing: look past them.
      size_t next = i + 1;
      while (next < b.ops.size() && is_trivial(b.ops[next])) ++next;
      next_op_ = next < b.ops.size() ? &b.ops[next] : nullptr;
      statement(b.ops[i], depth);
    }
  }

  // A load read once, by the very next op, reads best inside that op's expression: no store
  // can come between them.
  bool load_feeds_next_op(const Op& op) const {
    ValueId r = op.results[0];
    bool read = op.kind == OpKind::Load || (op.kind == OpKind::Gather && !is_block_uniform_effect(fn_, op));
    if (!read || !fn_.values[r].name.empty() || uses_.at(r) != 1 || !next_op_) return false;
    if (!is_expression_op(*next_op_) && next_op_->kind != OpKind::Store && next_op_->kind != OpKind::Scatter) return false;
    return std::find(next_op_->operands.begin(), next_op_->operands.end(), r) != next_op_->operands.end();
  }

  struct LoopVars { std::vector<std::string> vars; };
  std::vector<LoopVars> loops_;

  // Assigns as Python's `a, b = b, a` does: every value is read before any variable is
  // written. A value whose expression names a variable assigned before it in this list is
  // first computed into a temporary.
  void assign_all(const std::vector<std::string>& vars, const std::vector<ValueId>& values, int depth) {
    std::vector<std::string> texts;
    for (size_t k = 0; k < vars.size(); ++k) texts.push_back(expr(values[k]).text);
    for (size_t k = 0; k < vars.size(); ++k) {
      bool reads_assigned = false;
      for (size_t j = 0; j < k && !reads_assigned; ++j)
        reads_assigned = texts[j] != vars[j] && names_identifier(texts[k], vars[j]);
      if (!reads_assigned || texts[k] == vars[k]) continue;
      std::string temporary = fresh_name(vars[k] + "_next");
      line(depth, fmt::format("const auto {} = {};", temporary, texts[k]));
      texts[k] = temporary;
    }
    for (size_t k = 0; k < vars.size(); ++k)
      if (texts[k] != vars[k]) line(depth, fmt::format("{} = {};", vars[k], texts[k]));
  }

  // Whether C++ expression `text` has `name` as a whole identifier (not part of a longer one,
  // nor a member after '.'). String literals are not skipped: naming a variable in one only
  // costs a temporary.
  static bool names_identifier(const std::string& text, const std::string& name) {
    auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
      bool starts = at == 0 || (!is_ident(text[at - 1]) && text[at - 1] != '.');
      bool ends = at + name.size() == text.size() || !is_ident(text[at + name.size()]);
      if (starts && ends) return true;
    }
    return false;
  }

  // The regions of a loop (a while's condition, then its body) up to the closing brace; the
  // loop's results are its carried variables afterwards.
  void loop_body(const Op& op, const LoopVars& lv, const std::vector<const ir::Block*>& regions,
                 const std::vector<ValueId>& old_values, int depth) {
    loops_.push_back(lv);
    region_owner_.push_back(lv.vars);
    plan_direct_assignments(*regions.back(), lv.vars, old_values);
    for (const ir::Block* r : regions) block(*r, depth + 1);
    region_owner_.pop_back();
    loops_.pop_back();
    line(depth, "}");
    for (size_t k = 0; k < lv.vars.size(); ++k) exprs_[op.results[k]] = {lv.vars[k]};
    last_comment_line_ = -1;
  }

  std::string declare_carried(const Op& op, size_t operand, ValueId arg, int depth) {
    ValueId init = op.operands[operand];
    if (mutable_.count(init)) return expr(init).text;
    std::string name = fresh_name(fn_.values[arg].name);
    line(depth, fmt::format("auto {} = {};", name, expr(init).text));
    return name;
  }

  void statement(const Op& op, int depth) {
    if (auto it = plan_.array_barriers.find(&op); it != plan_.array_barriers.end())
      line(depth, fmt::format("{};  // {}: other threads' earlier accesses come first (program order per array)",
                              plan_.blocks_per_cta > 1 ? "sync_block<kThreads, kBlocksPerCta>()" : "__syncthreads()",
                              it->second));
    switch (op.kind) {
      case OpKind::Store: {
        source_comment(op, depth, false);
        const ir::ArrayParam& a = fn_.arrays[op.param];
        size_t n = op.operands.size() - 1;
        ValueId value = op.operands.back();
        if (op.tile_shape.empty()) {
          materialize_operands(op, depth);
          once_per_block_statement(fmt::format("store_scalar({}, {}, {})", a.name, index_list(op, n), expr(value).text), depth, op);
          return;
        }
        std::string ord = order_arg(op);
        line(depth, fmt::format("store{}({}, {}, {}{});", ord.empty() ? "" : "<" + ord + ">", a.name,
                                index_list(op, n), expr(value).text, whole_argument(op)));
        return;
      }
      case OpKind::Scatter: {
        source_comment(op, depth, false);
        if (is_block_uniform_effect(fn_, op)) materialize_operands(op, depth);
        std::string call = element_memory_call(fn_, op, plan_, operand_text());
        if (is_block_uniform_effect(fn_, op)) once_per_block_statement(call, depth, op);
        else line(depth, call + ";");
        return;
      }
      case OpKind::For: {
        source_comment(op, depth, true);
        const ir::Block& body = op.regions[0];
        LoopVars lv;
        for (size_t k = 3; k < op.operands.size(); ++k)
          lv.vars.push_back(declare_carried(op, k, body.args[k - 2], depth));
        ValueId iv = body.args[0];
        std::string ivn = fresh_name(fn_.values[iv].name);
        exprs_[iv] = {ivn};
        for (size_t k = 0; k < lv.vars.size(); ++k) exprs_[body.args[k + 1]] = {lv.vars[k]};
        line(depth, fmt::format("for ({} {} = {}; {} < {}; {} += {}) {{", dtype_cpp_name(fn_.type(iv).dtype), ivn,
                                expr(op.operands[0]).text, ivn, expr(op.operands[1]).text, ivn,
                                expr(op.operands[2]).text));
        loop_body(op, lv, {&body}, std::vector<ValueId>(body.args.begin() + 1, body.args.end()), depth);
        return;
      }
      case OpKind::While: {
        source_comment(op, depth, true);
        LoopVars lv;
        for (size_t k = 0; k < op.operands.size(); ++k)
          lv.vars.push_back(declare_carried(op, k, op.regions[0].args[k], depth));
        for (int r = 0; r < 2; ++r)
          for (size_t k = 0; k < lv.vars.size(); ++k) exprs_[op.regions[r].args[k]] = {lv.vars[k]};
        line(depth, "while (true) {");
        loop_body(op, lv, {&op.regions[0], &op.regions[1]}, op.regions[1].args, depth);
        return;
      }
      case OpKind::If: {
        source_comment(op, depth, true);
        std::vector<std::string> vars;
        for (ValueId r : op.results) {
          std::string name = fresh_name(fn_.values[r].name);
          line(depth, fmt::format("{} {};", cpp_type(fn_.type(r), plan_), name));
          vars.push_back(name);
          exprs_[r] = {name};
        }
        region_owner_.push_back(vars);
        plan_direct_assignments(op.regions[0], vars, {});
        plan_direct_assignments(op.regions[1], vars, {});
        line(depth, fmt::format("if ({}) {{", expr(op.operands[0]).text));
        block(op.regions[0], depth + 1);
        bool has_else = !(op.regions[1].ops.size() == 1 && op.regions[1].ops[0].kind == OpKind::Yield &&
                          op.results.empty());
        if (has_else) {
          line(depth, "} else {");
          block(op.regions[1], depth + 1);
        }
        line(depth, "}");
        region_owner_.pop_back();
        last_comment_line_ = -1;
        return;
      }
      case OpKind::AttentionLoop: {
        // One call runs the whole key loop; its three results are members of what it returns.
        source_comment(op, depth, false, true);
        const int rk = fn_.arrays[op.param].rank, rv = fn_.arrays[op.param_b].rank;
        std::vector<std::string> k_index, v_index;
        for (int d = 0; d < rk; ++d) k_index.push_back(expr(op.operands[3 + d]).text);
        for (int d = 0; d < rv; ++d) v_index.push_back(expr(op.operands[3 + rk + d]).text);
        const size_t inits = op.operands.size() - 3;
        depth_ = depth;
        std::string score = combiner_lambda(op, "&", 1);  // first, so the score's names get no suffix
        std::string mask = combiner_lambda(op, "&", 0);
        std::string name = fresh_name("attention_state");
        const std::string indent(static_cast<size_t>(depth + 1) * 2, ' ');
        const std::string maps = tensor_maps_name(fn_, op);
        line(depth, fmt::format("const auto {} = attention_main_loop<{}>({}, {{{}}}, {}, {{{}}}, {}, {}, {}, {}, {}, {},\n{}{},\n{}{}, smem{});",
                                name, attention_loop_config_name(fn_, op), fn_.arrays[op.param].name,
                                fmt::join(k_index, ", "), fn_.arrays[op.param_b].name, fmt::join(v_index, ", "),
                                expr(op.operands[0]).text, expr(op.operands[1]).text, expr(op.operands[2]).text,
                                expr(op.operands[inits]).text, expr(op.operands[inits + 1]).text,
                                expr(op.operands[inits + 2]).text, indent, mask, indent, score,
                                maps.empty() ? "" : ", &" + maps));
        const char* members[] = {"m", "l", "acc"};
        for (size_t k = 0; k < 3; ++k) exprs_[op.results[k]] = {fmt::format("{}.{}", name, members[k])};
        return;
      }
      case OpKind::Yield: {
        if (in_combiner_) {  // the value (or, for a tuple of tiles, the values) a combiner lambda hands back
          std::vector<std::string> values;
          for (ValueId v : op.operands) values.push_back(expr(v).text);
          if (values.size() == 1) line(depth, fmt::format("return {};", values[0]));
          else line(depth, fmt::format("return {{{}}};", fmt::join(values, ", ")));
          return;
        }
        // Inside an if: assign the if's result variables; inside a loop: the carried ones.
        assign_all(region_owner_.back(), op.operands, depth);
        return;
      }
      case OpKind::Condition:
        if (expr(op.operands[0]).text != "true") line(depth, fmt::format("if (!{}) break;", operand(op.operands[0])));
        return;
      case OpKind::Break: case OpKind::Continue:
        source_comment(op, depth, false);
        assign_all(loops_.back().vars, op.operands, depth);
        line(depth, op.kind == OpKind::Break ? "break;" : "continue;");
        return;
      case OpKind::Return:
        source_comment(op, depth, false);
        line(depth, "return;");
        return;
      case OpKind::Print: {
        source_comment(op, depth, false);
        std::vector<PrintedValue> values;
        for (ValueId v : op.operands) {
          const ir::TileType& t = fn_.type(v);
          // Values are computed by every thread before one prints: an expression may hold a
          // collective (a reduction), which must not run under `if (threadIdx.x == 0)`.
          std::string text = expr(v).text;
          if (text.find('(') != std::string::npos) {
            std::string name = fresh_name(fmt::format("printed_value{}", values.size()));
            line(depth, fmt::format("const auto {} = {};", name, text));
            text = name;
          }
          values.push_back({text, t, t.is_scalar() ? "" : fmt::format("Shape<{}>", fmt::join(t.shape, ", "))});
        }
        for (const auto& l : print_statement(op.text, values)) line(depth, l);
        return;
      }
      case OpKind::Assert:
        source_comment(op, depth, false);
        line(depth, fmt::format("assert_all({}, {});", expr(op.operands[0]).text, cpp_string_literal(op.text[0])));
        return;
      case OpKind::ListItem: {
        source_comment(op, depth, false);
        const ir::ArrayParam& item = fn_.arrays[op.param];
        line(depth, fmt::format("const auto {} = {}[{}];", item.name, fn_.arrays[item.list_of].name,
                                expr(op.operands[0]).text));
        return;
      }
      case OpKind::ArraySelect: {
        // Every candidate is an Array of one element type and rank: a conditional picks one. No
        // source comment: the if that chose already has it.
        const ir::ArrayParam& choice = fn_.arrays[op.param];
        const std::string selector = expr(op.operands[0]).text;
        std::string pick = fn_.arrays[choice.select_of.back()].name;
        for (size_t k = choice.select_of.size() - 1; k-- > 0;)
          pick = fmt::format("{} == {} ? {} : {}", selector, k, fn_.arrays[choice.select_of[k]].name, pick);
        line(depth, fmt::format("const auto {} = {};", choice.name, pick));
        return;
      }
      case OpKind::Reduce: case OpKind::Scan: {
        if (op.results.size() == 1) break;
        // Over a tuple of tiles: one call folds the zipped tiles, and each result is its field.
        source_comment(op, depth, false);
        std::vector<std::string> names;  // of the results read ("mean, m2, _ = ..." gives mean_m2)
        for (ValueId r : op.results)
          if (uses_[r] > 0 && !fn_.values[r].name.empty()) names.push_back(fn_.values[r].name);
        const std::string combined = fresh_name(names.empty() ? "combined" : fmt::format("{}", fmt::join(names, "_")));
        line(depth, fmt::format("const auto {} = {};", combined, expression(op).text));
        for (size_t k = 0; k < op.results.size(); ++k) {
          const ValueId r = op.results[k];
          if (uses_[r] == 0) continue;
          const std::string name = fresh_name(fn_.values[r].name.empty() ? combined : fn_.values[r].name);
          line(depth, fmt::format("const auto {} = field<{}>({});", name, k, combined));
          exprs_[r] = {name};
        }
        return;
      }
      case OpKind::ArraySlice: {
        source_comment(op, depth, false);
        const ir::ArrayParam& view = fn_.arrays[op.param];
        line(depth, fmt::format("const auto {} = slice<{}>({}, {}, {});", view.name, op.axis,
                                fn_.arrays[view.slice_of].name, expr(op.operands[0]).text,
                                expr(op.operands[1]).text));
        return;
      }
      default:
        break;
    }
    // An expression op: inline it, or bind it to a named variable.
    ValueId r = op.results[0];
    if (plan_.broadcast_loads.absorbed.count(r)) return;  // read by its load_broadcast
    depth_ = depth;
    if (is_block_uniform_effect(fn_, op)) {
      source_comment(op, depth, false);
      materialize_operands(op, depth);
    }
    Expr e = expression(op);
    if (std::string proof = mask_true_when(op); !proof.empty())
      e = {fmt::format("true_when_whole({}, {})", proof, e.text)};
    bool named = !fn_.values[r].name.empty() && !is_trivial(op);
    bool single_local_use = uses_[r] == 1 && use_block_[r] == def_block_[r];
    // A loop's carried variable that reuses this value's variable needs that variable, even
    // when the value is a constant that would otherwise be written inline.
    bool inline_ok = !mutable_.count(r) && is_pure(op) && (is_trivial(op) || (!named && single_local_use));
    if (inline_ok || load_feeds_next_op(op)) {
      exprs_[r] = e;
      return;
    }
    if (op.hoisted && last_comment_line_ != op.loc.line) comment(depth, "The same in every iteration of the loop below, so computed once, here:");
    source_comment(op, depth, false, op.kind == OpKind::GemmLoop);
    if (op.kind == OpKind::Atomic && uses_[r] == 0) {  // only the side effect matters
      if (is_block_uniform_effect(fn_, op)) once_per_block_statement(e.text, depth, op);
      else line(depth, e.text + ";");
      return;
    }
    if (is_block_uniform_effect(fn_, op)) e = {fmt::format("once_per_block([&] {{ return {}; }})", e.text)};
    if (auto it = direct_assign_.find(r); it != direct_assign_.end()) {
      line(depth, fmt::format("{} = {};", it->second, e.text));
      exprs_[r] = {it->second};
      return;
    }
    std::string name = fresh_name(variable_base(r));
    line(depth, fmt::format("{} {} = {};", mutable_.count(r) ? "auto" : "const auto", name, e.text));
    exprs_[r] = {name};
  }

  // The name a value's variable is based on: its Python name. A splat of a scalar shares the
  // name with that scalar (sema names both after the Python tile, and element-wise math uses
  // the scalar); when the scalar already holds the name in a variable, the splat reads as
  // `<name>_tile` rather than `<name>_2`.
  std::string variable_base(ValueId r) const {
    const std::string& name = fn_.values[r].name;
    auto it = def_op_.find(r);
    if (name.empty() || it == def_op_.end() || it->second->kind != OpKind::Broadcast) return name;
    ValueId scalar = it->second->operands[0];
    auto e = exprs_.find(scalar);
    bool scalar_holds_name = fn_.type(scalar).is_scalar() && fn_.values[scalar].name == name &&
                             e != exprs_.end() && e->second.text.rfind(name, 0) == 0 &&
                             e->second.text.find_first_not_of(kIdentifierChars) == std::string::npos;
    return scalar_holds_name ? name + "_tile" : name;
  }
  static constexpr const char* kIdentifierChars =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

  std::vector<const Op*> launch_masks_;  // masks the launcher's copy for whole tiles proves true
  const ir::Function& fn_;
  const LayoutPlan& plan_;
  bool line_directives_;
  std::string out_;
  std::map<ValueId, Expr> exprs_;
  std::map<ValueId, int> uses_;
  std::map<int, int> array_ops_;  // array param -> memory ops naming it
  std::map<ValueId, const ir::Block*> use_block_;
  std::map<ValueId, const ir::Block*> def_block_;
  std::map<ValueId, const Op*> def_op_;
  std::set<ValueId> mutable_;
  std::map<ValueId, std::string> direct_assign_;
  std::set<std::string> used_names_;
  std::map<std::string, int> next_suffix_;  // fresh_name: next suffix to try per base
  // The variables a Yield assigns: the innermost if's results or loop's carried values.
  std::vector<std::vector<std::string>> region_owner_;
  int last_comment_line_ = -1;
  const SourceFile* last_comment_file_ = nullptr;
  const Op* next_op_ = nullptr;
  int depth_ = 0;              // the statement being emitted: where a multi-line lambda indents
  bool in_combiner_ = false;   // emitting a combiner region as a lambda body
};

}  // namespace

std::string cpp_type(const ir::TileType& t, const LayoutPlan& plan) {
  if (t.is_scalar()) return dtype_cpp_name(t.dtype);
  return fmt::format("Tile<{}, {}>", dtype_cpp_name(t.dtype), plan.layout(t.shape).name);
}

std::string cpp_literal(const ir::Literal& lit, DType dtype) {
  if (auto* b = std::get_if<bool>(&lit)) {
    if (dtype == DType::Bool) return *b ? "true" : "false";
    return cpp_literal(static_cast<__int128>(*b ? 1 : 0), dtype);
  }
  if (is_float(dtype)) {
    double d = 0;
    if (auto* i = std::get_if<__int128>(&lit)) d = static_cast<double>(*i);
    else d = std::get<double>(lit);
    if (dtype != DType::Float64) d = static_cast<float>(d);  // may overflow to inf: print it as such
    std::string text;
    if (std::isnan(d)) text = dtype == DType::Float64 ? "double(NAN)" : "NAN";
    else if (std::isinf(d)) text = std::string(d < 0 ? "-" : "") + (dtype == DType::Float64 ? "double(INFINITY)" : "INFINITY");
    else {
      text = ir::literal_string(d);
      if (dtype == DType::Float64) {
      } else if (dtype == DType::Float32) {
        text = fmt::format("{}f", fmt::format("{}", static_cast<float>(d)));
        if (text.find_first_of(".eEn") == std::string::npos) text.insert(text.size() - 1, ".0");
      } else {
        std::string f = fmt::format("{}", static_cast<float>(d));
        if (f.find_first_of(".eEn") == std::string::npos) f += ".0";
        text = f + "f";
      }
    }
    if (dtype == DType::Float16) return fmt::format("__half({})", text);
    if (dtype == DType::BFloat16) return fmt::format("__nv_bfloat16({})", text);
    return text;
  }
  // tfloat32 is a struct around a float: a constant is a float rounded as astype() rounds it
  // (an integer in its constructor would not compile).
  if (dtype == DType::TFloat32) return fmt::format("convert<tfloat32>({})", cpp_literal(lit, DType::Float32));
  // The fp8 types' constructors take a float (rounding to nearest); given an integer they
  // would take the truncated value.
  // float8_e8m0fnu's constants are powers of two or NaN (rounded by sema), exact in its
  // constructor's float whatever way that rounds.
  if (dtype == DType::Float8E4M3FN || dtype == DType::Float8E5M2 || dtype == DType::Float8E8M0FNU)
    return fmt::format("{}({})", dtype_cpp_name(dtype), cpp_literal(lit, DType::Float32));
  __int128 v = 0;
  if (auto* i = std::get_if<__int128>(&lit)) v = *i;
  else v = static_cast<__int128>(std::get<double>(lit));
  long long ll = static_cast<long long>(v);
  switch (dtype) {
    case DType::Bool: return v ? "true" : "false";
    case DType::Int32:
      if (v == INT32_MIN) return "int32_t(-2147483647 - 1)";
      return fmt::format("{}", ll);
    case DType::UInt32: return fmt::format("{}u", static_cast<unsigned long long>(v));
    case DType::Int64:
      if (v == INT64_MIN) return "int64_t(-9223372036854775807ll - 1)";
      return fmt::format("int64_t{{{}}}", ll);
    case DType::UInt64: return fmt::format("uint64_t{{{}ull}}", static_cast<unsigned long long>(v));
    default: return fmt::format("{}({})", dtype_cpp_name(dtype), ll);
  }
}

std::string emit_kernel_body(const ir::Function& fn, const LayoutPlan& plan, bool line_directives) {
  return BodyEmitter(fn, plan, line_directives).run();
}

}  // namespace tile2cu
