// tile2cu command line: a thin client of tile2cu::transpile.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <new>

#include "cli/files.hpp"
#include "cli/runtime_headers.hpp"
#include "cli/vendor.hpp"
#include "emit/html_view.hpp"
#include "ir/passes/pipeline.hpp"
#include "tile2cu/tile2cu.hpp"

namespace fs = std::filesystem;

namespace {

int fail(const std::string& error) {
  fmt::print(stderr, "tile2cu: error: {}\n", error);
  return 2;
}

int report(const tile2cu::TranspileResult& r) {
  std::fwrite(r.diagnostics.data(), 1, r.diagnostics.size(), stderr);
  return r.exit_code;
}

// --vendor DIR: DIR/<name>.cu, DIR/<name>.cuh, DIR/<name>.plan.json (launch_plan.hpp) and
// DIR/tile2cu/<the runtime headers they include>, so `nvcc -I DIR -c DIR/<name>.cu` builds with nothing else installed.
int write_vendor_folder(const fs::path& dir, const std::string& name, const tile2cu::TranspileResult& r,
                        const std::vector<fs::path>& inputs) {
  std::vector<std::string> missing;
  std::vector<std::string> headers = tile2cu::runtime_headers_needed({r.cu, r.cuh}, missing);
  if (!missing.empty())
    return fail(fmt::format("the generated code includes runtime headers this binary does not carry: {}",
                            fmt::join(missing, ", ")));
  std::error_code ec;
  fs::create_directories(dir / "tile2cu", ec);
  if (ec) return fail(fmt::format("cannot create {}: {}", (dir / "tile2cu").string(), ec.message()));
  std::vector<tile2cu::cli::OutputFile> outputs;
  for (const std::string& h : headers) outputs.emplace_back(dir / h, std::string(*tile2cu::find_runtime_header(h)));
  outputs.emplace_back(dir / (name + ".cuh"), r.cuh);
  outputs.emplace_back(dir / (name + ".cu"), r.cu);
  outputs.emplace_back(dir / (name + ".plan.json"), r.launch_plan);
  std::string error;
  if (!tile2cu::cli::write_outputs(outputs, inputs, error)) return fail(error);
  // Runtime headers left from an earlier run that this code no longer includes.
  for (const tile2cu::EmbeddedFile& f : tile2cu::embedded_runtime_headers()) {
    std::string h(f.name);
    if (std::find(headers.begin(), headers.end(), h) == headers.end()) fs::remove(dir / h, ec);
  }
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"tile2cu: transpile cuTile Python tile kernels to readable CUDA C++"};
  app.set_version_flag("--version", std::string("tile2cu ") + tile2cu::version());
  std::string input, output, emit = "cu", sidecar, vendor;
  tile2cu::TranspileOptions options;
  app.add_option("input", input, "Python file holding @ct.kernel functions")->required();
  auto* output_opt = app.add_option("-o,--output", output,
                 "Output .cu file; the header (.cuh) is written next to it (with --emit=html: the page). "
                 "Without -o, the chosen --emit stage goes to standard output");
  app.add_option("--kernel", options.kernel, "Kernel to specialize (default: every kernel the signatures name)");
  app.add_option("--sig", options.signatures,
                 "Signature, e.g. 'a=float32[?], b=float32[?], TILE=1024' or "
                 "'name = kernel(a=float16[?, ?], n=int32)'; repeat for several specializations")
      ->take_all();
  app.add_option("--sigs", sidecar, "Signature file (default: <input without .py>.sigs when it exists)");
  app.add_option("--emit", emit,
                 "What to print without -o: ast, ir, cu or header; plan: the launch plan (JSON: how each "
                 "specialization is launched, for launchers that compile only device code); html: a "
                 "self-contained page with the Python and the CUDA side by side (to -o FILE, or standard output)")
      ->check(CLI::IsMember({"ast", "ir", "cu", "header", "plan", "html"}));
  auto* vendor_opt =
      app.add_option("--vendor", vendor,
                     "Write DIR/<name>.cu, DIR/<name>.cuh, DIR/<name>.plan.json (the launch plan) and the runtime "
                     "headers they include (DIR/tile2cu/), so `nvcc -I DIR -c DIR/<name>.cu` builds with no "
                     "tile2cu installed");
  vendor_opt->excludes(output_opt);
  std::vector<std::string> pass_choices = tile2cu::ir::pass_names();
  pass_choices.push_back("all");
  app.add_option("--print-after", options.print_after,
                 fmt::format("Print each specialization's IR to standard error after these passes ({}; all: "
                             "after every one), comma-separated",
                             fmt::join(tile2cu::ir::pass_names(), ", ")))
      ->delimiter(',')
      ->check(CLI::IsMember(pass_choices));
  app.add_flag("--line-directives", options.line_directives,
               "Emit #line directives so compiler errors and debuggers point at the Python file");
  CLI11_PARSE(app, argc, argv);

