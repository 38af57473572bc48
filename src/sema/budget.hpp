// tile2cu's budget for lowering one file. Unrolled ct.static_iter loops, inlined helpers and
// many signatures multiply the work a short file asks for; the budget stops that work early,
// with an error at the Python line, before it costs minutes, gigabytes or a huge output.
#pragma once

namespace tile2cu::sema {

struct LoweringBudget {
  // Statements and expressions evaluated (module-level code included), each unrolled or
  // inlined copy counted again: bounds the time spent (about 0.2 s a million). A file of the
  // CLI's largest size (4 MiB) holds fewer expressions than this.
  static constexpr long kMaxSteps = 4'000'000;
  // IR operations created over all specializations: bounds memory and the output's size
  // (about 1 KiB of memory and 130 bytes of CUDA each).
  static constexpr long kMaxOps = 100'000;
  long steps = 0;
  long ops = 0;
};

}  // namespace tile2cu::sema
