// The pipeline, stage by stage: parse -> evaluate module -> specialize -> passes (verified) -> emit.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "emit/cuda_emitter.hpp"
#include "frontend/ast_printer.hpp"
#include "frontend/parser.hpp"
#include "ir/passes/pipeline.hpp"
#include "ir/printer.hpp"
#include "sema/sema.hpp"
#include "sema/signature.hpp"
#include "support/diagnostic.hpp"
#include "tile2cu/tile2cu.hpp"

namespace tile2cu {

const char* version() { return TILE2CU_VERSION; }

namespace {

std::vector<KernelSignature> collect_signatures(const TranspileOptions& options,
                                                const sema::ModuleScope& scope) {
  std::vector<KernelSignature> sigs;
  if (!options.signatures.empty()) {
    for (size_t i = 0; i < options.signatures.size(); ++i) {
      const std::string origin = fmt::format("--sig #{}", i + 1);
      if (i == kMaxSignatures) refuse_signature_past_limit(options.signatures[i], origin);
      sigs.push_back(parse_signature(options.signatures[i], origin));
    }
  } else if (!options.sidecar_path.empty()) {
    sigs = parse_signature_file(options.sidecar_text, options.sidecar_path);
  }
  for (auto& sig : sigs) {
    if (sig.kernel.empty()) sig.kernel = options.kernel;
    if (sig.kernel.empty()) {
      if (scope.kernel_order.size() != 1)
        throw CompileError(ErrorKind::Usage,
                           fmt::format("signature '{}' names no kernel and the file has {} kernels: pass --kernel",
                                       sig.text, scope.kernel_order.size()));
      sig.kernel = scope.kernel_order[0];
    }
  }
  if (!options.kernel.empty()) {
    std::vector<KernelSignature> mine;
    for (auto& s : sigs)
      if (s.kernel == options.kernel) mine.push_back(std::move(s));
    sigs = std::move(mine);
  }
  return sigs;
}

// The folders an absolute import searches, as Python's path would hold them: the kernel file's
// folder (the script's folder heads the path), then, for a file inside a package, the folder
// above its topmost package (`test/kernels/fused_moe.py` importing `kernels.matmul`: `test/`).
std::vector<std::filesystem::path> absolute_import_roots(const std::string& kernel_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path folder = fs::path(kernel_path).parent_path();
  std::vector<fs::path> roots{folder};
  const fs::path start = fs::absolute(folder, ec);
  fs::path top = start;
  while (top.has_relative_path() && fs::is_regular_file(top / "__init__.py", ec)) top = top.parent_path();
  if (top != start) roots.push_back(fs::proximate(top, ec));  // named as the user named the file
  return roots;
}

// Where `import dotted` finds a module of the user's: an absolute import in the folders
// absolute_import_roots names, a relative one (`level` leading dots) in the importing file's
// folder or `level - 1` folders above it; as dotted/path.py or a package's __init__.py.
std::string find_module_file(const std::string& kernel_path, const std::string& importer, const std::string& dotted,
                             int level) {
  namespace fs = std::filesystem;
  std::vector<fs::path> bases;
  if (level == 0) {
    bases = absolute_import_roots(kernel_path);
  } else {
    fs::path base = fs::path(importer).parent_path();
    for (int up = 1; up < level; ++up) base = base.parent_path();
    bases.push_back(base);
  }
  std::string relative = dotted;
  std::replace(relative.begin(), relative.end(), '.', '/');
  for (const fs::path& base : bases) {
    for (const fs::path& candidate : {base / (relative + ".py"), base / relative / "__init__.py"}) {
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
    }
  }
  return {};
}

std::shared_ptr<const ast::Module> load_module(const std::string& kernel_path, const std::string& importer,
                                               const std::string& dotted, int level) {
  std::string found = find_module_file(kernel_path, importer, dotted, level);
  if (found.empty()) return nullptr;
  std::ifstream in(found, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw CompileError(ErrorKind::Usage, fmt::format("cannot read {}", found));
  return std::make_shared<const ast::Module>(parse_module(std::make_shared<const SourceFile>(found, text.str())));
}

}  // namespace

TranspileResult transpile(const std::string& path, const std::string& source,
                          const TranspileOptions& options) {
  TranspileResult result;
  try {
    auto file = std::make_shared<const SourceFile>(path, source);
    auto module = std::make_shared<const ast::Module>(parse_module(file));
    result.ast = print_ast(*module);
    auto scope = sema::evaluate_module(
        module, [&](const std::string& dotted, int level, const std::string& importer) {
          return load_module(path, importer, dotted, level);
        });
    auto sigs = collect_signatures(options, *scope);
    if (sigs.empty())
      throw CompileError(ErrorKind::Usage,
                         options.kernel.empty()
                             ? "no signatures: pass --sig, or put a sidecar <name>.sigs next to the kernel file"
                             : fmt::format("no signature for kernel '{}'", options.kernel));
    std::vector<ir::Function> functions;
    std::set<std::string> names;
    for (const auto& sig : sigs) {
      ir::Function fn = sema::specialize(*scope, sig);
      if (!names.insert(fn.spec_name).second)
        throw CompileError(ErrorKind::Usage, fmt::format("two specializations are named '{}'", fn.spec_name));
      ir::run_passes(fn, options.print_after, result.ir_after_passes);
      functions.push_back(std::move(fn));
    }
    ir::Module m{std::move(functions)};
    result.ir = ir::print_module(m);
    EmitOptions emit;
    emit.line_directives = options.line_directives;
    emit.header_name = options.header_name;
    emit.cu_name = options.cu_name;
    emit.source_name = options.source_name.empty() ? path : options.source_name;
    EmittedFiles files = emit_cuda(m.functions, emit);
    result.cu = std::move(files.cu);
    result.cuh = std::move(files.cuh);
    result.launch_plan = std::move(files.launch_plan);
    result.ok = true;
  } catch (const CompileError& e) {
    result.diagnostics = render_diagnostic(e);
    result.exit_code = e.kind() == ErrorKind::Usage ? 2 : 1;
  } catch (const std::exception& e) {
    // A bug in tile2cu, not in the input: say so plainly.
    result.diagnostics = fmt::format("{}: internal error in tile2cu: {}\n", path, e.what());
    result.exit_code = 3;
  }
  return result;
}

}  // namespace tile2cu
