// f-strings (spec a.5, c.12). An f-string evaluates to a FormattedStrValue: its replacement
// fields keep their values and literal format specs until print turns them into printf
// conversions, as cuTile's FormattedString does. Strings, tuples and other constants that are
// not numbers are str()-ed into the text right away, again as cuTile does.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstring>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

Value KernelLowering::formatted_string(const ast::FString& f) {
  FormattedStrValue out;
  out.texts.emplace_back();
  for (const ast::FStringPiece& piece : f.pieces) {
    if (!piece.value) {
      out.texts.back() += piece.text;
      continue;
    }
    // check_syntax has made sure the spec is literal text; `{x:}` has an empty one, no spec.
    std::optional<std::string> spec;
    if (!piece.format_spec.empty() && !piece.format_spec[0].text.empty()) spec = piece.format_spec[0].text;
    append_formatted(out, eval(piece.value), spec, piece.range);
  }
  return make(std::move(out));
}

void KernelLowering::append_formatted(FormattedStrValue& out, const Value& v,
                                      const std::optional<std::string>& spec, SourceRange range) {
  if (v.is<Runtime>() || v.is_loose()) {
    out.fields.push_back({std::make_shared<const Value>(v), spec, range});
    out.texts.emplace_back();
    return;
  }
  if (spec)
    error(ErrorKind::Type, range, fmt::format("f-string: cannot apply format spec to a value of type {}", describe(v)));
  if (auto* nested = v.as<FormattedStrValue>()) {
    out.texts.back() += nested->texts[0];
    for (size_t i = 0; i < nested->fields.size(); ++i) {
      out.fields.push_back(nested->fields[i]);
      out.texts.push_back(nested->texts[i + 1]);
    }
    return;
  }
  if (auto* tuple = v.as<TupleValue>()) {  // str(tuple): its items' str, in parentheses
    out.texts.back() += "(";
    for (size_t i = 0; i < tuple->items.size(); ++i) {
      if (i) out.texts.back() += ", ";
      append_formatted(out, tuple->items[i], std::nullopt, range);
    }
    out.texts.back() += tuple->items.size() == 1 ? ",)" : ")";
    return;
  }
  if (v.is<StrValue>() || v.is<NoneValue>() || v.is<DTypeValue>() || v.is<EnumValue>()) {
    out.texts.back() += python_str(v);
    return;
  }
  if (auto* a = v.as<ArrayValue>()) {  // the array's compile-time proxy, as cuTile str()s it
    out.texts.back() += array_proxy_repr(a->param);
    return;
  }
  error(ErrorKind::UnsupportedFeature, range,
        fmt::format("formatting a {} in an f-string is not supported yet by tile2cu", describe(v)));
}

// str() of an array inside tile code, cuTile's proxy: "<array[int32, ()]>", "<array[float32, (?, 8)]>"
// (a dimension known only at run time is "?").
std::string KernelLowering::array_proxy_repr(int param) const {
  const ir::ArrayParam& a = fn_.arrays[param];
  std::vector<std::string> dims;
  for (int d = 0; d < a.rank; ++d)
    dims.push_back(d < int(a.static_dims.size()) && a.static_dims[d] ? std::to_string(*a.static_dims[d]) : "?");
  return fmt::format("<array[{}, ({}{})]>", dtype_name(a.dtype), fmt::join(dims, ", "), dims.size() == 1 ? "," : "");
}

// cuTile's reading of a Python format spec: [align][sign][#][0][width][.precision][type],
// where `<` left-aligns, `+` and ` ` are sign flags, and a missing type is the dtype's own
// conversion. Fill characters, `,` / `_` grouping, `%`, `s` and the like have no printf form.
std::string KernelLowering::printf_conversion(const std::string& spec, DType dtype, SourceRange range) const {
  size_t i = 0;
  auto take = [&](const char* set) -> char {
    if (i < spec.size() && spec[i] && std::strchr(set, spec[i])) return spec[i++];
    return 0;
  };
  auto digits = [&] {
    size_t begin = i;
    while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9') ++i;
    return spec.substr(begin, i - begin);
  };
  char align = take("<>^");
  char sign = take("+ -");
  bool alternate = take("#") != 0;
  bool zero = take("0") != 0;
  std::string width = digits();
  std::string precision;
  bool precision_ok = true;
  if (take(".")) {
    precision = digits();
    precision_ok = !precision.empty();
    precision.insert(0, ".");
  }
  char type = take("diouxXeEfFgGaA");
  if (i != spec.size() || !precision_ok)
    error(ErrorKind::Value, range, fmt::format("print(): unsupported format spec '{}'", spec));
  std::string flags;
  if (align == '<') flags += '-';
  if (sign == '+' || sign == ' ') flags += sign;
  if (alternate) flags += '#';
  if (zero && align != '<') flags += '0';
  bool integral = !is_float(dtype);
  std::string conversion;
  if (!type) {
    conversion = is_float(dtype) ? "f" : dtype == DType::Bool ? "d" : is_signed_integer(dtype) ? "d" : "u";
  } else {
    if (integral != (std::strchr("diouxX", type) != nullptr))
      error(ErrorKind::Type, range,
            fmt::format("print(): format spec '{}' is incompatible with dtype {}", spec, dtype_name(dtype)));
    conversion = type;
  }
  // printf needs the length of 64-bit integers, also where the spec names the type.
  if (integral && dtype_bits(dtype) == 64) conversion.insert(0, "ll");
  std::string out = "%";
  for (const std::string* part : {&flags, &width, &precision, &conversion}) out += *part;
  return out;
}

std::string KernelLowering::fold_printed_constant(const Value& v, const std::string& conversion,
                                                  SourceRange range) const {
  char buffer[512];
  int n = 0;
  if (auto* f = v.as<LooseFloat>()) {  // the float32 constant cuTile would print
    n = std::snprintf(buffer, sizeof buffer, conversion.c_str(), static_cast<double>(static_cast<float>(f->value)));
  } else {
    DType dtype = default_dtype(v, range);
    __int128 value = v.is<LooseBool>() ? __int128(v.as<LooseBool>()->value) : v.as<LooseInt>()->value;
    if (dtype_bits(dtype) == 64) {
      n = is_signed_integer(dtype) ? std::snprintf(buffer, sizeof buffer, conversion.c_str(), static_cast<long long>(value))
                                   : std::snprintf(buffer, sizeof buffer, conversion.c_str(), static_cast<unsigned long long>(value));
    } else {
      n = std::snprintf(buffer, sizeof buffer, conversion.c_str(), static_cast<int>(value));
    }
  }
  if (n < 0 || static_cast<size_t>(n) >= sizeof buffer)
    error(ErrorKind::Value, range, fmt::format("printing a constant with '{}' makes more than {} characters", conversion, sizeof buffer - 1));
  return std::string(buffer, static_cast<size_t>(n));
}

}  // namespace tile2cu::sema
