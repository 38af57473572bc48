#include "fuzz_targets.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast_printer.hpp"
#include "frontend/parser.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"
#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu::fuzz {

namespace {

constexpr const char* kPath = "fuzz.py";
// At most this many kernels get generic signatures, so one input stays cheap.
constexpr size_t kMaxKernels = 4;

struct Headers {
  std::vector<std::string> sigs;
  std::string kernel;
  bool line_directives = false;
};

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// The `# key: value` lines at the top of the file (stops at the first other line).
Headers read_headers(std::string_view text) {
  Headers h;
  while (!text.empty() && text.front() == '#') {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    line.remove_prefix(1);
    std::string body = trim(line);
    auto value_of = [&](std::string_view key) -> const char* {
      if (body.size() > key.size() && body.compare(0, key.size(), key) == 0 && body[key.size()] == ':')
        return body.c_str() + key.size() + 1;
      return nullptr;
    };
    if (const char* v = value_of("sig")) h.sigs.push_back(trim(v));
    else if (const char* k = value_of("kernel")) h.kernel = trim(k);
    else if (body == "line-directives") h.line_directives = true;
  }
  return h;
}

[[noreturn]] void internal_error(const char* target, const std::string& what) {
  std::fprintf(stderr, "tile2cu fuzz/%s: internal error (not a CompileError): %s\n", target,
               what.c_str());
  std::abort();
}

bool looks_constant(const ast::Param& p) {
  if (p.annotation && print_expr(p.annotation).find("Const") != std::string::npos) return true;
  bool upper = !p.name.empty();
  for (char c : p.name)
    if (std::islower(static_cast<unsigned char>(c))) upper = false;
  return upper;
}

// A few signatures per kernel, in text form, covering ranks 1-3, static dims, scalars,
// 16-bit floats, integers and tuple constants.
std::vector<std::string> generic_signatures(const sema::ModuleScope& scope) {
  static const char* kArrays[] = {"float32[?]", "float16[?, ?] align16 contiguous",
                                  "int32[4, ?, 8]", "bfloat16[?, 64]"};
  static const char* kScalars[] = {"float32", "float16", "int32", "int64"};
  static const char* kConstants[] = {"16", "32", "2", "(16, 16)"};
  std::vector<std::string> out;
  size_t n = 0;
  for (const std::string& name : scope.kernel_order) {
    if (n++ == kMaxKernels) break;
    auto it = scope.kernels.find(name);
    if (it == scope.kernels.end() || !it->second.def) continue;
    const ast::FunctionDef& def = *it->second.def;
    for (int variant = 0; variant < 5; ++variant) {
      std::string sig = name + "(";
      for (size_t i = 0; i < def.params.size(); ++i) {
        const ast::Param& p = def.params[i];
        if (i) sig += ", ";
        sig += p.name + "=";
        if (looks_constant(p)) {
          sig += kConstants[variant % 4];
        } else if (variant == 4) {
          // Arrays first, scalars after: the usual (x, y, n, scale) shape of a kernel.
          sig += i < 2 ? kArrays[0] : kScalars[i % 4];
        } else {
          sig += kArrays[variant];
        }
      }
      out.push_back(sig + ")");
    }
  }
  return out;
}

std::vector<KernelSignature> parse_signatures(const std::vector<std::string>& texts,
                                              const std::string& kernel,
                                              const sema::ModuleScope& scope) {
  std::vector<KernelSignature> sigs;
  for (size_t i = 0; i < texts.size(); ++i) {
    try {
      KernelSignature s = parse_signature(texts[i], "sig");
      if (s.kernel.empty()) s.kernel = kernel;
      if (s.kernel.empty() && !scope.kernel_order.empty()) s.kernel = scope.kernel_order.front();
      sigs.push_back(std::move(s));
    } catch (const CompileError& e) {
      (void)render_diagnostic(e);
    }
  }
  return sigs;
}

}  // namespace

void frontend(const uint8_t* data, size_t size) {
  auto file = std::make_shared<const SourceFile>(kPath, std::string(reinterpret_cast<const char*>(data), size));
  try {
    ast::Module module = parse_module(file);
    std::string text = print_ast(module);
    if (text.empty()) internal_error("frontend", "print_ast returned nothing");
  } catch (const CompileError& e) {
    if (render_diagnostic(e).empty()) internal_error("frontend", "empty diagnostic");
  } catch (const std::exception& e) {
    internal_error("frontend", e.what());
  }
}

void sema(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  Headers headers = read_headers(source);
  auto file = std::make_shared<const SourceFile>(kPath, source);
  try {
    auto module = std::make_shared<const ast::Module>(parse_module(file));
    auto scope = sema::evaluate_module(module);
    std::vector<std::string> texts = headers.sigs.empty() ? generic_signatures(*scope) : headers.sigs;
    std::vector<KernelSignature> sigs = parse_signatures(texts, headers.kernel, *scope);
    for (const KernelSignature& sig : sigs) {
      try {
        ir::Function fn = sema::specialize(*scope, sig);
        ir::verify(fn);
        ir::Module m;
        m.functions.push_back(std::move(fn));
        if (ir::print_module(m).empty()) internal_error("sema", "print_module returned nothing");
      } catch (const CompileError& e) {
        if (render_diagnostic(e).empty()) internal_error("sema", "empty diagnostic");
      }
    }
  } catch (const CompileError& e) {
    if (render_diagnostic(e).empty()) internal_error("sema", "empty diagnostic");
  } catch (const std::exception& e) {
    internal_error("sema", e.what());
  }
}

void pipeline(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  Headers headers = read_headers(source);
  TranspileOptions options;
  options.kernel = headers.kernel;
  options.line_directives = headers.line_directives;
  options.header_name = "fuzz.cuh";
  options.cu_name = "fuzz.cu";
  options.source_name = kPath;

  std::vector<std::vector<std::string>> runs;
  if (!headers.sigs.empty()) {
    runs.push_back(headers.sigs);
  } else {
    // One transpile per generic signature, so a rejected one does not hide the others.
    try {
      auto file = std::make_shared<const SourceFile>(kPath, source);
      auto module = std::make_shared<const ast::Module>(parse_module(file));
      auto scope = sema::evaluate_module(module);
      for (std::string& s : generic_signatures(*scope)) runs.push_back({std::move(s)});
    } catch (const CompileError&) {
    } catch (const std::exception& e) {
      internal_error("pipeline", e.what());
    }
    if (runs.empty()) runs.push_back({"x=float32[?]"});  // still exercise the error path
  }
  for (auto& sigs : runs) {
    options.signatures = sigs;
    TranspileResult r = transpile(kPath, source, options);
    if (r.exit_code == 3) internal_error("pipeline", r.diagnostics);
    if (r.ok && (r.cu.empty() || r.cuh.empty() || r.ir.empty()))
      internal_error("pipeline", "ok but an empty output");
    if (!r.ok && (r.diagnostics.empty() || r.exit_code == 0))
      internal_error("pipeline", "failed without a diagnostic or exit code");
  }
}

}  // namespace tile2cu::fuzz
