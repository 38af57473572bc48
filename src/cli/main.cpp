// tile2cu command line: a thin client of tile2cu::transpile.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include "cli/runtime_headers.hpp"
#include "cli/vendor.hpp"
#include "emit/html_view.hpp"
#include "tile2cu/tile2cu.hpp"

namespace fs = std::filesystem;

namespace {

bool read_file(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// Writes through a temporary file and a rename, so a reader never sees half a file. A file that
// already holds `text` is left alone, so builds that transpile at build time (restat) do not
// recompile code that did not change.
bool write_atomically(const fs::path& path, const std::string& text, std::string& error) {
  std::string existing;
  if (read_file(path, existing) && existing == text) return true;
  fs::path tmp = path;
  tmp += fmt::format(".tmp{}", static_cast<long>(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = fmt::format("cannot write {}", tmp.string());
      return false;
    }
    out << text;
    if (!out.flush()) {
      error = fmt::format("cannot write {}", tmp.string());
      fs::remove(tmp);
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    error = fmt::format("cannot rename {} to {}: {}", tmp.string(), path.string(), ec.message());
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

// --vendor DIR: DIR/<name>.cu, DIR/<name>.cuh and DIR/tile2cu/<the runtime headers they
// include>, so `nvcc -I DIR -c DIR/<name>.cu` builds with nothing else installed.
int write_vendor_folder(const fs::path& dir, const std::string& name, const tile2cu::TranspileResult& r) {
  std::vector<std::string> missing;
  std::vector<std::string> headers = tile2cu::runtime_headers_needed({r.cu, r.cuh}, missing);
  if (!missing.empty()) {
    fmt::print(stderr, "tile2cu: error: the generated code includes runtime headers this binary does not carry: {}\n",
               fmt::join(missing, ", "));
    return 2;
  }
  std::error_code ec;
  fs::create_directories(dir / "tile2cu", ec);
  if (ec) {
    fmt::print(stderr, "tile2cu: error: cannot create {}: {}\n", (dir / "tile2cu").string(), ec.message());
    return 2;
  }
  std::string error;
  for (const std::string& h : headers) {
    if (!write_atomically(dir / h, std::string(*tile2cu::find_runtime_header(h)), error)) {
      fmt::print(stderr, "tile2cu: error: {}\n", error);
      return 2;
    }
  }
  // Runtime headers left from an earlier run that this code no longer includes.
  for (const tile2cu::EmbeddedFile& f : tile2cu::embedded_runtime_headers()) {
    std::string h(f.name);
    if (std::find(headers.begin(), headers.end(), h) == headers.end()) fs::remove(dir / h, ec);
  }
  if (!write_atomically(dir / (name + ".cuh"), r.cuh, error) ||
      !write_atomically(dir / (name + ".cu"), r.cu, error)) {
    fmt::print(stderr, "tile2cu: error: {}\n", error);
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
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
                 "What to print without -o: ast, ir, cu or header; html: a self-contained page with the "
                 "Python and the CUDA side by side (to -o FILE, or standard output)")
      ->check(CLI::IsMember({"ast", "ir", "cu", "header", "html"}));
  auto* vendor_opt =
      app.add_option("--vendor", vendor,
                     "Write DIR/<name>.cu, DIR/<name>.cuh and the runtime headers they include (DIR/tile2cu/), "
                     "so `nvcc -I DIR -c DIR/<name>.cu` builds with no tile2cu installed");
  vendor_opt->excludes(output_opt);
  app.add_flag("--line-directives", options.line_directives,
               "Emit #line directives so compiler errors and debuggers point at the Python file");
  CLI11_PARSE(app, argc, argv);

  std::string source;
  if (!read_file(input, source)) {
    fmt::print(stderr, "tile2cu: error: cannot read {}\n", input);
    return 2;
  }
  if (options.signatures.empty()) {
    fs::path side = sidecar.empty() ? fs::path(input).replace_extension(".sigs") : fs::path(sidecar);
    if (fs::exists(side)) {
      if (!read_file(side, options.sidecar_text)) {
        fmt::print(stderr, "tile2cu: error: cannot read {}\n", side.string());
        return 2;
      }
      options.sidecar_path = side.string();
    } else if (!sidecar.empty()) {
      fmt::print(stderr, "tile2cu: error: cannot read {}\n", sidecar);
      return 2;
    }
  }
  const std::string stem = fs::path(input).stem().string();
  if (!vendor.empty()) {
    options.header_name = stem + ".cuh";
    options.source_name = fs::path(input).filename().string();
    options.cu_name = stem + ".cu";
    tile2cu::TranspileResult r = tile2cu::transpile(input, source, options);
    if (!r.ok) {
      std::fwrite(r.diagnostics.data(), 1, r.diagnostics.size(), stderr);
      return r.exit_code;
    }
    return write_vendor_folder(vendor, stem, r);
  }
  if (emit == "html") {
    // The page is built from the #line directives, so they are always on here; the code it
    // shows leaves them out.
    options.line_directives = true;
    options.header_name = stem + ".cuh";
    options.source_name = fs::path(input).filename().string();
    options.cu_name = stem + ".cu";
    tile2cu::TranspileResult r = tile2cu::transpile(input, source, options);
    if (!r.ok) {
      std::fwrite(r.diagnostics.data(), 1, r.diagnostics.size(), stderr);
      return r.exit_code;
    }
    tile2cu::HtmlViewInput view{input, source, options.cu_name, r.cu, options.header_name, r.cuh, r.ir,
                                tile2cu::version()};
    std::string page = tile2cu::render_html_view(view);
    if (output.empty()) {
      std::fwrite(page.data(), 1, page.size(), stdout);
      return 0;
    }
    std::string error;
    if (!write_atomically(output, page, error)) {
      fmt::print(stderr, "tile2cu: error: {}\n", error);
      return 2;
    }
    return 0;
  }
  fs::path out_cu = output.empty() ? fs::path() : fs::path(output);
  fs::path out_cuh = out_cu;
  if (!output.empty()) out_cuh.replace_extension(".cuh");
  options.header_name = output.empty() ? fs::path(input).filename().replace_extension(".cuh").string()
                                       : out_cuh.filename().string();
  options.source_name = fs::path(input).filename().string();
  options.cu_name = output.empty() ? fs::path(input).filename().replace_extension(".cu").string()
                                   : out_cu.string();

  tile2cu::TranspileResult r = tile2cu::transpile(input, source, options);
  if (!r.ok && !(emit == "ast" && !r.ast.empty() && output.empty())) {
    std::fwrite(r.diagnostics.data(), 1, r.diagnostics.size(), stderr);
    return r.exit_code;
  }
  if (output.empty()) {
    const std::string& text = emit == "ast" ? r.ast : emit == "ir" ? r.ir : emit == "header" ? r.cuh : r.cu;
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  std::string error;
  if (!write_atomically(out_cuh, r.cuh, error) || !write_atomically(out_cu, r.cu, error)) {
    fmt::print(stderr, "tile2cu: error: {}\n", error);
    return 2;
  }
  return 0;
}
