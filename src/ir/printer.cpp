#include "ir/printer.hpp"

#include <fmt/format.h>

#include <cmath>

namespace tile2cu::ir {

namespace {

std::string int128_string(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  while (u) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

class Printer {
 public:
  explicit Printer(const Function& fn) : fn_(fn) {}

  std::string run() {
    out_ += fmt::format("func @{} = {}({})\n", fn_.spec_name, fn_.kernel_name, fn_.signature);
    for (auto [is_array, i] : fn_.param_order) {
      if (is_array) {
        const ArrayParam& a = fn_.arrays[i];
        std::vector<std::string> dims;
        for (const auto& d : a.static_dims) dims.push_back(d ? std::to_string(*d) : "?");
        std::vector<std::string> strides;
        for (const auto& s : a.static_strides) strides.push_back(s ? std::to_string(*s) : "?");
        out_ += fmt::format("  param {}: {}array<{}, [{}]>{}{}{}{}{}\n", a.name, a.is_list ? "list<" : "",
                            dtype_short_name(a.dtype), fmt::join(dims, ", "), a.is_list ? ">" : "",
                            strides.empty() ? "" : fmt::format(" strides({})", fmt::join(strides, ", ")),
                            a.aligned16 ? " align16" : "", a.contiguous ? " contiguous" : "",
                            a.written ? " written" : "");
      } else {
        out_ += fmt::format("  param {}: {}\n", fn_.scalars[i].name,
                            dtype_short_name(fn_.scalars[i].dtype));
      }
    }
    print_block(fn_.body, 1);
    return out_;
  }

 private:
  std::string value(ValueId v) const {
    const std::string& name = fn_.values[v].name;
    return name.empty() ? fmt::format("%{}", v) : fmt::format("%{}.{}", v, name);
  }

  std::string values(const std::vector<ValueId>& vs, size_t from = 0) const {
    std::vector<std::string> parts;
    for (size_t i = from; i < vs.size(); ++i) parts.push_back(value(vs[i]));
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string attributes(const Op& op) const {
    switch (op.kind) {
      case OpKind::Constant: return " " + literal_string(op.literal);
      case OpKind::BlockId: case OpKind::NumBlocks: return fmt::format(" axis={}", op.axis);
      case OpKind::ScalarParam: return " " + fn_.scalars[op.param].name;
      case OpKind::ArrayDim: case OpKind::ArrayStride:
        return fmt::format(" {}[{}]", fn_.arrays[op.param].name, op.dim);
      case OpKind::ListItem: {
        const ArrayParam& item = fn_.arrays[op.param];
        return fmt::format(" {} of {}", item.name, fn_.arrays[item.list_of].name);
      }
      case OpKind::ListLength: return " " + fn_.arrays[op.param].name;
      case OpKind::ArraySlice: {
        const ArrayParam& view = fn_.arrays[op.param];
        return fmt::format(" {} of {} axis={}", view.name, fn_.arrays[view.slice_of].name, op.axis);
      }
      case OpKind::ArraySelect: {
        const ArrayParam& choice = fn_.arrays[op.param];
        std::vector<std::string> names;
        for (int c : choice.select_of) names.push_back(fn_.arrays[c].name);
        return fmt::format(" {} of {}", choice.name, fmt::join(names, ", "));
      }
      case OpKind::Print: case OpKind::Assert: {
        std::string s;
        for (const auto& t : op.text) s += t;
        std::string quoted;
        for (char c : s) quoted += c == '\n' ? std::string("\\n") : std::string(1, c);
        return fmt::format(" \"{}\"", quoted);
      }
      case OpKind::Binary: return fmt::format(" {}{}", binary_kind_name(op.binary), flags(op));
      case OpKind::Compare: return fmt::format(" {}", compare_kind_name(op.compare));
      case OpKind::Unary: return fmt::format(" {}{}", unary_kind_name(op.unary), flags(op));
      case OpKind::Reduce:
        if (!op.regions.empty())
          return fmt::format(" axes=({}) identity={}", fmt::join(op.axes, ", "), identities(op));
        return fmt::format(" {}{} axes=({}){}", op.arg ? "arg" : "", binary_kind_name(op.binary),
                           fmt::join(op.axes, ", "), flags(op));
      case OpKind::Scan:
        return fmt::format(" {}axis={}{}", op.regions.empty() ? std::string(binary_kind_name(op.binary)) + " " : "",
                           op.axis, op.reverse ? " reverse" : "") +
               (op.regions.empty() ? flags(op) : " identity=" + identities(op));
      case OpKind::Permute: return fmt::format(" order=({})", fmt::join(op.order, ", "));
      case OpKind::Cat: return fmt::format(" axis={}", op.axis);
      case OpKind::GemmLoop:
        return fmt::format(" {} shape={} x {} shape={} stages={}{}", fn_.arrays[op.param].name, shape_string(op.tile_shape),
                           fn_.arrays[op.param_b].name, shape_string(op.tile_shape_b), op.stages,
                           op.hopper_stages ? fmt::format(" hopper_stages={}", op.hopper_stages) : "") +
               (op.order.empty() ? "" : fmt::format(" b_order=({})", fmt::join(op.order, ", ")));
      case OpKind::AttentionLoop:
        return fmt::format(" {} shape={} order=({}) x {} shape={} stages={} {}", fn_.arrays[op.param].name,
                           shape_string(op.tile_shape), fmt::join(op.order, ", "), fn_.arrays[op.param_b].name,
                           shape_string(op.tile_shape_b), op.stages, unary_kind_name(op.unary));
      case OpKind::Load: case OpKind::Store: {
        std::string s = fmt::format(" {} shape={}", fn_.arrays[op.param].name,
                                    shape_string(op.tile_shape));
        bool identity = true;
        for (size_t i = 0; i < op.order.size(); ++i) identity &= op.order[i] == static_cast<int>(i);
        if (!identity) s += fmt::format(" order=({})", fmt::join(op.order, ", "));
        if (op.kind == OpKind::Load) s += fmt::format(" padding={}", padding_mode_name(op.padding));
        return s;
      }
      case OpKind::Gather: case OpKind::Scatter:
        return fmt::format(" {}{}{}", fn_.arrays[op.param].name, op.raw_offset ? " raw_offset" : "",
                           op.check_bounds ? "" : " unchecked");
      case OpKind::Atomic:
        return fmt::format(" {} {}{} {} {}{}", atomic_kind_name(op.atomic), fn_.arrays[op.param].name,
                           op.raw_offset ? " raw_offset" : "", memory_order_name(op.memory_order),
                           memory_scope_name(op.memory_scope), op.check_bounds ? "" : " unchecked");
      default: return "";
    }
  }

  // A combiner's identity, or its tuple of identities (one per operand): "0.0", "(inf, 0)".
  static std::string identities(const Op& op) {
    std::vector<std::string> items;
    for (const Literal& l : op.identities) items.push_back(literal_string(l));
    if (op.operands.size() == 1 && items.size() == 1) return items[0];
    return fmt::format("({})", fmt::join(items, ", "));
  }

  static std::string flags(const Op& op) {
    std::string s;
    if (op.rounding != Rounding::Default) s += fmt::format(" rounding={}", rounding_name(op.rounding));
    if (op.flush_to_zero) s += " ftz";
    if (op.propagate_nan) s += " propagate_nan";
    return s;
  }

  void print_block(const Block& block, int depth) {
    for (const Op& op : block.ops) print_op(op, depth);
  }

  void line(int depth, const std::string& text) {
    out_.append(static_cast<size_t>(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  std::string results_prefix(const Op& op) const {
    return op.results.empty() ? "" : values(op.results) + " = ";
  }

  std::string result_types(const Op& op) const {
    std::vector<std::string> types;
    for (ValueId r : op.results) types.push_back(type_string(fn_.type(r)));
    return types.empty() ? "" : fmt::format(" : {}", fmt::join(types, ", "));
  }

  void print_op(const Op& op, int depth) {
    switch (op.kind) {
      case OpKind::For: {
        const Block& body = op.regions[0];
        line(depth, fmt::format("{}for {} = {} to {} step {} iter({}) init({}){} {{",
                                results_prefix(op), value(body.args[0]), value(op.operands[0]),
                                value(op.operands[1]), value(op.operands[2]),
                                values(body.args, 1), values(op.operands, 3), result_types(op)));
        print_block(body, depth + 1);
        line(depth, "}");
        return;
      }
      case OpKind::If:
        line(depth, fmt::format("{}if {}{} {{", results_prefix(op), value(op.operands[0]),
                                result_types(op)));
        print_block(op.regions[0], depth + 1);
        line(depth, "} else {");
        print_block(op.regions[1], depth + 1);
        line(depth, "}");
        return;
      case OpKind::While:
        line(depth, fmt::format("{}while iter({}) init({}){} {{", results_prefix(op),
                                values(op.regions[0].args), values(op.operands),
                                result_types(op)));
        print_block(op.regions[0], depth + 1);
        line(depth, fmt::format("}} do iter({}) {{", values(op.regions[1].args)));
        print_block(op.regions[1], depth + 1);
        line(depth, "}");
        return;
      case OpKind::AttentionLoop:  // mask: (row, col, j) -> whether it holds; score: (s, row, col, j, interior) -> s
        line(depth, fmt::format("{}{}{} {}{} mask({}) {{", results_prefix(op), op_kind_name(op.kind), attributes(op),
                                values(op.operands), result_types(op), values(op.regions[0].args)));
        print_block(op.regions[0], depth + 1);
        line(depth, fmt::format("}} score({}) {{", values(op.regions[1].args)));
        print_block(op.regions[1], depth + 1);
        line(depth, "}");
        return;
      case OpKind::Reduce: case OpKind::Scan:
        if (!op.regions.empty()) {  // a user combiner: (a, b) -> value
          line(depth, fmt::format("{}{}{} {}{} combine({}) {{", results_prefix(op), op_kind_name(op.kind),
                                  attributes(op), values(op.operands), result_types(op), values(op.regions[0].args)));
          print_block(op.regions[0], depth + 1);
          line(depth, "}");
          return;
        }
        [[fallthrough]];
      default:
        line(depth, fmt::format("{}{}{}{}{}{}", results_prefix(op), op_kind_name(op.kind),
                                attributes(op), op.operands.empty() ? "" : " " + values(op.operands),
                                result_types(op), op.hoisted ? "  // hoisted out of the loop below" : ""));
    }
  }

  const Function& fn_;
  std::string out_;
};

}  // namespace

std::string literal_string(const Literal& lit) {
  if (auto* i = std::get_if<__int128>(&lit)) return int128_string(*i);
  if (auto* b = std::get_if<bool>(&lit)) return *b ? "true" : "false";
  double d = std::get<double>(lit);
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";
  return s;
}

std::string print_function(const Function& fn) { return Printer(fn).run(); }

std::string print_module(const Module& module) {
  std::string out;
  for (const Function& fn : module.functions) {
    if (!out.empty()) out += '\n';
    out += print_function(fn);
  }
  return out;
}

}  // namespace tile2cu::ir