  std::string source, error;
  std::vector<fs::path> inputs{input};
  if (!tile2cu::cli::read_input_file(input, source, error)) return fail(error);
  if (options.signatures.empty()) {
    fs::path side = sidecar.empty() ? fs::path(input).replace_extension(".sigs") : fs::path(sidecar);
    std::error_code ec;
    if (fs::exists(side, ec) || !sidecar.empty()) {
      if (!tile2cu::cli::read_input_file(side, options.sidecar_text, error)) return fail(error);
      options.sidecar_path = side.string();
      inputs.push_back(side);
    }
  }
  // The IR asked for with --print-after goes to standard error, whether or not the run succeeds.
  auto transpile = [&] {
    tile2cu::TranspileResult r = tile2cu::transpile(input, source, options);
    std::fputs(r.ir_after_passes.c_str(), stderr);
    return r;
  };
  const std::string stem = fs::path(input).stem().string();
  if (!vendor.empty() || emit == "html") {
    options.header_name = stem + ".cuh";
    options.source_name = fs::path(input).filename().string();
    options.cu_name = stem + ".cu";
  }
  if (!vendor.empty()) {
    tile2cu::TranspileResult r = transpile();
    if (!r.ok) return report(r);
    return write_vendor_folder(vendor, stem, r, inputs);
  }
  if (emit == "html") {
    // The page is built from the #line directives, so they are always on here; the code it
    // shows leaves them out.
    options.line_directives = true;
    tile2cu::TranspileResult r = transpile();
    if (!r.ok) return report(r);
    tile2cu::HtmlViewInput view{input, source, options.cu_name, r.cu, options.header_name, r.cuh, r.ir,
                                tile2cu::version()};
    std::string page = tile2cu::render_html_view(view);
    bool written = output.empty() ? tile2cu::cli::write_stdout(page, error)
                                  : tile2cu::cli::write_outputs({{output, page}}, inputs, error);
    return written ? 0 : fail(error);
  }
  fs::path out_cu = output.empty() ? fs::path() : fs::path(output);
  fs::path out_cuh = out_cu;
  if (!output.empty()) out_cuh.replace_extension(".cuh");
  options.header_name = output.empty() ? fs::path(input).filename().replace_extension(".cuh").string()
                                       : out_cuh.filename().string();
  options.source_name = fs::path(input).filename().string();
  options.cu_name = output.empty() ? fs::path(input).filename().replace_extension(".cu").string()
                                   : out_cu.string();

  tile2cu::TranspileResult r = transpile();
  if (!r.ok && !(emit == "ast" && !r.ast.empty() && output.empty())) return report(r);
  if (output.empty()) {
    const std::string& text = emit == "ast"      ? r.ast
                              : emit == "ir"     ? r.ir
                              : emit == "header" ? r.cuh
                              : emit == "plan"   ? r.launch_plan
                                                 : r.cu;
    return tile2cu::cli::write_stdout(text, error) ? 0 : fail(error);
  }
  if (!tile2cu::cli::write_outputs({{out_cuh, r.cuh}, {out_cu, r.cu}}, inputs, error)) return fail(error);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The transpiler reports its own failures as diagnostics; this catches what escapes the
  // command line around it (out of memory while reading or writing, a filesystem error).
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("tile2cu: error: out of memory\n", stderr);
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tile2cu: internal error: {}\n", e.what());
  }
  return 3;
}
