// How an AttentionLoop op (a recognised flash-attention loop) reads in the generated code: its
// main-loop configuration, declared once per specialization as named constants.
#pragma once

#include <string>

#include "ir/ir.hpp"

namespace tile2cu {

// "AttentionLoop_64x64x128": the configuration type of one AttentionLoop op (BM x BN x D).
std::string attention_loop_config_name(const ir::Function& fn, const ir::Op& attention_loop);

// The `using AttentionLoop_... = AttentionMainLoop<...>;` lines (with what they mean) for every
// AttentionLoop in the function; empty when there is none.
std::string attention_loop_declarations(const ir::Function& fn);

}  // namespace tile2cu
