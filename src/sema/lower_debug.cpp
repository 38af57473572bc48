// Debugging (spec c.12, h.1): ct.print / builtin print (Python style), ct.printf (C style) and
// ct.assert_. A cuTile kernel body runs once per block, so each prints one line per block and
// an assertion reports once per failing block; the emitter has one thread do the printing.
// Printed values become printf conversions chosen by dtype (ints %d/%u/%lld/%llu, floats %f).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <functional>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

std::string escape_percent(const std::string& s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

// The printf conversion cuTile infers for a dtype.
std::string default_conversion(DType t) {
  if (is_float(t)) return "%f";
  if (t == DType::Bool) return "%d";
  bool wide = dtype_bits(t) == 64;
  if (is_signed_integer(t)) return wide ? "%lld" : "%d";
  return wide ? "%llu" : "%u";
}

}  // namespace

std::optional<Value> KernelLowering::debug_call(const std::string& name, CallArgs& args, SourceRange range) {
  const bool python_print = name == "ct.print" || name == "print";
  if (!python_print && name != "ct.printf" && name != "ct.assert_") return std::nullopt;
  std::vector<std::string> text{""};
  std::vector<ir::ValueId> values;
  // Appends a value: constants become text, run-time values a conversion.
  std::function<void(const Value&, SourceRange, const std::string&)> add_value;
  // An f-string: its fields print through the conversions their specs make; constant fields
  // are printed here, at compile time, exactly as printf would print them on the device.
  auto add_formatted = [&](const FormattedStrValue& f) {
    text.back() += escape_percent(f.texts[0]);
    for (size_t i = 0; i < f.fields.size(); ++i) {
      const FormattedStrValue::Field& field = f.fields[i];
      const Value& v = *field.value;
      DType dtype = default_dtype(v, field.range);
      std::string conversion = field.spec ? printf_conversion(*field.spec, dtype, field.range) : default_conversion(dtype);
      if (v.is<Runtime>()) add_value(v, field.range, conversion);
      else text.back() += escape_percent(fold_printed_constant(v, conversion, field.range));
      text.back() += escape_percent(f.texts[i + 1]);
    }
  };
  add_value = [&](const Value& v, SourceRange r, const std::string& conversion) {
    if (auto* f = v.as<FormattedStrValue>()) return add_formatted(*f);
    if (v.is<Runtime>()) {
      values.push_back(v.as<Runtime>()->id);
      text.push_back(conversion.empty() ? default_conversion(type_of(values.back()).dtype) : conversion);
      text.push_back("");
      return;
    }
    if (!is_constant(v) || v.is<FunctionValue>() || v.is<ModuleValue>() || v.is<BuiltinValue>())
      error(ErrorKind::Type, r, fmt::format("{}() cannot print {}", name, describe(v)));
    text.back() += escape_percent(python_str(v));
  };

  if (name == "ct.assert_") {
    if (args.positional.empty() || args.positional.size() > 2)
      error(ErrorKind::Type, range, "ct.assert_() takes a condition and an optional message");
    std::optional<Value> message = args.positional.size() == 2 ? std::optional(args.positional[1]) : std::nullopt;
    for (size_t i = 0; i < args.keywords.size(); ++i) {
      if (args.keywords[i].first != "message" || message)
        error(ErrorKind::Type, args.keyword_ranges[i], fmt::format("ct.assert_() got an unexpected keyword argument '{}'", args.keywords[i].first));
      message = args.keywords[i].second;
    }
    const Value& cond = args.positional[0];
    if (value_dtype(cond) != DType::Bool)
      error(ErrorKind::Type, args.positional_ranges[0],
            fmt::format("ct.assert_() expects a bool tile or scalar, got {}", describe(cond)));
    std::string what = "assertion failed";
    if (message && !message->is<NoneValue>()) {
      auto* s = message->as<StrValue>();
      if (!s) error(ErrorKind::Type, range, "ct.assert_(): the message must be a constant string");
      what += ": " + s->value;
    }
    if (auto* b = cond.as<LooseBool>()) {
      if (!b->value) error(ErrorKind::Type, args.positional_ranges[0], "ct.assert_() on a constant False always fails; use ct.static_assert()");
      return make(NoneValue{});
    }
    ir::Op op = make_op(ir::OpKind::Assert, {cond.as<Runtime>()->id});
    // The file's name without its folders: generated code must not depend on where it was built.
    std::string file = current_file() ? current_file()->path() : "kernel";
    if (auto slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
    op.text = {fmt::format("{}:{}: {}", file, range.line, escape_percent(what))};
    emit(std::move(op), {});
    return make(NoneValue{});
  }

  if (python_print) {
    Value sep = make(StrValue{" "}), end = make(StrValue{"\n"});
    SourceRange sep_range = range, end_range = range;
    for (size_t i = 0; i < args.keywords.size(); ++i) {
      const auto& [key, v] = args.keywords[i];
      bool text_like = v.is<StrValue>() || v.is<FormattedStrValue>();
      if ((key != "sep" && key != "end") || !(text_like || v.is<NoneValue>()))
        error(ErrorKind::Type, args.keyword_ranges[i],
              fmt::format("{}() takes only the keywords sep and end, as strings", name));
      if (!text_like) continue;
      (key == "sep" ? sep : end) = v;
      (key == "sep" ? sep_range : end_range) = args.keyword_ranges[i];
    }
    for (size_t i = 0; i < args.positional.size(); ++i) {
      if (i) add_value(sep, sep_range, "");
      add_value(args.positional[i], args.positional_ranges[i], "");
    }
    add_value(end, end_range, "");
  } else {  // ct.printf(format, *args)
    if (!args.positional.empty() && !args.positional[0].is<StrValue>())
      error(ErrorKind::Type, args.positional_ranges[0],
            fmt::format("Invalid argument \"format\" of printf(): Expected a string constant, but given value {}",
                        args.positional[0].is<Runtime>() ? "is not constant" : "has type " + cutile_type(args.positional[0])));
    if (args.positional.empty() || !args.keywords.empty())
      error(ErrorKind::Type, range, "ct.printf() takes a constant format string and the values to print");
    const std::string& f = args.positional[0].as<StrValue>()->value;
    size_t next = 1;
    for (size_t i = 0; i < f.size(); ++i) {
      if (f[i] != '%') {
        text.back() += f[i];
        continue;
      }
      if (i + 1 < f.size() && f[i + 1] == '%') {
        text.back() += "%%";
        ++i;
        continue;
      }
      // %[flags][width][.precision][length]conversion; the length is chosen from the dtype.
      size_t j = i + 1;
      std::string spec = "%";
      while (j < f.size() && std::strchr("-+ #0", f[j])) spec += f[j++];
      while (j < f.size() && (std::isdigit(static_cast<unsigned char>(f[j])) || f[j] == '.')) spec += f[j++];
      while (j < f.size() && std::strchr("hlLqjzt", f[j])) ++j;
      // C's conversions that print no number (%c %s %p %n) are refused by name; anything else
      // that is not a conversion makes the format ill-formed.
      if (j < f.size() && std::strchr("cspn", f[j]))
        error(ErrorKind::Type, args.positional_ranges[0],
              fmt::format("ct.printf(): Specifier {} in {} is not supported", f[j], f.substr(i, j - i + 1)));
      if (j >= f.size() || !std::strchr("diuoxXeEfFgGaA", f[j]))
        error(ErrorKind::Type, args.positional_ranges[0],
              fmt::format("ct.printf(): Invalid format string: '{}' is not a conversion "
                          "(%d %i %u %o %x %X for integers, %e %E %f %F %g %G %a %A for floats)",
                          f.substr(i, std::min(j + 1, f.size()) - i)));
      char conv = f[j];
      if (next >= args.positional.size())
        error(ErrorKind::Type, range, "ct.printf(): Not enough arguments for format string");
      Value v = args.positional[next];
      // A Python number prints with the dtype it would get in a tile (int32, float32, ...).
      if (v.is<LooseInt>() || v.is<LooseFloat>() || v.is<LooseBool>())
        v = make(Runtime{to_runtime(v, args.positional_ranges[next])});
      auto dt = value_dtype(v);
      if (!dt)
        error(ErrorKind::Type, args.positional_ranges[next],
              fmt::format("ct.printf() prints tiles and scalars, got {}", describe(v)));
      bool float_conv = std::strchr("eEfFgGaA", conv) != nullptr;
      // Restricted floats (tfloat32, fp8) print through a float conversion, as cuTile's do.
      const bool float_value = is_float(*dt) || is_restricted(*dt);
      if (float_conv != float_value)
        error(ErrorKind::Type, args.positional_ranges[next],
              fmt::format("ct.printf(): Format {} for arg #{} got unexpected type of {}",
                          f.substr(i, j - i + 1), next - 1, cutile_type(v)));
      if (!float_conv && dtype_bits(*dt) == 64) spec += "ll";
      spec += conv;
      add_value(v, args.positional_ranges[next], spec);
      ++next;
      i = j;
    }
    if (next < args.positional.size())
      error(ErrorKind::Type, args.positional_ranges[next], "ct.printf(): Too many arguments for format string");
  }
  ir::Op op = make_op(ir::OpKind::Print, values);
  op.text = std::move(text);
  emit(std::move(op), {});
  return make(NoneValue{});
}

}  // namespace tile2cu::sema
