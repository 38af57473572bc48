#include "ir/ir.hpp"

#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <tuple>

namespace tile2cu::ir {

std::string shape_string(const Shape& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

int64_t shape_elements(const Shape& shape) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  int64_t n = 1;
  bool saturated = false;
  for (int64_t d : shape) {
    if (d <= 0) return 0;  // a later zero still makes the product 0
    if (saturated || n > max / d) saturated = true;
    else n *= d;
  }
  return saturated ? max : n;
}

std::string type_string(const TileType& t) {
  if (t.is_scalar()) return dtype_short_name(t.dtype);
  return fmt::format("tile<{}, {}>", dtype_short_name(t.dtype), fmt::join(t.shape, "x"));
}

const char* op_kind_name(OpKind k) {
  switch (k) {
    case OpKind::Constant: return "constant";
    case OpKind::BlockId: return "block_id";
    case OpKind::NumBlocks: return "num_blocks";
    case OpKind::ScalarParam: return "scalar_param";
    case OpKind::ArrayDim: return "array_dim";
    case OpKind::ArrayStride: return "array_stride";
    case OpKind::Binary: return "binary";
    case OpKind::Compare: return "compare";
    case OpKind::Unary: return "unary";
    case OpKind::Convert: return "convert";
    case OpKind::Select: return "select";
    case OpKind::Broadcast: return "broadcast";
    case OpKind::Reshape: return "reshape";
    case OpKind::Arange: return "arange";
    case OpKind::Reduce: return "reduce";
    case OpKind::Scan: return "scan";
    case OpKind::Permute: return "permute";
    case OpKind::Cat: return "cat";
    case OpKind::Extract: return "extract";
    case OpKind::Insert: return "insert";
    case OpKind::Bitcast: return "bitcast";
    case OpKind::Reinterpret: return "reinterpret";
    case OpKind::Load: return "load";
    case OpKind::Store: return "store";
    case OpKind::Gather: return "gather";
    case OpKind::Scatter: return "scatter";
    case OpKind::Atomic: return "atomic";
    case OpKind::For: return "for";
    case OpKind::If: return "if";
    case OpKind::While: return "while";
    case OpKind::Yield: return "yield";
    case OpKind::Condition: return "condition";
    case OpKind::Break: return "break";
    case OpKind::Continue: return "continue";
    case OpKind::Return: return "return";
    case OpKind::ListItem: return "list_item";
    case OpKind::ListLength: return "list_length";
    case OpKind::ArraySlice: return "array_slice";
    case OpKind::ArraySelect: return "array_select";
    case OpKind::Print: return "print";
    case OpKind::Assert: return "assert";
    case OpKind::Mma: return "mma";
    case OpKind::GemmLoop: return "gemm_loop";
    case OpKind::AttentionLoop: return "attention_loop";
  }
  return "?";
}

const char* binary_kind_name(BinaryKind k) {
  static const char* names[] = {"add", "sub", "mul", "div", "floordiv", "mod", "cdiv", "pow", "minimum",
                                "maximum", "bitwise_and", "bitwise_or", "bitwise_xor",
                                "lshift", "rshift", "atan2"};
  return names[static_cast<int>(k)];
}

const char* compare_kind_name(CompareKind k) {
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[static_cast<int>(k)];
}

const char* unary_kind_name(UnaryKind k) {
  static const char* names[] = {"neg", "not", "bitwise_not", "abs", "exp", "exp2", "log",
                                "log2", "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh",
                                "tanh", "floor", "ceil", "isnan"};
  return names[static_cast<int>(k)];
}

const char* padding_mode_name(PaddingMode m) {
  static const char* names[] = {"undetermined", "zero", "neg_zero", "nan", "pos_inf", "neg_inf"};
  return names[static_cast<int>(m)];
}

const char* atomic_kind_name(AtomicKind k) {
  static const char* names[] = {"add", "max", "min", "and", "or", "xor", "xchg", "cas"};
  return names[static_cast<int>(k)];
}

const char* memory_order_name(MemoryOrder o) {
  static const char* names[] = {"weak", "relaxed", "acquire", "release", "acq_rel"};
  return names[static_cast<int>(o)];
}

const char* memory_scope_name(MemoryScope s) {
  static const char* names[] = {"none", "block", "cluster", "device", "sys"};
  return names[static_cast<int>(s)];
}

const char* rounding_name(Rounding r) {
  static const char* names[] = {"default", "rn", "rz", "rm", "rp", "full", "approx", "ra"};
  return names[static_cast<int>(r)];
}

void for_each_op(const Block& block, const std::function<void(const Op&)>& f) {
  for (const Op& op : block.ops) {
    f(op);
    for (const Block& r : op.regions) for_each_op(r, f);
  }
}

std::vector<bool> referenced_arrays(const Function& fn) {
  std::vector<bool> used(fn.arrays.size(), false);
  auto mark = [&](int param) {
    if (param >= 0 && static_cast<size_t>(param) < used.size()) used[static_cast<size_t>(param)] = true;
  };
  for_each_op(fn.body, [&](const Op& op) {
    switch (op.kind) {
      case OpKind::ScalarParam: return;  // its param indexes fn.scalars
      case OpKind::ListItem: return;     // defines its entry; the list itself is declared apart
      case OpKind::ArraySlice: mark(fn.arrays[static_cast<size_t>(op.param)].slice_of); return;
      case OpKind::ArraySelect:
        for (int candidate : fn.arrays[static_cast<size_t>(op.param)].select_of) mark(candidate);
        return;
      default: mark(op.param); mark(op.param_b);  // GemmLoop / AttentionLoop read two arrays
    }
  });
  return used;
}

bool is_value_arithmetic(OpKind k) {
  switch (k) {
    case OpKind::Constant: case OpKind::Binary: case OpKind::Convert: case OpKind::Compare:
    case OpKind::Unary: case OpKind::Select: case OpKind::ArrayDim: case OpKind::ArrayStride:
    case OpKind::BlockId: case OpKind::NumBlocks: case OpKind::ScalarParam:
      return true;
    default:
      return false;
  }
}

namespace {

// Literals by their bits: 0.0 and -0.0 differ, and a NaN is the same NaN.
bool same_literal(const Literal& a, const Literal& b) {
  if (a.index() != b.index()) return false;
  if (const double* x = std::get_if<double>(&a)) return std::memcmp(x, &std::get<double>(b), sizeof(double)) == 0;
  return a == b;
}

}  // namespace

bool same_attributes(const Op& a, const Op& b) {
  auto attributes = [](const Op& op) {
    return std::tie(op.kind, op.axis, op.param, op.dim, op.binary, op.compare, op.unary, op.rounding,
                    op.flush_to_zero, op.propagate_nan, op.arg, op.reverse, op.axes, op.padding, op.tile_shape,
                    op.order, op.text, op.check_bounds, op.raw_offset, op.atomic, op.memory_order,
                    op.memory_scope, op.param_b, op.tile_shape_b, op.stages, op.hopper_stages);
  };
  if (a.identities.size() != b.identities.size()) return false;
  for (size_t i = 0; i < a.identities.size(); ++i)
    if (!same_literal(a.identities[i], b.identities[i])) return false;
  return same_literal(a.literal, b.literal) && attributes(a) == attributes(b);
}

std::string Function::place_of(const Op& op) const {
  if (op.loc_file < 0) return fmt::format("line {}", op.loc.line);
  const std::string& path = file_of(op)->path();
  return fmt::format("line {} of {}", op.loc.line, path.substr(path.find_last_of('/') + 1));
}

}  // namespace tile2cu::ir
