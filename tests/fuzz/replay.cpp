// Replays fuzz inputs through the fuzz targets without libFuzzer, so that the regression
// inputs and the corpus run in the ordinary test build (any compiler, any sanitizer).
//
//   fuzz_replay [--target all|frontend|sema|pipeline] [--max-seconds S] PATH...
//
// Each PATH is a file or a folder (searched recursively for regular files; README* skipped).
// A foo.py with a foo.sigs next to it and no `# sig:` line of its own gets the sidecar's
// signatures as `# sig:` lines, so samples replay with their real signatures.
// Prints each input before running it (a crash names its input), and fails when an input
// takes longer than S seconds (default 5) in any target, times TILE2CU_TEST_TIME_SCALE where
// that is set (sanitizer builds run several times slower).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Sidecar signatures as header lines, when the input has none of its own.
std::string with_sidecar(const fs::path& p, std::string text) {
  if (p.extension() != ".py" || text.find("# sig:") != std::string::npos) return text;
  fs::path side = p;
  side.replace_extension(".sigs");
  if (!fs::is_regular_file(side)) return text;
  std::istringstream lines(slurp(side));
  std::string line, headers;
  while (std::getline(lines, line)) {
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos || line[b] == '#') continue;
    headers += "# sig: " + line.substr(b) + "\n";
  }
  return headers + text;
}

void collect(const fs::path& p, std::vector<fs::path>& out) {
  if (fs::is_directory(p)) {
    for (const auto& e : fs::recursive_directory_iterator(p))
      if (e.is_regular_file() && e.path().filename().string().rfind("README", 0) != 0 &&
          e.path().extension() != ".sigs")
        out.push_back(e.path());
  } else if (fs::is_regular_file(p)) {
    out.push_back(p);
  } else {
    std::fprintf(stderr, "fuzz_replay: no such file or folder: %s\n", p.c_str());
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string target = "all";
  double max_seconds = 5.0;
  std::vector<fs::path> inputs;
  int paths = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--target") && i + 1 < argc) {
      target = argv[++i];
    } else if (!std::strcmp(argv[i], "--max-seconds") && i + 1 < argc) {
      max_seconds = std::atof(argv[++i]);
    } else {
      collect(argv[i], inputs);
      ++paths;
    }
  }
  if (const char* scale = std::getenv("TILE2CU_TEST_TIME_SCALE"); scale && std::atof(scale) > 0)
    max_seconds *= std::atof(scale);
  std::sort(inputs.begin(), inputs.end());
  using Fn = void (*)(const uint8_t*, size_t);
  struct Target { const char* name; Fn fn; };
  const Target all[] = {{"frontend", tile2cu::fuzz::frontend},
                        {"sema", tile2cu::fuzz::sema},
                        {"pipeline", tile2cu::fuzz::pipeline}};
  std::vector<Target> targets;
  for (const Target& t : all)
    if (target == "all" || target == t.name) targets.push_back(t);
  if (targets.empty() || paths == 0) {
    std::fprintf(stderr, "usage: fuzz_replay [--target all|frontend|sema|pipeline] [--max-seconds S] PATH...\n");
    return 2;
  }
  int slow = 0;
  double total = 0, worst = 0;
  std::string worst_name;
  for (const fs::path& p : inputs) {
    std::string data = with_sidecar(p, slurp(p));
    for (const Target& t : targets) {
      std::fprintf(stderr, "replay %s %s\n", t.name, p.c_str());
      auto start = std::chrono::steady_clock::now();
      t.fn(reinterpret_cast<const uint8_t*>(data.data()), data.size());
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      total += s;
      if (s > worst) worst = s, worst_name = std::string(t.name) + " " + p.string();
      if (s > max_seconds) {
        std::printf("SLOW %s %s: %.2f s (limit %.2f s)\n", t.name, p.c_str(), s, max_seconds);
        ++slow;
      }
    }
  }
  std::printf("fuzz_replay: %zu inputs x %zu targets in %.2f s (slowest %.3f s: %s); %d too slow\n",
              inputs.size(), targets.size(), total, worst, worst_name.c_str(), slow);
  return slow ? 1 : 0;
}
