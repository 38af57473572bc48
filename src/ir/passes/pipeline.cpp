#include "ir/passes/pipeline.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ir/passes/attention_loop.hpp"
#include "ir/passes/cse.hpp"
#include "ir/passes/dce.hpp"
#include "ir/passes/gemm_loop.hpp"
#include "ir/passes/loop_invariants.hpp"
#include "ir/printer.hpp"
#include "ir/verifier.hpp"

namespace tile2cu::ir {

namespace {

struct Pass {
  std::string name;
  void (*run)(Function&);
};

// Canonical clean-up first (CSE leaves its duplicates unread, so DCE runs after it), then the
// loop recognisers on the clean IR, then hoisting out of what is left of the loops.
const std::vector<Pass>& pipeline() {
  static const std::vector<Pass> passes{
      {"cse", eliminate_common_subexpressions},
      {"dce", eliminate_dead_code},
      {"gemm-loops", recognise_gemm_loops},
      {"attention-loops", recognise_attention_loops},
      {"licm", hoist_loop_invariants},
  };
  return passes;
}

}  // namespace

const std::vector<std::string>& pass_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Pass& p : pipeline()) n.push_back(p.name);
    return n;
  }();
  return names;
}

void run_passes(Function& fn, const std::vector<std::string>& print_after, std::string& printed) {
  auto wanted = [&](const std::string& name) {
    return std::find(print_after.begin(), print_after.end(), name) != print_after.end() ||
           std::find(print_after.begin(), print_after.end(), "all") != print_after.end();
  };
  verify(fn);
  for (const Pass& pass : pipeline()) {
    pass.run(fn);
    verify(fn);
    if (wanted(pass.name))
      printed += fmt::format("// ----- IR of {} after {} -----\n{}", fn.spec_name, pass.name, print_function(fn));
  }
}

}  // namespace tile2cu::ir
