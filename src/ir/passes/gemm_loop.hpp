// Recognises GEMM k-loops and replaces each with one GemmLoop op, which the emitter lowers to
// the pipelined main loop of runtime/tile2cu/gemm_pipeline.cuh.
#pragma once

#include "ir/ir.hpp"

namespace tile2cu::ir {

// The loop shape, with every condition that makes the rewrite exact:
//
//     for k in range(k_begin, k_end):                 step 1, one carried value (acc)
//         a = load(A, index=(.., m, k), shape=(.., BM, BK))   identity order (B also (1, 0) on a
//         b = load(B, index=(.., k, n), shape=(.., BK, BN))   2-D B^T), zero/undetermined padding,
//                                                             leading tile dims 1
//         [a = a.astype(tfloat32); b = b.astype(tfloat32)]    for float32 arrays
//         [reshapes that only add or drop unit dims]
//         acc = mma(a, b, acc)
//
// with A and B float16 / bfloat16 (acc float32, or float16 for float16) or float32 cast to
// tfloat32 (acc float32); BM, BN multiples of 16 with at least eight 16 x 16 patches; BK a
// multiple of 16; pipeline stages that fit (gemm_pipeline_stages). Every other index is
// defined outside the loop, or by constants and scalar ops the rewrite hoists.
void recognise_gemm_loops(Function& fn);

// Pipeline depth for a main loop of these tiles (0 when two stages do not fit): as many as fit
// in kGemmSmemBudget bytes, at most four. Row padding of 16 bytes per operand row.
constexpr size_t kGemmSmemBudget = 160 * 1024;  // fits sm_80 (164 KiB) as well as sm_90 (227 KiB)
int gemm_pipeline_stages(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed = false);
// The sm_90a wgmma loop's depth (0 where it does not apply: it takes 16-bit operands with
// 128 x {128, 256} x 64 tiles, tf32 with 128 x {128, 256} x 32, and 256 x 128 x 32 when B is
// N-major): four 1024-byte-aligned stages
// at most, within kHopperSmemBudget (sm_90's 227 KiB). Stages are unpadded, except B's rows in
// the tf32 loop with an N-major B (C^T = B^T A^T, B^T from registers: rows of BN + 8 floats).
constexpr size_t kHopperSmemBudget = 227 * 1024;
// A TMA-fed ring's mbarrier and warp count per stage (mirrors tma::kRingBytesPerStage).
constexpr size_t kTmaRingBytesPerStage = 16;
int gemm_hopper_stages(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed = false);
// Bytes of one stage of that loop (mirrors GemmMainLoop::kWgmmaStageBytes).
size_t gemm_hopper_stage_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed = false);
// Shared-memory bytes of that main loop on sm_90a (mirrors GemmMainLoop::kHopperSmemBytes).
size_t gemm_hopper_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, int hopper_stages,
                              bool b_transposed = false);
// Shared-memory bytes of that main loop (mirrors GemmMainLoop::kSmemBytes).
size_t gemm_loop_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, int stages, bool b_transposed = false);
size_t gemm_loop_smem_bytes(const Function& fn, const Op& gemm_loop);
size_t gemm_hopper_smem_bytes(const Function& fn, const Op& gemm_loop);

// Whether a GemmLoop's B is loaded with order=(1, 0) (the array holds B^T; op.order says so).
bool gemm_b_transposed(const Op& gemm_loop);
// The three tile extents of a GemmLoop op.
struct GemmTile { int64_t bm, bn, bk; };
GemmTile gemm_tile(const Function& fn, const Op& gemm_loop);

}  // namespace tile2cu::ir
