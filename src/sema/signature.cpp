#include "sema/signature.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <memory>

#include "ir/printer.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu {

namespace {

// A hand-written recursive-descent parser: the grammar is tiny, and errors point into the text.
class SignatureParser {
 public:
  SignatureParser(std::string_view text, const std::string& origin)
      : text_(text), file_(std::make_shared<SourceFile>(origin, std::string(text))) {}

  KernelSignature parse() {
    KernelSignature sig;
    sig.text = std::string(text_);
    // Optional "name =" and "kernel(": look ahead for '(' before any '='.
    size_t save = pos_;
    std::string first = identifier_or_empty();
    skip_space();
    if (!first.empty() && peek() == '=' && text_.substr(pos_, 2) != "==") {
      size_t after_eq = pos_ + 1;
      pos_ = after_eq;
      std::string second = identifier_or_empty();
      skip_space();
      if (!second.empty() && peek() == '(') {
        sig.spec_name = first;
        sig.kernel = second;
        ++pos_;
        parse_params(sig, ')');
        return finish(sig);
      }
      pos_ = save;
    } else if (!first.empty() && peek() == '(') {
      sig.kernel = first;
      ++pos_;
      parse_params(sig, ')');
      return finish(sig);
    } else {
      pos_ = save;
    }
    parse_params(sig, '\0');
    return finish(sig);
  }

 private:
  KernelSignature finish(KernelSignature& sig) {
    skip_space();
    if (pos_ < text_.size()) error("unexpected text after the signature");
    return std::move(sig);
  }

  [[noreturn]] void error(const std::string& what) {
    int col = static_cast<int>(pos_) + 1;
    SourceRange r{1, col, 1, col + 1};
    throw CompileError(ErrorKind::Signature, what, std::shared_ptr<const SourceFile>(file_), r);
  }

  // Tuples and lists nest by recursion: refused past kMaxNesting, so no text overflows the stack.
  static constexpr int kMaxNesting = 100;
  class NestingGuard {
   public:
    explicit NestingGuard(SignatureParser& parser) : depth_(parser.depth_) {
      if (++depth_ > kMaxNesting)
        parser.error(fmt::format("nesting too deep (more than {} levels of tuples and lists)", kMaxNesting));
    }
    ~NestingGuard() { --depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    int& depth_;
  };

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string identifier_or_empty() {
    skip_space();
    size_t start = pos_;
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) error(fmt::format("expected '{}'", c));
    ++pos_;
  }

  void parse_params(KernelSignature& sig, char close) {
    skip_space();
    if (peek() == close) {
      if (close) ++pos_;
      return;
    }
    while (true) {
      sig.params.push_back(parse_param());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
        if (peek() == close) break;  // trailing comma
        continue;
      }
      break;
    }
    skip_space();
    if (close) expect(close);
  }

  ParameterConstraint parse_param() {
    ParameterConstraint p;
    size_t save = pos_;
    std::string name = identifier_or_empty();
    skip_space();
    if (!name.empty() && peek() == '=') {
      ++pos_;
      p.name = name;
      seen_named_ = true;
    } else {
      pos_ = save;
      skip_space();
      if (seen_named_) error("a positional constraint cannot follow a named one");
    }
    p.constraint = parse_constraint();
    return p;
  }

