#include "emit/tensor_maps.hpp"

#include <fmt/format.h>

#include <optional>
#include <utility>

#include "emit/emit_attention.hpp"
#include "emit/emit_gemm.hpp"
#include "ir/passes/attention_loop.hpp"
#include "ir/passes/gemm_loop.hpp"

namespace tile2cu {

namespace {

// The host encodes tensor maps from the launch's arguments, so only a kernel parameter itself
// qualifies: a list item or an Array.slice view gets its base inside the kernel.
bool host_known(const ir::ArrayParam& a, int min_rank, int max_rank) {
  return a.rank >= min_rank && a.rank <= max_rank && a.list_of < 0 && a.slice_of < 0 && a.select_of.empty();
}

bool is_16_bit(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

// Every box's last axis is one 128-byte swizzled line of 16-bit elements (what wgmma reads).
constexpr uint32_t kLineElements = 64;

// A GEMM's boxes: A's BM x 64 (rows by one line of K), B's 64 x 64 (BK rows of N) or, with B
// stored transposed (N x K), BN x 64.
std::vector<TensorMapOperand> gemm_operands(const ir::Function& fn, const ir::Op& op) {
  const ir::GemmTile t = ir::gemm_tile(fn, op);
  const auto b_rows = static_cast<uint32_t>(ir::gemm_b_transposed(op) ? t.bn : t.bk);
  return {{op.param, "a", {static_cast<uint32_t>(t.bm), kLineElements}}, {op.param_b, "b", {b_rows, kLineElements}}};
}

// Attention's K and V: one BN-key tile of 64 of the head dim at fixed leading (batch, head) indices.
std::vector<TensorMapOperand> attention_operands(const ir::Function& fn, const ir::Op& op) {
  const ir::AttentionTile t = ir::attention_tile(fn, op);
  std::vector<TensorMapOperand> out;
  for (auto [array, field] : {std::pair{op.param, "k"}, std::pair{op.param_b, "v"}}) {
    std::vector<uint32_t> box(static_cast<size_t>(fn.arrays[array].rank), 1);
    box[box.size() - 2] = static_cast<uint32_t>(t.bn), box.back() = kLineElements;
    out.push_back({array, field, box});
  }
  return out;
}

// The parameter's fields but its name, or nothing when the loop is not fed by the copy engine.
std::optional<TensorMapParam> tensor_map_param(const ir::Function& fn, const ir::Op& op) {
  if (op.kind != ir::OpKind::GemmLoop && op.kind != ir::OpKind::AttentionLoop) return std::nullopt;
  const ir::ArrayParam& a = fn.arrays[op.param];
  const ir::ArrayParam& b = fn.arrays[op.param_b];
  // GemmMainLoop::kWgmma: the wgmma loop (and its TMA path) needs at least 3 stages.
  if (op.kind == ir::OpKind::GemmLoop && op.hopper_stages >= 3 && is_16_bit(a.dtype) && host_known(a, 2, 2) &&
      host_known(b, 2, 2))  // (rank-2 operands: the GEMM's boxes are 2-D)
    return TensorMapParam{"",     "GemmTensorMaps", "gemm_tensor_maps", gemm_loop_config_name(fn, op),
                          a.name, b.name,           gemm_operands(fn, op)};
  if (op.kind == ir::OpKind::AttentionLoop && ir::attention_uses_wgmma(fn, op) && host_known(a, 2, 5) &&
      host_known(b, 2, 5))  // (the copy engine takes up to 5 axes)
    return TensorMapParam{"",     "AttentionTensorMaps", "attention_tensor_maps", attention_loop_config_name(fn, op),
                          a.name, b.name,                attention_operands(fn, op)};
  return std::nullopt;
}

}  // namespace

std::vector<TensorMapParam> tensor_map_params(const ir::Function& fn) {
  std::vector<TensorMapParam> params;
  ir::for_each_op(fn.body, [&](const ir::Op& op) {
    std::optional<TensorMapParam> p = tensor_map_param(fn, op);
    if (!p) return;
    bool clash = false;
    for (const TensorMapParam& q : params) {
      if (q.a == p->a && q.b == p->b && q.config == p->config) return;  // shared with an earlier loop
      clash = clash || (q.a == p->a && q.b == p->b);
    }
    p->name = clash ? fmt::format("{}_{}_{}_tma", p->a, p->b, p->config) : fmt::format("{}_{}_tma", p->a, p->b);
    params.push_back(*p);
  });
  return params;
}

std::string tensor_maps_name(const ir::Function& fn, const ir::Op& loop) {
  std::optional<TensorMapParam> mine = tensor_map_param(fn, loop);
  if (!mine) return "";
  for (const TensorMapParam& p : tensor_map_params(fn))
    if (p.a == mine->a && p.b == mine->b && p.config == mine->config) return p.name;
  return "";
}

}  // namespace tile2cu
