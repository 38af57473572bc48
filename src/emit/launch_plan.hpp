// A specialization's launch plan as data (JSON): what the generated host launcher does before
// its one `<<<...>>>`, written down so that a launcher without a host compiler (the Python
// package's NVRTC path, python/tile2cu/_launch_plan.py) launches the same kernel the same way:
// the argument checks, the whole-tile proof that picks the kernel's copy, threads, CTAs, shared
// memory, and every kernel parameter with its C type and where its value comes from.
// List arguments are in the plan (the launcher checks their items and uploads their tables
// itself), and so are TMA tensor maps: per map, the cuTensorMapEncodeTiled arguments as parts
// of the launch's arguments, and where it sits in its struct (the launcher encodes them). A
// specialization whose launcher does what the plan cannot describe says so in
// "host_launcher_only", the reason in words.
#pragma once

#include <nlohmann/json.hpp>

#include "emit/layout_plan.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

inline constexpr int kLaunchPlanFormat = 1;

// One specialization's plan (names in their C++ spelling, as the .cu has them).
nlohmann::json launch_plan(const ir::Function& fn, const LayoutPlan& plan);

}  // namespace tile2cu