  Constraint parse_constraint() {
    NestingGuard nesting(*this);
    skip_space();
    char c = peek();
    if (c == '(') return parse_tuple();
    if (c == '-' || c == '+' || c == '.' || std::isdigit(static_cast<unsigned char>(c)))
      return ConstantConstraint{parse_literal()};
    size_t start = pos_;
    std::string word = identifier_or_empty();
    if (word.empty()) error("expected a dtype, an array type such as float32[?], or a constant");
    if (word == "True" || word == "False") return ConstantConstraint{{word == "True"}};
    // A float Constant that is no finite number, spelled as Python's repr() spells it.
    if (word == "inf" || word == "nan") return ConstantConstraint{{word == "inf" ? HUGE_VAL : std::nan("")}};
    if (word == "list") {
      skip_space();
      expect('[');
      size_t at = pos_;
      auto element = parse_constraint();
      auto* array = std::get_if<ArrayConstraint>(&element);
      if (!array) {
        pos_ = at;
        error("a list holds arrays: write list[dtype[dims]], e.g. list[float32[?, ?]]");
      }
      skip_space();
      expect(']');
      return ListConstraint{*array};
    }
    auto dtype = parse_dtype(word);
    if (!dtype) {
      pos_ = start;
      error(fmt::format("unknown dtype '{}'", word));
    }
    skip_space();
    if (peek() != '[') {
      if (is_restricted(*dtype)) {
        pos_ = start;
        error(fmt::format("{} is not a scalar parameter dtype (restricted float: arrays only)", dtype_name(*dtype)));
      }
      return ScalarConstraint{*dtype};
    }
    if (*dtype == DType::TFloat32) {
      pos_ = start;
      error("tfloat32 arrays do not exist: pass float32 and convert tiles with astype(ct.tfloat32)");
    }
    ++pos_;
    ArrayConstraint a{*dtype, {}};
    skip_space();
    while (peek() != ']') {
      skip_space();
      if (peek() == '?') {
        ++pos_;
        a.dims.push_back(std::nullopt);
      } else if (!std::isdigit(static_cast<unsigned char>(peek()))) {
        error(peek() == '\0' ? "expected ']' to close the array dimensions"
                              : "an array dimension is ? or a positive integer");
      } else {
        size_t at = pos_;
        ConstantLiteral lit = parse_literal();
        auto* v = std::get_if<__int128>(&lit.value);
        if (!v || *v <= 0) {
          pos_ = at;
          error("an array dimension is ? or a positive integer");
        }
        if (*v > INT64_MAX) {  // a uint64 constant is no shape
          pos_ = at;
          error("integer out of range of int64");
        }
        a.dims.push_back(static_cast<int64_t>(*v));
      }
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ']') error("expected ',' or ']'");
    }
    ++pos_;
    if (a.dims.size() > 5) error("arrays of rank above 5 are not supported");
    while (true) {
      size_t at = pos_;
      std::string flag = identifier_or_empty();
      if (flag == "align16") a.aligned16 = true;
      else if (flag == "contiguous") a.contiguous = true;
      else if (flag == "strides" && a.strides.empty()) parse_strides(a);
      else {
        pos_ = at;
        break;
      }
    }
    if (a.contiguous && !a.strides.empty() && a.strides.back() && *a.strides.back() != 1)
      error(fmt::format("contiguous (last stride 1) contradicts strides(...) giving the last stride {}",
                        *a.strides.back()));
    return a;
  }

  // strides(s0, s1, ...): one per dim, each ? or an integer >= 0 (0: a broadcast axis).
  void parse_strides(ArrayConstraint& a) {
    skip_space();
    expect('(');
    size_t open = pos_;
    skip_space();
    while (peek() != ')') {
      skip_space();
      if (peek() == '?') {
        ++pos_;
        a.strides.push_back(std::nullopt);
      } else if (!std::isdigit(static_cast<unsigned char>(peek()))) {
        error(peek() == '\0' ? "expected ')' to close the strides" : "a stride is ? or an integer from 0 to 2147483647");
      } else {
        size_t at = pos_;
        ConstantLiteral lit = parse_literal();
        auto* v = std::get_if<__int128>(&lit.value);
        if (!v || *v < 0 || *v > INT32_MAX) {  // kernels index with int32
          pos_ = at;
          error("a stride is ? or an integer from 0 to 2147483647");
        }
        a.strides.push_back(static_cast<int64_t>(*v));
      }
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') error("expected ',' or ')'");
    }
    ++pos_;
    if (a.strides.size() != a.dims.size()) {
      pos_ = open;
      error(fmt::format("strides(...) gives {} strides for an array of rank {}", a.strides.size(), a.dims.size()));
    }
  }

  // (item, ...): a tuple of constants is one constant; with an array, scalar or list in it (at
  // any depth), a tuple parameter.
  Constraint parse_tuple() {
    expect('(');
    TupleConstraint t;
    skip_space();
    while (peek() != ')') {
      if (peek() == '\0') error("expected ')' to close the tuple");
      t.items.push_back(ParameterConstraint{{}, parse_constraint()});
      skip_space();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') error("expected ',' or ')'");
      skip_space();
    }
    ++pos_;
    ConstantLiteral all{std::vector<ConstantLiteral>{}};
    for (const auto& item : t.items) {
      auto* c = std::get_if<ConstantConstraint>(&item.constraint);
      if (!c) return t;
      std::get<std::vector<ConstantLiteral>>(all.value).push_back(c->value);
    }
    return ConstantConstraint{all};
  }

  ConstantLiteral parse_literal() {
    NestingGuard nesting(*this);
    skip_space();
    if (peek() == '(') {
      ++pos_;
      std::vector<ConstantLiteral> items;
      skip_space();
      while (peek() != ')') {
        items.push_back(parse_literal());
        skip_space();
        if (peek() == ',') ++pos_;
        else if (peek() != ')') error("expected ',' or ')'");
        skip_space();
      }
      ++pos_;
      return {items};
    }
    size_t start = pos_;
    std::string word = identifier_or_empty();
    if (word == "True" || word == "False") return {word == "True"};
    if (word == "inf" || word == "nan") return {word == "inf" ? HUGE_VAL : std::nan("")};
    if (!word.empty()) {
      pos_ = start;
      error("expected a number, True, False or a tuple");
    }
    if (peek() == '-' || peek() == '+') ++pos_;
    if (text_.substr(pos_, 3) == "inf" || text_.substr(pos_, 3) == "nan") {  // -inf, +inf (repr of a float)
      const bool nan = text_.substr(pos_, 3) == "nan";
      pos_ += 3;
      if (nan) return {std::nan("")};
      return {text_[start] == '-' ? -HUGE_VAL : HUGE_VAL};
    }
    bool is_float = false;
    while (pos_ < text_.size()) {
      char ch = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(ch))) ++pos_;
      else if (ch == '.' || ch == 'e' || ch == 'E' ||
               ((ch == '-' || ch == '+') && (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E'))) {
        is_float = true;
        ++pos_;
      } else break;
    }
    std::string number(text_.substr(start, pos_ - start));
    if (number.empty() || number == "-" || number == "+") {
      pos_ = start;
      error("expected a number");
    }
    if (!is_float) {
      // An integer constant is int64, or uint64 in [2**63, 2**64) as cuTile types it; one
      // outside both is refused here, at its digits, rather than wrapping in the kernel.
      const bool negative = number[0] == '-';
      const __int128 limit = negative ? static_cast<__int128>(INT64_MAX) + 1 : static_cast<__int128>(UINT64_MAX);
      __int128 v = 0;
      for (size_t i = (negative || number[0] == '+') ? 1 : 0; i < number.size(); ++i) {
        v = v * 10 + (number[i] - '0');
        if (v > limit) {
          pos_ = start;
          error("integer out of range of int64 and uint64");
        }
      }
      return {negative ? -v : v};
    }
    try {
      return {std::stod(number)};
    } catch (const std::exception&) {
      pos_ = start;
      error("number out of range");
    }
  }

  std::string_view text_;
  std::shared_ptr<SourceFile> file_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool seen_named_ = false;
};

}  // namespace

