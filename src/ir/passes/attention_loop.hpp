// Recognises flash-attention loops (an online softmax between two mmas) and replaces each with
// one AttentionLoop op, which the emitter lowers to the main loop of
// runtime/tile2cu/attention_pipeline.cuh. A loop that does not match stays a loop (the general
// path: correct, slower).
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

// The loop shape, with every condition that makes the rewrite exact:
//
//     for j in range(j_begin, j_end):                  step 1; carried m, l (BM x 1), acc (BM x D), f32
//         kt = load(K, index=(.., 0, j), shape=(.., D, BN), order=(.., R-1, R-2))   K read transposed
//         s0 = mma(q, kt, zeros)              q: a BM x D tile of K's dtype defined before the loop
//         s = f(s0, rows, cols, j)            elementwise ops only (scale, where-masks built from
//                                             arange, constants, scalars): scalarised into the
//                                             op's region (args s, row, col, j -> the new s)
//         m_new = maximum(m, max(s, axis=1))
//         p = exp2(s - m_new); alpha = exp2(m - m_new)      (exp works too; both the same)
//         l = l * alpha + sum(p, axis=1)
//         v = load(V, index=(.., j, 0), shape=(.., BN, D))
//         acc = mma(p.astype(T), v, acc * alpha); m = m_new
//
// with T float16 / bfloat16, zero (or undetermined) padding, leading tile dims 1, D-axis index
// the constant 0, every other index defined outside the loop or by scalar ops the rewrite hoists,
// BN and D multiples of 16, BM a multiple of 16, and a K/V ring of two stages or more in
// kAttentionSmemBudget bytes.
void recognise_attention_loops(Function& fn);

constexpr size_t kAttentionSmemBudget = 160 * 1024;  // fits sm_80 (164 KiB) as well as sm_90 (227 KiB)
// K/V ring depth for these tiles: 2, or 0 when two stages do not fit.
int attention_pipeline_stages(DType operand, int64_t bm, int64_t bn, int64_t d);
// Whether tiles suit the sm_90a wgmma loop (mirrors AttentionMainLoop::kWgmma): 16-bit
// operands, BM = 128 (two warpgroups), BN and D of 64 or 128.
bool attention_wgmma_tiles(DType operand, int64_t bm, int64_t bn, int64_t d);
// Shared-memory bytes of the main loop, the larger of its mma.sync and wgmma forms (mirrors
// AttentionMainLoop::kSmemBytes).
size_t attention_loop_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t d, int stages);
size_t attention_loop_smem_bytes(const Function& fn, const Op& attention_loop);

// The tile extents of an AttentionLoop op: BM query rows, BN keys per step, head dim D.
struct AttentionTile { int64_t bm, bn, d; };
AttentionTile attention_tile(const Function& fn, const Op& attention_loop);
// The CTA's threads the main loop wants: one warp per 16 query rows, at most 8 warps.
int attention_threads(const Function& fn, const Op& attention_loop);
// Whether the op runs on wgmma when compiled for sm_90a.
bool attention_uses_wgmma(const Function& fn, const Op& attention_loop);

}  // namespace tile2cu::ir
