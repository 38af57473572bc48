// The side-by-side page of `--emit=html`. Three steps:
//   1. Map: walk the .cu emitted with #line directives; every displayed line gets the Python
//      statement it came from (or none). The directives themselves are dropped, so the line
//      numbers shown are those of the .cu written without --line-directives.
//   2. Annotate: per specialization, read its thread count, layouts and shared memory from the
//      .cu and the types of named values from the IR; per Python statement, collect the values
//      it defines, the layouts and arrays its code uses and whether it goes through shared memory.
//   3. Render: static HTML for both panes (syntax-coloured, one element per line with
//      data-stmt / data-py attributes), the annotations as inline JSON, and a small script that
//      does the highlighting, the specialization tabs and the details panel.
#include "emit/html_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string_view>
#include <vector>

#include "support/c_text.hpp"

namespace tile2cu {

namespace {

using nlohmann::json;

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(pos, end - pos));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    pos = end + 1;
  }
  return lines;
}

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string trim_left(std::string_view s) {
  size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string() : std::string(s.substr(i));
}

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// ---- syntax colouring -------------------------------------------------------------------------
// Tokens are (css class, text); text may span lines (Python strings), and is cut into lines at
// render time.
struct Token {
  const char* cls;  // "" for plain text
  std::string text;
};

void push(std::vector<Token>& out, const char* cls, std::string_view text) {
  if (text.empty()) return;
  if (!out.empty() && std::string_view(out.back().cls) == cls) {
    out.back().text += text;
    return;
  }
  out.push_back({cls, std::string(text)});
}

size_t scan_number(std::string_view s, size_t i) {
  size_t j = i;
  if (s.substr(j, 2) == "0x" || s.substr(j, 2) == "0X") j += 2;
  while (j < s.size() && (is_ident(s[j]) || s[j] == '.' ||
                          ((s[j] == '+' || s[j] == '-') && j > i && (s[j - 1] == 'e' || s[j - 1] == 'E') &&
                           s.substr(i, 2) != "0x")))
    ++j;
  return j;
}

std::vector<Token> python_tokens(std::string_view s) {
  static const std::set<std::string, std::less<>> keywords = {
      "and", "as", "assert", "break", "class", "continue", "def", "del", "elif", "else", "except",
      "False", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "None",
      "nonlocal", "not", "or", "pass", "raise", "return", "True", "try", "while", "with", "yield"};
  static const std::set<std::string, std::less<>> builtins = {
      "range", "min", "max", "int", "float", "bool", "len", "abs", "tuple", "print"};
  std::vector<Token> out;
  size_t i = 0;
  std::string prev_word;
  while (i < s.size()) {
    char c = s[i];
    if (c == '#') {
      size_t j = s.find('\n', i);
      if (j == std::string_view::npos) j = s.size();
      push(out, "c", s.substr(i, j - i));
      i = j;
      continue;
    }
    // String literal, with an optional prefix (r, b, f, u and pairs).
    size_t q = i;
    while (q < s.size() && q - i < 2 && std::strchr("rRbBfFuU", s[q]) && s[q] != '\0') ++q;
    if (q < s.size() && (s[q] == '"' || s[q] == '\'') && (q == i || (i == 0 || !is_ident(s[i - 1])))) {
      char quote = s[q];
      bool triple = s.substr(q, 3) == std::string(3, quote);
      size_t j = q + (triple ? 3 : 1);
      while (j < s.size()) {
        if (s[j] == '\\') {
          j += 2;
          continue;
        }
        if (triple ? s.substr(j, 3) == std::string(3, quote) : s[j] == quote) {
          j += triple ? 3 : 1;
          break;
        }
        if (!triple && s[j] == '\n') break;
        ++j;
      }
      j = std::min(j, s.size());
      push(out, "s", s.substr(i, j - i));
      i = j;
      prev_word.clear();
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = scan_number(s, i);
      push(out, "n", s.substr(i, j - i));
      i = j;
      continue;
    }
    if (is_ident_start(c)) {
      size_t j = i;
      while (j < s.size() && is_ident(s[j])) ++j;
      std::string word(s.substr(i, j - i));
      const char* cls = "";
      if (keywords.count(word)) cls = "k";
      else if (prev_word == "def") cls = "f";
      else if (builtins.count(word)) cls = "b";
      else if (i > 0 && s[i - 1] == '@') cls = "d";
      else if (word == "ct") cls = "m";
      push(out, cls, word);
      prev_word = word;
      i = j;
      continue;
    }
    if (c == '@') {
      push(out, "d", "@");
      ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) prev_word.clear();
    push(out, "", s.substr(i, 1));
    ++i;
  }
  return out;
}