KernelSignature parse_signature(std::string_view text, const std::string& origin) {
  return SignatureParser(text, origin).parse();
}

void refuse_signature_past_limit(std::string_view text, const std::string& origin) {
  throw CompileError(ErrorKind::Signature,
                     fmt::format("more than {} signatures: tile2cu's limit for one transpile", kMaxSignatures),
                     std::make_shared<const SourceFile>(origin, std::string(text)), SourceRange{1, 1, 1, 2});
}

std::vector<KernelSignature> parse_signature_file(std::string_view contents,
                                                  const std::string& path) {
  std::vector<KernelSignature> out;
  int line_no = 0;
  size_t start = 0;
  while (start <= contents.size()) {
    size_t end = contents.find('\n', start);
    if (end == std::string_view::npos) end = contents.size();
    std::string_view line = contents.substr(start, end - start);
    ++line_no;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (!blank) {
      try {
        if (out.size() == kMaxSignatures) refuse_signature_past_limit(line, path);
        out.push_back(parse_signature(line, fmt::format("{}:{}", path, line_no)));
      } catch (const CompileError& e) {
        // Re-point the error at the sidecar's own line.
        int col = e.frames().empty() ? 1 : e.frames().front().range.col;
        auto file = std::make_shared<const SourceFile>(path, std::string(contents));
        throw CompileError(ErrorKind::Signature, e.message(), file,
                           SourceRange{line_no, col, line_no, col + 1});
      }
    }
    if (end == contents.size()) break;
    start = end + 1;
  }
  return out;
}

std::string constant_literal_string(const ConstantLiteral& c) {
  if (auto* i = std::get_if<__int128>(&c.value)) return ir::literal_string(*i);
  if (auto* d = std::get_if<double>(&c.value)) return ir::literal_string(*d);  // keeps a ".0"
  if (auto* b = std::get_if<bool>(&c.value)) return *b ? "True" : "False";
  const auto& items = std::get<std::vector<ConstantLiteral>>(c.value);
  std::vector<std::string> parts;
  for (const auto& item : items) parts.push_back(constant_literal_string(item));
  if (parts.size() == 1) return fmt::format("({},)", parts[0]);
  return fmt::format("({})", fmt::join(parts, ", "));
}

namespace {

std::string array_constraint_string(const ArrayConstraint& a) {
  std::vector<std::string> dims, strides;
  for (const auto& d : a.dims) dims.push_back(d ? std::to_string(*d) : "?");
  for (const auto& s : a.strides) strides.push_back(s ? std::to_string(*s) : "?");
  return fmt::format("{}[{}]{}{}{}", dtype_name(a.dtype), fmt::join(dims, ", "),
                     strides.empty() ? "" : fmt::format(" strides({})", fmt::join(strides, ", ")),
                     a.aligned16 ? " align16" : "", a.contiguous ? " contiguous" : "");
}

}  // namespace

std::string constraint_string(const ParameterConstraint& p) {
  std::string body;
  if (auto* a = std::get_if<ArrayConstraint>(&p.constraint)) {
    body = array_constraint_string(*a);
  } else if (auto* l = std::get_if<ListConstraint>(&p.constraint)) {
    body = fmt::format("list[{}]", array_constraint_string(l->element));
  } else if (auto* s = std::get_if<ScalarConstraint>(&p.constraint)) {
    body = dtype_name(s->dtype);
  } else if (auto* t = std::get_if<TupleConstraint>(&p.constraint)) {
    std::vector<std::string> items;
    for (const auto& item : t->items) items.push_back(constraint_string(item));
    body = items.size() == 1 ? fmt::format("({},)", items[0]) : fmt::format("({})", fmt::join(items, ", "));
  } else {
    body = constant_literal_string(std::get<ConstantConstraint>(p.constraint).value);
  }
  return p.name.empty() ? body : p.name + "=" + body;
}

}  // namespace tile2cu
