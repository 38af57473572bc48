// The pass pipeline every specialization goes through, in one place: its passes by name, in
// order, the verifier after each, and the IR printed after the ones asked for
// (`tile2cu --print-after=cse,licm`, or `all`).
#pragma once

#include <string>
#include <vector>

#include "ir/ir.hpp"

namespace tile2cu::ir {

// The pipeline's pass names, in the order they run.
const std::vector<std::string>& pass_names();

// Runs the pipeline on `fn`. After each pass named in `print_after` ("all": every pass), the
// function's IR is appended to `printed` under a header naming the pass.
void run_passes(Function& fn, const std::vector<std::string>& print_after, std::string& printed);

}  // namespace tile2cu::ir
