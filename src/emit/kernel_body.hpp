// The statements of one kernel body, printed from Tile IR (used by cuda_emitter.cpp).
#pragma once

#include <string>

#include "emit/layout_plan.hpp"
#include "ir/ir.hpp"

namespace tile2cu {

std::string cpp_type(const ir::TileType& t, const LayoutPlan& plan);
std::string cpp_literal(const ir::Literal& lit, DType dtype);

// With #line directives on, the body ends with this line, which the file emitter replaces by
// a #line directive back into the .cu file.
inline constexpr const char* kRestoreLineMarker = "#line TILE2CU_RESTORE";

// The body of the __global__ function, indented one level, Python lines as comments.
std::string emit_kernel_body(const ir::Function& fn, const LayoutPlan& plan, bool line_directives);

}  // namespace tile2cu