std::vector<Token> cpp_tokens(std::string_view s) {
  static const std::set<std::string, std::less<>> keywords = {
      "alignas", "auto", "break", "const", "constexpr", "continue", "else", "extern", "false", "for",
      "if", "inline", "namespace", "nullptr", "reinterpret_cast", "return", "static", "static_cast",
      "struct", "template", "true", "typename", "using", "void", "while", "__global__", "__shared__",
      "__device__", "__launch_bounds__", "__forceinline__", "__syncthreads", "pragma", "once"};
  static const std::set<std::string, std::less<>> types = {
      "bool", "char", "int", "unsigned", "float", "double", "long", "short", "signed", "size_t",
      "__half", "__nv_bfloat16", "dim3", "cudaError_t", "cudaStream_t"};
  std::vector<Token> out;
  std::string trimmed = trim_left(s);
  if (!trimmed.empty() && trimmed[0] == '#') {
    push(out, "p", s);
    return out;
  }
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (s.substr(i, 2) == "//") {
      push(out, "c", s.substr(i));
      break;
    }
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c) j += s[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, s.size());
      push(out, "s", s.substr(i, j - i));
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = scan_number(s, i);
      push(out, "n", s.substr(i, j - i));
      i = j;
      continue;
    }
    if (is_ident_start(c)) {
      size_t j = i;
      while (j < s.size() && is_ident(s[j])) ++j;
      std::string word(s.substr(i, j - i));
      char next = j < s.size() ? s[j] : '\0';
      const char* cls = "";
      if (keywords.count(word)) cls = "k";
      else if (word.rfind("Layout_", 0) == 0 || word == "kThreads") cls = "l";
      else if (types.count(word) || (word.size() > 2 && word.substr(word.size() - 2) == "_t")) cls = "t";
      else if (std::isupper(static_cast<unsigned char>(word[0])) && next == '<') cls = "t";
      else if (next == '(' || next == '<') cls = "f";
      push(out, cls, word);
      i = j;
      continue;
    }
    push(out, "", s.substr(i, 1));
    ++i;
  }
  return out;
}

// Cuts tokens into per-line HTML, closing and reopening spans at line breaks.
std::vector<std::string> render_lines(const std::vector<Token>& tokens) {
  std::vector<std::string> lines(1);
  for (const Token& t : tokens) {
    size_t pos = 0;
    while (true) {
      size_t nl = t.text.find('\n', pos);
      std::string_view piece = std::string_view(t.text).substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
      if (!piece.empty()) {
        if (*t.cls) lines.back() += fmt::format("<span class=\"{}\">{}</span>", t.cls, escape(piece));
        else lines.back() += escape(piece);
      }
      if (nl == std::string::npos) break;
      lines.emplace_back();
      pos = nl + 1;
    }
  }
  return lines;
}

// ---- Python statements --------------------------------------------------------------------------
// For each physical line (1-based), the first line of the logical line (statement) it belongs
// to: open brackets, backslashes and triple-quoted strings continue a statement.
std::vector<int> statement_starts(std::string_view s, int line_count) {
  std::vector<int> starts(line_count + 2, 0);
  int line = 1, start = 1, depth = 0;
  starts[1] = 1;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool triple = s.substr(i, 3) == std::string(3, c);
      size_t j = i + (triple ? 3 : 1);
      while (j < s.size()) {
        if (s[j] == '\\') {
          if (j + 1 < s.size() && s[j + 1] == '\n' && line + 1 <= line_count) starts[++line] = start;
          j += 2;
          continue;
        }
        if (triple ? s.substr(j, 3) == std::string(3, c) : s[j] == c) {
          j += triple ? 3 : 1;
          break;
        }
        if (s[j] == '\n') {
          if (!triple) break;
          if (line + 1 <= line_count) starts[++line] = start;
        }
        ++j;
      }
      i = std::min(j, s.size());
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') depth = std::max(0, depth - 1);
    if (c == '\n') {
      bool continued = depth > 0 || (i > 0 && s[i - 1] == '\\');
      ++line;
      if (!continued) start = line;
      if (line <= line_count) starts[line] = start;
    }
    ++i;
  }
  for (int l = 1; l <= line_count; ++l)
    if (starts[l] == 0) starts[l] = l;
  return starts;
}

// Names a Python statement assigns: `a, b = ...`, `x += ...`, `for t in ...`.
std::vector<std::string> assigned_names(const std::string& stmt) {
  static const std::regex assign(R"(^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=[^=])");
  static const std::regex loop(R"(^\s*for\s+([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s+in\b)");
  std::smatch m;
  std::string names;
  if (std::regex_search(stmt, m, loop) || std::regex_search(stmt, m, assign)) names = m[1];
  std::vector<std::string> out;
  std::string cur;
  for (char c : names + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      cur += c;
    }
  }
  return out;
}

// ---- the .cu ------------------------------------------------------------------------------------
struct CuLine {
  int number = 0;  // in the .cu written without #line directives
  std::string text;
  int py = 0;      // Python statement (first line), 0 for none
  int section = -1;  // index of the specialization it belongs to, -1 for code shared by all
};

struct Layout {
  std::string name, definition;
  std::vector<int> shape;
  int vec = 0;
};

struct Spec {
  std::string name, signature;
  int threads = 0;
  int whole_threads = 0;  // the copy for whole tiles' own count, where it has one
  long smem_bytes = 0;
  std::vector<Layout> layouts;
  json params = json::array();
  std::map<std::string, std::vector<std::string>> value_types;  // IR value name -> distinct types
  std::map<std::string, std::string> param_types;
};

struct Mapped {
  std::vector<CuLine> lines;
  std::vector<Spec> specs;
};

