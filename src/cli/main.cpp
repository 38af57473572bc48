// tile2cu command line: a thin client of tile2cu::transpile.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

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

// Writes through a temporary file and a rename, so a reader never sees half a file.
bool write_atomically(const fs::path& path, const std::string& text, std::string& error) {
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tile2cu: transpile cuTile Python tile kernels to readable CUDA C++"};
  app.set_version_flag("--version", std::string("tile2cu ") + tile2cu::version());
  std::string input, output, emit = "cu", sidecar;
  tile2cu::TranspileOptions options;
  app.add_option("input", input, "Python file holding @ct.kernel functions")->required();
  app.add_option("-o,--output", output,
                 "Output .cu file; the header (.cuh) is written next to it. Without -o, "
                 "the chosen --emit stage goes to standard output");
  app.add_option("--kernel", options.kernel, "Kernel to specialize (default: every kernel the signatures name)");
  app.add_option("--sig", options.signatures,
                 "Signature, e.g. 'a=float32[?], b=float32[?], TILE=1024' or "
                 "'name = kernel(a=float16[?, ?], n=int32)'; repeat for several specializations")
      ->take_all();
  app.add_option("--sigs", sidecar, "Signature file (default: <input without .py>.sigs when it exists)");
  app.add_option("--emit", emit, "What to print without -o: ast, ir, cu or header")
      ->check(CLI::IsMember({"ast", "ir", "cu", "header"}));
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
