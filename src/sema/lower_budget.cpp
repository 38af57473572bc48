// Spending the file's lowering budget (budget.hpp). A spent budget is reported at the outermost
// ct.static_iter being unrolled, since unrolling multiplies the work; otherwise at the
// statement or expression that went over (inlined helpers and many signatures add up there).
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

[[noreturn]] void budget_spent(const KernelLowering& k, SourceRange range, const std::string& what) {
  if (k.unrolling_.empty())
    k.error(ErrorKind::UnsupportedFeature, range,
            fmt::format("lowering this file needs more than {}: tile2cu's budget for one file (inlined helpers, "
                        "unrolled loops and every signature count)",
                        what));
  const auto& outer = k.unrolling_.front();
  k.error_at(ErrorKind::UnsupportedFeature, outer.depth, outer.file, outer.range,
             fmt::format("unrolling this ct.static_iter() loop needs more than {}: tile2cu's budget for one file; "
                         "use a range() loop, which stays a loop",
                         what));
}

}  // namespace

void KernelLowering::spend_step(SourceRange range) {
  if (++budget_->steps > LoweringBudget::kMaxSteps)
    budget_spent(*this, range,
                 fmt::format("{} statements and expressions evaluated", LoweringBudget::kMaxSteps));
}

void KernelLowering::spend_op() {
  if (++budget_->ops > LoweringBudget::kMaxOps)
    budget_spent(*this, stmt_range_, fmt::format("{} IR operations", LoweringBudget::kMaxOps));
}

}  // namespace tile2cu::sema