// Parses the #line-annotated .cu. `def_lines` maps a kernel's name to its `def` line, so the
// __global__ signature and prologue are linked to it.
Mapped map_cu(const std::string& cu, const std::string& cu_name, const std::string& python_path,
              const std::map<std::string, int>& def_lines) {
  static const std::regex line_re(R"re(^#line\s+(\d+)\s+"((?:[^"\\]|\\.)*)")re");
  static const std::regex header_re(R"(^// ---- (\w+): (.*) ----$)");
  static const std::regex global_re(R"(__global__.*?\b(\w+)\($)");
  Mapped out;
  int current = 0, number = 0, section = -1;
  bool in_entry = false;
  std::vector<int> stack;
  for (const std::string& raw : split_lines(cu)) {
    std::smatch m;
    if (std::regex_search(raw, m, line_re)) {
      std::string file = c_string_unescape(m[2].str());
      // Code from a helper in another Python module links to no line of the page's file.
      bool in_kernel_file = file == python_path && !(file == cu_name || base_name(file) == base_name(cu_name));
      current = in_kernel_file ? std::stoi(m[1]) : 0;
      // The Python line echoed as a comment just above belongs to the statement too.
      if (current)
        for (auto it = out.lines.rbegin(); it != out.lines.rend(); ++it) {
          std::string t = trim_left(it->text);
          if (t.rfind("//", 0) != 0 || t.rfind("// ----", 0) == 0) break;
          it->py = current;
        }
      continue;
    }
    CuLine line;
    line.number = ++number;
    line.text = raw;
    if (std::regex_search(raw, m, header_re)) {
      Spec spec;
      spec.name = m[1];
      spec.signature = m[2];
      out.specs.push_back(std::move(spec));
      section = int(out.specs.size()) - 1;
      in_entry = false;
      current = 0;
    }
    std::string t = trim_left(raw);
    if (std::regex_search(raw, m, global_re)) {
      auto it = def_lines.find(m[1]);
      current = it == def_lines.end() ? 0 : it->second;
    }
    if (section >= 0 && t.rfind("extern \"C\"", 0) == 0 &&
        raw.find("tile2cu_" + out.specs[section].name + "(") != std::string::npos)
      in_entry = true;
    line.py = current;
    if (!t.empty() && t[0] == '}' && !stack.empty()) line.py = stack.back();
    line.section = section;
    // Braces outside comments and strings: `{` opens a scope owned by this line's statement.
    bool had_close = false;
    for (size_t i = 0; i < raw.size(); ++i) {
      char c = raw[i];
      if (raw.compare(i, 2, "//") == 0) break;
      if (c == '"') {
        size_t j = i + 1;
        while (j < raw.size() && raw[j] != '"') j += raw[j] == '\\' ? 2 : 1;
        i = j;
        continue;
      }
      if (c == '{') stack.push_back(line.py);
      if (c == '}' && !stack.empty()) {
        stack.pop_back();
        had_close = true;
      }
    }
    out.lines.push_back(std::move(line));
    if (in_entry && had_close && stack.empty()) {
      in_entry = false;
      section = -1;  // what follows the last entry point (the dispatcher) is shared
    }
  }
  // Per specialization: thread count, layouts, shared memory.
  static const std::regex threads_re(R"(constexpr\s+int\s+kThreads\s*=\s*(\d+))");
  static const std::regex whole_threads_re(R"(constexpr\s+int\s+kWholeThreads\s*=\s*(\d+))");
  static const std::regex using_re(R"(^\s*using\s+(\w+)\s*=\s*(\w*Layout\w*<.*>)\s*;)");
  // (A fourth argument, kBlocksPerCta, where a CTA runs several blocks.)
  static const std::regex blocked_re(R"(BlockedLayout<\s*Shape<([\d,\s]*)>\s*,\s*\w+\s*,\s*(\d+)\s*(?:,\s*\w+\s*)?>)");
  static const std::regex smem_re(R"(__shared__.*?\b\w+\s*\[\s*(\d+)\s*\])");
  for (const CuLine& l : out.lines) {
    if (l.section < 0) continue;
    Spec& spec = out.specs[l.section];
    std::smatch m;
    if (std::regex_search(l.text, m, threads_re)) spec.threads = std::stoi(m[1]);
    if (std::regex_search(l.text, m, whole_threads_re)) spec.whole_threads = std::stoi(m[1]);
    if (std::regex_search(l.text, m, smem_re)) spec.smem_bytes += std::stol(m[1]);
    // A copy for whole tiles declares the layouts again for its own thread count: listed once.
    if (std::regex_search(l.text, m, using_re) &&
        std::none_of(spec.layouts.begin(), spec.layouts.end(), [&](const Layout& k) { return k.name == m[1]; })) {
      Layout layout;
      layout.name = m[1];
      layout.definition = m[2];
      std::smatch b;
      if (std::regex_search(layout.definition, b, blocked_re)) {
        std::string dims = b[1];
        std::string cur;
        for (char c : dims + ",") {
          if (std::isdigit(static_cast<unsigned char>(c))) cur += c;
          else if (c == ',' && !cur.empty()) {
            layout.shape.push_back(std::stoi(cur));
            cur.clear();
          }
        }
        layout.vec = std::stoi(b[2]);
      }
      spec.layouts.push_back(std::move(layout));
    }
  }
  return out;
}

// Value and parameter types of each specialization, from the IR text.
void read_ir(const std::string& ir, std::vector<Spec>& specs) {
  static const std::regex func_re(R"(^func @(\w+))");
  static const std::regex param_re(R"(^\s*param (\w+): (.*?)( written)?$)");
  static const std::regex value_re(R"(%\d+\.(\w+) = .* : ([^:{]+?)\s*\{?\s*$)");
  Spec* spec = nullptr;
  for (const std::string& line : split_lines(ir)) {
    std::smatch m;
    if (std::regex_search(line, m, func_re)) {
      spec = nullptr;
      for (Spec& s : specs)
        if (s.name == m[1].str()) spec = &s;
      continue;
    }
    if (!spec) continue;
    if (std::regex_search(line, m, param_re)) {
      spec->params.push_back({{"name", m[1].str()}, {"type", m[2].str()}, {"written", m[3].matched}});
      spec->param_types[m[1]] = m[2];
      continue;
    }
    if (std::regex_search(line, m, value_re)) {
      auto& types = spec->value_types[m[1]];
      if (std::find(types.begin(), types.end(), m[2].str()) == types.end()) types.push_back(m[2]);
    }
  }
}

// What one Python statement became in one specialization.
json annotate(const Spec& spec, const std::vector<const CuLine*>& code, const std::string& stmt) {
  static const std::regex decl_re(R"(\b(?:auto|const auto)\s+(\w+)\s*=)");
  static const std::regex assign_re(R"(^\s*(\w+)\s*[-+*/]?=[^=])");
  static const std::regex layout_re(R"(\bLayout_\w+)");
  static const std::regex load_re(R"(\bload<[^(]*>\((\w+)\s*,)");
  static const std::regex store_re(R"(\bstore\((\w+)\s*,)");
  json info;
  json lines = json::array();
  std::vector<std::string> names = assigned_names(stmt);
  std::set<std::string> layouts, smem;
  std::vector<std::string> reductions;
  json arrays = json::array();
  std::set<std::string> seen_arrays;
  for (const CuLine* l : code) {
    lines.push_back(l->number);
    std::string text = l->text;
    std::string::size_type comment = trim_left(text).rfind("//", 0) == 0 ? 0 : text.find("//");
    if (comment == 0) continue;
    if (comment != std::string::npos) text = text.substr(0, comment);
    std::smatch m;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), decl_re); it != std::sregex_iterator(); ++it)
      names.push_back((*it)[1]);
    if (std::regex_search(text, m, assign_re)) names.push_back(m[1]);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), layout_re); it != std::sregex_iterator(); ++it)
      layouts.insert((*it)[0]);
    auto arrays_of = [&](const std::regex& re, const char* access) {
      for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
        std::string name = (*it)[1];
        auto p = spec.param_types.find(name);
        if (p == spec.param_types.end() || !seen_arrays.insert(name + access).second) continue;
        arrays.push_back({{"name", name}, {"type", p->second}, {"access", access}});
      }
    };
    arrays_of(load_re, "load");
    arrays_of(store_re, "store");
    if (std::regex_search(text, std::regex(R"(\bsmem\b|__shared__)"))) smem.insert("smem");
    static const std::regex reduce_re(R"(\b(reduce_\w+|argmax|argmin)<)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), reduce_re); it != std::sregex_iterator(); ++it)
      if (std::find(reductions.begin(), reductions.end(), (*it)[1].str()) == reductions.end())
        reductions.push_back((*it)[1]);
  }
  json values = json::array();
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (!seen.insert(n).second) continue;
    auto it = spec.value_types.find(n);
    if (it == spec.value_types.end()) continue;
    for (const std::string& type : it->second) values.push_back({{"name", n}, {"type", type}});
  }
  info["cu"] = lines;
  info["values"] = values;
  info["layouts"] = json(std::vector<std::string>(layouts.begin(), layouts.end()));
  info["arrays"] = arrays;
  info["smem"] = !smem.empty();
  info["reductions"] = reductions;
  // The kernel's `def` line became the __global__ signature: list what its parameters are.
  if (std::regex_search(stmt, std::regex(R"(^\s*def\s)"))) info["params"] = spec.params;
  return info;
}

const char* kStyle = R"css(
:root{--bg:#fbfbfa;--pane:#ffffff;--ink:#1f2328;--dim:#6e7781;--rule:#d8dee4;--hl:#fff1a8;--hover:#fff8cf;
--c0:#e8590c;--c1:#1971c2;--c2:#2f9e44;--c3:#ae3ec9;--c4:#f08c00;--c5:#0c8599;--c6:#c2255c;--c7:#5c7cfa}
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:var(--bg);color:var(--ink);font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif}
body{display:grid;grid-template-rows:auto auto 1fr auto;height:100vh}
header{padding:8px 16px 6px;border-bottom:1px solid var(--rule);background:#f3f4f6}
header h1{font-size:16px;margin:0 0 6px;font-weight:600}
header h1 .arrow{color:var(--dim);font-weight:400}
header h1 .ver{color:var(--dim);font-weight:400;font-size:12px;margin-left:8px}
#tabs{display:flex;flex-wrap:wrap;gap:4px}
#tabs button{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;border:1px solid var(--rule);background:#fff;border-radius:4px;padding:2px 8px;cursor:pointer;color:var(--ink)}
#tabs button.on{background:#24292f;color:#fff;border-color:#24292f}
#summary{padding:6px 16px;border-bottom:1px solid var(--rule);font-size:13px;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
#summary code,.details code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.chip{display:inline-block;border:1px solid var(--rule);border-radius:10px;padding:0 8px;background:#fff;font-size:12px}
.chip b{font-weight:600}
main{display:grid;grid-template-columns:minmax(0,45fr) minmax(0,55fr);min-height:0}
.pane{display:flex;flex-direction:column;min-height:0;border-right:1px solid var(--rule);background:var(--pane)}
.pane h2{margin:0;padding:4px 12px;font-size:12px;font-weight:600;color:var(--dim);border-bottom:1px solid var(--rule);background:#f6f8fa;letter-spacing:.02em}
.code{overflow:auto;flex:1;font:12px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;padding:4px 0 40vh}
.ln{display:flex;border-left:4px solid transparent;min-height:1.5em}
.ln .no{flex:0 0 3.2em;text-align:right;padding-right:10px;color:#a0a7b0;user-select:none}
.ln .src{flex:1;white-space:pre-wrap;overflow-wrap:anywhere;padding-left:2ch;text-indent:-2ch;padding-right:8px}
.ln .badge{flex:0 0 auto;align-self:center;margin-right:8px;font-size:11px;color:#57606a;background:#eef1f4;border-radius:8px;padding:0 6px;white-space:nowrap}
.ln .badge:empty{display:none}
.ln.m{cursor:pointer}
.ln.m.c0{border-left-color:var(--c0)}.ln.m.c1{border-left-color:var(--c1)}.ln.m.c2{border-left-color:var(--c2)}.ln.m.c3{border-left-color:var(--c3)}
.ln.m.c4{border-left-color:var(--c4)}.ln.m.c5{border-left-color:var(--c5)}.ln.m.c6{border-left-color:var(--c6)}.ln.m.c7{border-left-color:var(--c7)}
.ln.hover{background:var(--hover)}
.ln.hl{background:var(--hl)}
.ln.un .src{color:#8c959f}
.sec{display:none}.sec.on{display:block}
.k{color:#cf222e}.f{color:#8250df}.s{color:#0a3069}.c{color:#6e7781;font-style:italic}.n{color:#0550ae}
.t{color:#953800}.p{color:#8c959f}.l{color:#116329;font-weight:600}.d{color:#8250df}.b{color:#0550ae}.m{color:#0550ae}
.ln .c{font-style:italic}
details.cuh{margin:8px 12px;border-top:1px dashed var(--rule)}
details.cuh summary{cursor:pointer;color:var(--dim);font:12px system-ui,sans-serif;padding:6px 0}
.details{border-top:1px solid var(--rule);background:#f6f8fa;padding:8px 16px;height:185px;overflow:auto;font-size:13px}
.details h3{margin:0 0 4px;font-size:13px;font-weight:600}
.details ul{margin:2px 0;padding-left:18px}
.details li{margin:1px 0}
.details .hint{color:var(--dim)}
.details .py{background:#fff;border:1px solid var(--rule);border-radius:4px;padding:1px 6px}
)css";

const char* kScript = R"js(
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("tile2cu-data").textContent);
  var pyLines = Array.prototype.slice.call(document.querySelectorAll("#py .ln"));
  var cuLines = Array.prototype.slice.call(document.querySelectorAll("#cu .ln"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("#cu .sec"));
  var tabs = Array.prototype.slice.call(document.querySelectorAll("#tabs button"));
  var details = document.getElementById("details");
  var spec = 0, pinned = 0, hovered = 0;

  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c];
    });
  }
  function S() { return D.specs[spec] || {lines: {}, layouts: [], params: []}; }
  function visible(el) {
    var sec = el.closest(".sec");
    return !sec || sec.classList.contains("on");
  }
  function dtypeBytes(t) {
    var bits = {b1: 8, i8: 8, u8: 8, i16: 16, u16: 16, f16: 16, bf16: 16, i32: 32, u32: 32, f32: 32,
                i64: 64, u64: 64, f64: 64}[t];
    return bits ? bits / 8 : 0;
  }
  // The widest dtype the kernel moves to or from memory: it sets the run length.
  function widest() {
    var best = null;
    S().params.forEach(function (p) {
      var m = /^array<(\w+)/.exec(p.type);
      if (m && dtypeBytes(m[1]) && (!best || dtypeBytes(m[1]) > dtypeBytes(best))) best = m[1];
    });
    return best;
  }
  function layoutText(name) {
    var L = null;
    S().layouts.forEach(function (l) { if (l.name === name) L = l; });
    if (!L) return "<code>" + esc(name) + "</code>";
    var out = "<code>" + esc(L.name) + " = " + esc(L.definition) + "</code>";
    if (L.shape && L.shape.length && L.vec) {
      var elems = L.shape.reduce(function (a, b) { return a * b; }, 1);
      var runs = elems / L.vec, threads = S().threads || 1;
      var perThread = Math.max(1, Math.ceil(runs / threads));
      var wide = widest();
      var full = wide && L.vec * dtypeBytes(wide) === 16;
      out += ": " + L.shape.join("\u00d7") + " = " + elems + (elems === 1 ? " element" : " elements") +
             (L.vec > 1 ? " in runs of " + L.vec + " consecutive" : "") +
             (full ? " (" + L.vec + " \u00d7 " + wide + " = 16 bytes: one vector access to memory)" : "") +
             ", dealt round-robin to " + threads + " threads: " +
             (runs >= threads ? perThread * L.vec + " elements (" + perThread + (perThread > 1 ? " runs" : " run") +
                                ") per thread"
                              : runs === 1 ? "thread 0 holds it, the others hold nothing"
                                           : "only " + runs + " of " + threads + " threads hold a run");
    }
    return out;
  }
  function stmtText(n) {
    return pyLines.filter(function (el) { return +el.dataset.stmt === n; })
                  .map(function (el) { return el.querySelector(".src").textContent.trim(); }).join(" ");
  }
  function showDetails(n) {
    var s = S();
    if (!n) {
      details.innerHTML = "<h3>" + esc(s.name || "") + "</h3><div class='hint'>Hover over a Python line (or a line of CUDA) to see what it became; click to pin it. " +
        "Each coloured bar links a Python statement to its code. Badges show the type each statement's value has in this specialization.</div>";
      return;
    }
    var info = s.lines[n];
    var html = "<h3>Python line " + n + " <span class='py'><code>" + esc(stmtText(n)) + "</code></span></h3>";
    if (!info) {
      details.innerHTML = html + "<div class='hint'>No code of its own in " + esc(s.name) +
        " (folded at transpile time, inlined into its use, or not tile code).</div>";
      return;
    }
    var cu = info.cu;
    var items = [];
    var ranges = [];
    cu.forEach(function (k) {
      var last = ranges[ranges.length - 1];
      if (last && k === last[1] + 1) last[1] = k; else ranges.push([k, k]);
    });
    items.push("became " + cu.length + " line" + (cu.length > 1 ? "s" : "") + " of " + esc(D.cu) + " (line" +
               (cu.length > 1 ? "s " : " ") + ranges.map(function (r) {
                 return r[0] === r[1] ? r[0] : r[0] + "\u2013" + r[1];
               }).join(", ") + ")");
    info.values.forEach(function (v) {
      var t = "<code>" + esc(v.name) + " : " + esc(v.type) + "</code>";
      if (/^tile</.test(v.type)) t += ", held in registers";
      items.push(t);
    });
    info.arrays.forEach(function (a) {
      items.push((a.access === "load" ? "reads" : "writes") + " array <code>" + esc(a.name) + " : " + esc(a.type) +
                 "</code> (" + (a.access === "load" ? "masked load" : "masked store") + " at the tile's index)");
    });
    info.layouts.forEach(function (l) { items.push("layout " + layoutText(l)); });
    (info.params || []).forEach(function (p) {
      items.push("parameter <code>" + esc(p.name) + " : " + esc(p.type) + "</code>" +
                 (/^array/.test(p.type) ? " \u2014 pointer, shapes and strides; " + (p.written ? "stored to" : "only read, so <code>const</code> in the launcher") : " \u2014 passed by value"));
    });
    if (info.params) items.push("<code>__launch_bounds__</code>: every CTA runs " + s.threads + " threads" +
                                (s.wholeThreads ? " (" + s.wholeThreads + " in the copy for whole tiles)" : "") +
                                "; Constant parameters are folded into the code, not passed");
    (info.reductions || []).forEach(function (r) {
      items.push("<code>" + esc(r) + "</code> reduces across threads: each thread folds its runs in registers, the partials " +
                 "meet in shared memory and are combined with warp shuffles (tile2cu/reduce.cuh, warp.cuh)");
    });
    if (info.smem)
      items.push(info.params ? "declares the shared-memory scratch <code>smem</code> (" + s.smem + " bytes) that broadcasts and reshapes go through"
                             : "moves elements between threads through the shared-memory scratch <code>smem</code> (" + s.smem + " bytes)");
    details.innerHTML = html + "<ul><li>" + items.join("</li><li>") + "</li></ul>";
  }
  function paint() {
    var n = hovered || pinned;
    pyLines.forEach(function (el) {
      var on = n && +el.dataset.stmt === n;
      el.classList.toggle("hl", !!(pinned && +el.dataset.stmt === pinned));
      el.classList.toggle("hover", !!(on && !(pinned && +el.dataset.stmt === pinned)));
    });
    cuLines.forEach(function (el) {
      var py = +(el.dataset.py || 0);
      var vis = visible(el);
      el.classList.toggle("hl", !!(vis && pinned && py === pinned));
      el.classList.toggle("hover", !!(vis && n && py === n && py !== pinned));
    });
    showDetails(n);
  }
  function scrollTo(n) {
    var first = cuLines.filter(function (el) { return visible(el) && +(el.dataset.py || 0) === n; })[0];
    if (first) first.scrollIntoView({block: "center"});
    var py = pyLines.filter(function (el) { return +el.dataset.stmt === n; })[0];
    if (py) py.scrollIntoView({block: "nearest"});
  }
  function setSpec(i) {
    spec = Math.max(0, Math.min(i, D.specs.length - 1));
    sections.forEach(function (el, k) { el.classList.toggle("on", k === spec); });
    tabs.forEach(function (el, k) { el.classList.toggle("on", k === spec); });
    var s = S();
    var sum = document.getElementById("summary");
    var layouts = s.layouts.map(function (l) { return "<span class='chip'><code>" + esc(l.name) + "</code></span>"; }).join(" ");
    sum.innerHTML = "<code>" + esc(s.name + ": " + s.signature) + "</code>" +
      "<span class='chip'><b>" + s.threads + "</b> threads per CTA (one CTA per block" +
      (s.wholeThreads ? "; <b>" + s.wholeThreads + "</b> in the copy for whole tiles" : "") + ")</span>" +
      "<span class='chip'>shared memory: <b>" + (s.smem ? s.smem + " B" : "none") + "</b></span>" +
      (layouts ? "<span>layouts: " + layouts + "</span>" : "");
    pyLines.forEach(function (el) {
      var badge = el.querySelector(".badge");
      var n = +el.dataset.stmt, info = s.lines[n];
      var first = pyLines.filter(function (x) { return +x.dataset.stmt === n; })[0] === el;
      var text = "";
      if (info && first) {
        if (info.values.length) text = info.values.map(function (v) { return v.type; })[0];
        else if (info.arrays.length) text = info.arrays.map(function (a) { return "\u2192 " + a.name; }).join(" ");
      }
      badge.textContent = text;
    });
    paint();
  }
  function stmtOf(el) {
    if (el.closest("#py")) return +el.dataset.stmt || 0;
    return +(el.dataset.py || 0);
  }
  function mapped(n) { return n && D.mapped.indexOf(n) >= 0; }
  document.querySelectorAll(".code").forEach(function (pane) {
    pane.addEventListener("mouseover", function (e) {
      var el = e.target.closest(".ln");
      var n = el ? stmtOf(el) : 0;
      hovered = mapped(n) ? n : 0;
      paint();
    });
    pane.addEventListener("mouseleave", function () { hovered = 0; paint(); });
    pane.addEventListener("click", function (e) {
      var el = e.target.closest(".ln");
      var n = el ? stmtOf(el) : 0;
      if (!mapped(n)) return;
      pinned = pinned === n ? 0 : n;
      hovered = 0;
      paint();
      if (pinned) scrollTo(pinned);
    });
  });
  tabs.forEach(function (el, k) { el.addEventListener("click", function () { setSpec(k); }); });
  // ?spec=<name or index>&highlight=<Python line>: open the page on one statement.
  var params = new URLSearchParams(location.search);
  var want = params.get("spec");
  var start = 0;
  if (want !== null) {
    D.specs.forEach(function (s, k) { if (s.name === want) start = k; });
    if (/^\d+$/.test(want) && +want < D.specs.length) start = +want;
  }
  setSpec(start);
  var h = +(params.get("highlight") || (location.hash.match(/^#L(\d+)$/) || [])[1] || 0);
  if (h) {
    var el = document.getElementById("py-L" + h);
    if (el) pinned = +el.dataset.stmt;
    paint();
    if (pinned) scrollTo(pinned);
  }
  document.body.dataset.ready = "1";
})();
)js";

}  // namespace

std::string render_html_view(const HtmlViewInput& in) {
  const std::vector<std::string> py_lines = split_lines(in.python_source);
  const int py_count = int(py_lines.size());
  const std::vector<int> starts = statement_starts(in.python_source, py_count);

  // Kernel name -> its `def` line, to link each __global__ function to it.
  std::map<std::string, int> def_lines;
  static const std::regex def_re(R"(^\s*def\s+(\w+)\s*\()");
  for (int l = 1; l <= py_count; ++l) {
    std::smatch m;
    if (std::regex_search(py_lines[l - 1], m, def_re) && !def_lines.count(m[1])) def_lines[m[1]] = l;
  }

  Mapped mapped = map_cu(in.cu, in.cu_name, in.python_path, def_lines);
  read_ir(in.ir, mapped.specs);

  // Statements that produced code, coloured in source order.
  std::set<int> produced;
  for (const CuLine& l : mapped.lines)
    if (l.py > 0 && l.py <= py_count) produced.insert(starts[l.py]);
  std::map<int, int> colour;
  for (int s : produced) colour[s] = int(colour.size()) % 8;

  auto stmt_text = [&](int start) {
    std::string text;
    for (int l = start; l <= py_count && starts[l] == start; ++l) text += py_lines[l - 1] + "\n";
    return text;
  };

  json data;
  data["python"] = base_name(in.python_path);
  data["cu"] = in.cu_name;
  data["mapped"] = json(std::vector<int>(produced.begin(), produced.end()));
  data["specs"] = json::array();
  for (size_t si = 0; si < mapped.specs.size(); ++si) {
    const Spec& spec = mapped.specs[si];
    std::map<int, std::vector<const CuLine*>> by_stmt;
    for (const CuLine& l : mapped.lines)
      if (l.section == int(si) && l.py > 0 && l.py <= py_count) by_stmt[starts[l.py]].push_back(&l);
    json lines = json::object();
    for (const auto& [stmt, code] : by_stmt) lines[std::to_string(stmt)] = annotate(spec, code, stmt_text(stmt));
    json layouts = json::array();
    for (const Layout& l : spec.layouts)
      layouts.push_back({{"name", l.name}, {"definition", l.definition}, {"shape", l.shape}, {"vec", l.vec}});
    data["specs"].push_back({{"name", spec.name},
                             {"signature", spec.signature},
                             {"threads", spec.threads},
                             {"wholeThreads", spec.whole_threads},
                             {"smem", spec.smem_bytes},
                             {"layouts", layouts},
                             {"params", spec.params},
                             {"lines", lines}});
  }
  std::string data_text = data.dump();
  for (size_t p = 0; (p = data_text.find("</", p)) != std::string::npos; p += 3) data_text.replace(p, 2, "<\\/");

  const std::string py_name = base_name(in.python_path);
  std::string html;
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += fmt::format("<title>{} \u2192 {} (tile2cu)</title>\n", escape(py_name), escape(in.cu_name));
  html += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  html += fmt::format(
      "<header><h1>{} <span class=\"arrow\">\u2192</span> {} <span class=\"ver\">tile2cu {}</span></h1>\n"
      "<nav id=\"tabs\" aria-label=\"specializations\">",
      escape(py_name), escape(in.cu_name), escape(in.version));
  for (size_t si = 0; si < mapped.specs.size(); ++si)
    html += fmt::format("<button type=\"button\"{}>{}</button>", si == 0 ? " class=\"on\"" : "",
                        escape(mapped.specs[si].name));
  html += "</nav></header>\n<div id=\"summary\"></div>\n<main>\n";

  // Python pane.
  html += fmt::format("<section class=\"pane\"><h2>PYTHON \u00b7 {}</h2><div class=\"code\" id=\"py\">\n", escape(py_name));
  std::vector<std::string> py_html = render_lines(python_tokens(in.python_source));
  for (int l = 1; l <= py_count; ++l) {
    int s = starts[l];
    bool m = produced.count(s) > 0;
    std::string cls = m ? fmt::format("ln m c{}", colour[s]) : "ln un";
    html += fmt::format("<div class=\"{}\" id=\"py-L{}\" data-stmt=\"{}\"><span class=\"no\">{}</span><span class=\"src\">{}</span><span class=\"badge\"></span></div>\n",
                        cls, l, s, l, l - 1 < int(py_html.size()) ? py_html[l - 1] : "");
  }
  html += "</div></section>\n";

  // CUDA pane: shared lines always shown, each specialization's section when its tab is on.
  html += fmt::format("<section class=\"pane\"><h2>CUDA \u00b7 {}</h2><div class=\"code\" id=\"cu\">\n", escape(in.cu_name));
  int open_section = -2;
  for (const CuLine& l : mapped.lines) {
    if (l.section != open_section) {
      if (open_section >= 0) html += "</div>\n";
      if (l.section >= 0)
        html += fmt::format("<div class=\"sec{}\" data-spec=\"{}\">\n", l.section == 0 ? " on" : "",
                            escape(mapped.specs[l.section].name));
      open_section = l.section;
    }
    int s = l.py > 0 && l.py <= py_count ? starts[l.py] : 0;
    std::vector<std::string> rendered = render_lines(cpp_tokens(l.text));
    std::string cls = s ? fmt::format("ln m c{}", colour[s]) : "ln";
    std::string attr = s ? fmt::format(" data-py=\"{}\"", s) : "";
    html += fmt::format("<div class=\"{}\"{}><span class=\"no\">{}</span><span class=\"src\">{}</span></div>\n", cls,
                        attr, l.number, rendered.empty() ? "" : rendered[0]);
  }
  if (open_section >= 0) html += "</div>\n";
  if (!in.cuh.empty()) {
    html += fmt::format("<details class=\"cuh\"><summary>{}: the host interface (launchers, C entry points)</summary>\n",
                        escape(in.cuh_name));
    int n = 0;
    for (const std::string& line : split_lines(in.cuh)) {
      std::vector<std::string> rendered = render_lines(cpp_tokens(line));
      html += fmt::format("<div class=\"ln h\"><span class=\"no\">{}</span><span class=\"src\">{}</span></div>\n", ++n,
                          rendered.empty() ? "" : rendered[0]);
    }
    html += "</details>\n";
  }
  html += "</div></section>\n</main>\n<div class=\"details\" id=\"details\"></div>\n";
  html += "<noscript><p>This page needs JavaScript for highlighting; the code above is complete without it.</p></noscript>\n";
  html += "<script type=\"application/json\" id=\"tile2cu-data\">" + data_text + "</script>\n";
  html += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return html;
}

}  // namespace tile2cu
