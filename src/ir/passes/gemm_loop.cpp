#include "ir/passes/gemm_loop.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace tile2cu::ir {

namespace {

size_t stage_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed) {
  const size_t e = static_cast<size_t>(dtype_bytes(operand));
  const size_t pad = 16 / e;
  const size_t b = b_transposed ? static_cast<size_t>(bn) * (static_cast<size_t>(bk) + pad)
                                : static_cast<size_t>(bk) * (static_cast<size_t>(bn) + pad);
  return (static_cast<size_t>(bm) * (static_cast<size_t>(bk) + pad) + b) * e;
}

// The non-unit dims of a shape, in order: reshapes that keep them only add or drop unit dims.
Shape non_unit(const Shape& s) {
  Shape out;
  for (int64_t d : s)
    if (d != 1) out.push_back(d);
  return out;
}

// The K step the main loop takes for a loop whose loads are `tk` wide in K: a step wider than
// one 128-byte line per row (f16 tk = 128, as cuTile's BatchMatMul sample loads) becomes several
// line-wide steps over the same K range, the step whose stages fit and that wgmma and TMA take.
int64_t main_loop_k_step(DType operand, int64_t tk) {
  const int64_t line = 128 / dtype_bytes(operand);
  return tk > line && tk % line == 0 ? line : tk;
}

struct Matcher {
  const Function& fn;
  const Op& loop;
  std::map<ValueId, const Op*> def;  // body values -> defining op
  std::set<ValueId> body_values;
  std::vector<const Op*> hoisted;    // constants and scalar ops that do not depend on k
  int64_t k_split = 1;               // the main loop takes k_split steps per step of the loop

  ValueId iv() const { return loop.regions[0].args[0]; }

  bool defined_outside(ValueId v) const { return !body_values.count(v); }

  // Walks back from an mma operand through casts and unit-dim reshapes to its load.
  const Op* load_behind(ValueId v, bool* tf32) const {
    *tf32 = false;
    while (true) {
      auto it = def.find(v);
      if (it == def.end()) return nullptr;
      const Op& op = *it->second;
      if (op.kind == OpKind::Load) return &op;
      if (op.kind == OpKind::Convert && fn.type(op.results[0]).dtype == DType::TFloat32 &&
          fn.type(op.operands[0]).dtype == DType::Float32) {
        *tf32 = true;
      } else if (!(op.kind == OpKind::Reshape &&
                   non_unit(fn.type(op.operands[0]).shape) == non_unit(fn.type(op.results[0]).shape))) {
        return nullptr;
      }
      v = op.operands[0];
    }
  }

  // A load whose index is the loop variable at `k_axis` and loop-invariant elsewhere; identity
  // order, or (for B, when `may_transpose`) order=(1, 0) on a 2-D array holding B^T.
  bool operand_load_ok(const Op& load, int k_axis, bool may_transpose) const {
    const ArrayParam& a = fn.arrays[load.param];
    if (a.rank < 2 || static_cast<int>(load.tile_shape.size()) != a.rank) return false;
    bool transposed = a.rank == 2 && load.order == std::vector<int>{1, 0};
    if (transposed && !may_transpose) return false;
    for (size_t i = 0; i < load.order.size() && !transposed; ++i)
      if (load.order[i] != static_cast<int>(i)) return false;
    if (load.padding != PaddingMode::Zero && load.padding != PaddingMode::Undetermined) return false;
    for (int d = 0; d + 2 < a.rank; ++d)
      if (load.tile_shape[d] != 1) return false;
    for (int d = 0; d < a.rank; ++d) {
      ValueId idx = load.operands[d];
      if (d == k_axis ? idx != iv() : (idx == iv() || !defined_outside(idx))) return false;
    }
    return true;
  }

  bool match(Op* out) {
    const Block& body = loop.regions[0];
    if (loop.operands.size() != 4 || body.args.size() != 2) return false;  // exactly one carried value
    // Step 1: a constant one defined anywhere.
    for (ValueId v : body.args) body_values.insert(v);
    for (const Op& op : body.ops)
      for (ValueId r : op.results) {
        body_values.insert(r);
        def[r] = &op;
      }
    if (body.ops.empty() || body.ops.back().kind != OpKind::Yield) return false;
    const Op& yield = body.ops.back();
    auto mma_it = def.find(yield.operands[0]);
    if (mma_it == def.end() || mma_it->second->kind != OpKind::Mma) return false;
    const Op& mma = *mma_it->second;
    if (mma.operands[2] != body.args[1]) return false;
    bool tf32_a = false, tf32_b = false;
    const Op* la = load_behind(mma.operands[0], &tf32_a);
    const Op* lb = load_behind(mma.operands[1], &tf32_b);
    if (!la || !lb || la == lb || tf32_a != tf32_b) return false;
    const int ra = fn.arrays[la->param].rank, rb = fn.arrays[lb->param].rank;
    if (!operand_load_ok(*la, ra - 1, false) || !operand_load_ok(*lb, rb - 2, true)) return false;
    const bool b_transposed = lb->order == std::vector<int>{1, 0};
    // Every body op is one of the chain, or hoistable (a constant, a scalar op of values
    // defined outside, an array item or view of them); nothing else may read the loads.
    std::set<const Op*> chain = {&mma, &yield, la, lb};
    for (ValueId v : {mma.operands[0], mma.operands[1]})
      for (auto it = def.find(v); it != def.end() && it->second != la && it->second != lb; it = def.find(it->second->operands[0]))
        chain.insert(it->second);
    std::set<ValueId> invariant;
    for (const Op& op : body.ops) {
      if (chain.count(&op)) {
        for (ValueId r : op.results) {
          int uses = 0;
          for (const Op& user : body.ops)
            uses += static_cast<int>(std::count(user.operands.begin(), user.operands.end(), r));
          if (uses != 1) return false;  // a load or cast read by something else
        }
        continue;
      }
      bool scalar = !op.results.empty() && op.regions.empty();
      for (ValueId r : op.results) scalar = scalar && fn.type(r).is_scalar();
      bool pure = is_value_arithmetic(op.kind);
      // `ct.load(As[g], ...)` or `ct.load(X.slice(...), ...)` in the loop: the array the load
      // reads is defined in the body, from loop-invariant values; it moves out with the scalars.
      bool defines_array = op.kind == OpKind::ListItem || op.kind == OpKind::ArraySlice || op.kind == OpKind::ArraySelect;
      if (!defines_array && (!scalar || !pure)) return false;
      for (ValueId v : op.operands)
        if (!defined_outside(v) && !invariant.count(v)) return false;
      for (ValueId r : op.results) invariant.insert(r);
      hoisted.push_back(&op);
    }
    for (ValueId v : la->operands)
      if (v != iv() && !defined_outside(v) && !invariant.count(v)) return false;
    for (ValueId v : lb->operands)
      if (v != iv() && !defined_outside(v) && !invariant.count(v)) return false;
    // Step must be the constant 1 (defined outside the loop: search is done by the caller).
    // dtypes and tile sizes the main loop handles.
    const DType da = fn.arrays[la->param].dtype, db = fn.arrays[lb->param].dtype;
    const DType acc = fn.type(mma.operands[2]).dtype;
    const bool sixteen = (da == DType::Float16 || da == DType::BFloat16) && !tf32_a;
    const bool tf32 = da == DType::Float32 && tf32_a;
    if (da != db || !(sixteen || tf32)) return false;
    if (!(acc == DType::Float32 || (acc == DType::Float16 && da == DType::Float16))) return false;
    const int64_t bm = la->tile_shape[ra - 2], tk = la->tile_shape[ra - 1];
    const int64_t bn = lb->tile_shape[rb - 1];
    if (lb->tile_shape[rb - 2] != tk || bm % 16 || bn % 16 || tk % 16 || (bm / 16) * (bn / 16) < 8) return false;
    const int64_t bk = main_loop_k_step(da, tk);
    k_split = tk / bk;
    if (shape_elements(fn.type(mma.operands[2]).shape) != bm * bn) return false;
    const int stages = gemm_pipeline_stages(da, bm, bn, bk, b_transposed);
    if (stages < 2) return false;

    Op g;
    g.kind = OpKind::GemmLoop;
    g.loc = loop.loc;
    g.param = la->param;
    g.param_b = lb->param;
    g.tile_shape = la->tile_shape;
    g.tile_shape_b = lb->tile_shape;
    g.tile_shape[ra - 1] = bk;
    g.tile_shape_b[rb - 2] = bk;
    if (b_transposed) g.order = lb->order;
    g.stages = stages;
    g.hopper_stages = gemm_hopper_stages(da, bm, bn, bk, b_transposed);
    g.operands = {loop.operands[0], loop.operands[1]};
    for (ValueId v : la->operands) g.operands.push_back(v == iv() ? loop.operands[0] : v);
    for (ValueId v : lb->operands) g.operands.push_back(v == iv() ? loop.operands[0] : v);
    g.operands.push_back(loop.operands[3]);
    g.results = loop.results;
    *out = std::move(g);
    return true;
  }
};

// The integer value of `v` when a constant in one of `scopes` defines it (a true counts as 1).
std::optional<__int128> integer_constant(const std::vector<const Block*>& scopes, ValueId v) {
  for (const Block* b : scopes)
    for (const Op& op : b->ops)
      if (!op.results.empty() && op.results[0] == v) {
        if (op.kind != OpKind::Constant) return std::nullopt;
        if (std::holds_alternative<__int128>(op.literal)) return std::get<__int128>(op.literal);
        if (std::holds_alternative<bool>(op.literal)) return std::get<bool>(op.literal) ? 1 : 0;
        return std::nullopt;
      }
  return std::nullopt;
}

// k_begin and k_end count the loop's steps; the main loop counts its own, `factor` per step.
// A zero k_begin stays itself.
void scale_k_range(Function& fn, const std::vector<const Block*>& scopes, Op& gemm, int64_t factor,
                   std::vector<Op>* before) {
  const TileType bound = fn.type(gemm.operands[0]);
  Op c;
  c.kind = OpKind::Constant;
  c.literal = static_cast<__int128>(factor);
  c.loc = gemm.loc;
  c.results = {fn.new_value(bound)};
  before->push_back(c);
  for (int i = 0; i < 2; ++i) {
    if (integer_constant(scopes, gemm.operands[i]) == __int128(0)) continue;  // 0 * factor
    Op mul;
    mul.kind = OpKind::Binary;
    mul.binary = BinaryKind::Mul;
    mul.operands = {gemm.operands[i], c.results[0]};
    mul.loc = gemm.loc;
    mul.results = {fn.new_value(bound)};
    gemm.operands[i] = mul.results[0];
    before->push_back(std::move(mul));
  }
}

void rewrite(Function& fn, Block& block, const std::vector<const Block*>& enclosing) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    Op& op = block.ops[i];
    std::vector<const Block*> inner = enclosing;
    inner.push_back(&block);
    for (Block& r : op.regions) rewrite(fn, r, inner);
    if (op.kind != OpKind::For) continue;
    if (integer_constant(inner, op.operands[2]) != __int128(1)) continue;
    Matcher m{fn, op, {}, {}, {}};
    Op gemm;
    if (!m.match(&gemm)) continue;
    std::vector<Op> hoisted;
    for (const Op* h : m.hoisted) hoisted.push_back(*h);
    if (m.k_split > 1) scale_k_range(fn, inner, gemm, m.k_split, &hoisted);
    block.ops[i] = std::move(gemm);
    block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(i), hoisted.begin(), hoisted.end());
    i += hoisted.size();
  }
}

// The accumulator's float exchange, rows padded by 8 floats (4 for tf32 with an N-major B), as
// AccumulatorExchange (runtime/tile2cu/fragment_exchange.cuh) lays it out.
size_t exchange_bytes(DType operand, int64_t bm, int64_t bn, bool b_transposed) {
  const int64_t pad = operand == DType::Float32 && !b_transposed ? 4 : 8;
  return static_cast<size_t>(bm * (bn + pad)) * sizeof(float);
}

}  // namespace

int gemm_pipeline_stages(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed) {
  const size_t per_stage = stage_bytes(operand, bm, bn, bk, b_transposed);
  int stages = static_cast<int>(std::min<size_t>(4, kGemmSmemBudget / per_stage));
  if (exchange_bytes(operand, bm, bn, b_transposed) > kGemmSmemBudget) return 0;
  return stages >= 2 ? stages : 0;
}

size_t gemm_hopper_stage_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed) {
  // tf32 with an N-major B: B's rows are padded by 8 floats (the fragment reads' banks).
  const int64_t b_row = operand == DType::Float32 && !b_transposed ? bn + 8 : bn;
  return static_cast<size_t>((bm * bk + bk * b_row) * dtype_bytes(operand));
}

int gemm_hopper_stages(DType operand, int64_t bm, int64_t bn, int64_t bk, bool b_transposed) {
  // 16-bit operands with BK = 64, tf32 (f32 operands) with BK = 32: one 128-byte line per row.
  const bool sixteen = operand == DType::Float16 || operand == DType::BFloat16;
  const bool tf32 = operand == DType::Float32;
  // Tiles of 128 x {128, 256}; tf32 with an N-major B (C^T = B^T A^T, wgmma N = BM) also 256 x 128.
  const bool shape = (bm == 128 && (bn == 128 || bn == 256)) || (tf32 && !b_transposed && bm == 256 && bn == 128);
  if ((!sixteen && !tf32) || !shape || bk * dtype_bytes(operand) != 128) return 0;
  const size_t per_stage = gemm_hopper_stage_bytes(operand, bm, bn, bk, b_transposed);
  return static_cast<int>(std::min<size_t>(4, (kHopperSmemBudget - 1024) / per_stage));
}

size_t gemm_hopper_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, int hopper_stages, bool b_transposed) {
  if (hopper_stages == 0) return 0;
  // The stages, up to 1024 bytes to align them, and the TMA loop's mbarrier and count per stage.
  const size_t ring = static_cast<size_t>(hopper_stages) * gemm_hopper_stage_bytes(operand, bm, bn, bk, b_transposed) +
                      1024 + kTmaRingBytesPerStage * static_cast<size_t>(hopper_stages);
  return std::max(ring, exchange_bytes(operand, bm, bn, b_transposed));
}

size_t gemm_loop_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t bk, int stages, bool b_transposed) {
  return std::max(static_cast<size_t>(stages) * stage_bytes(operand, bm, bn, bk, b_transposed),
                  exchange_bytes(operand, bm, bn, b_transposed));
}

bool gemm_b_transposed(const Op& op) { return op.order == std::vector<int>{1, 0}; }

GemmTile gemm_tile(const Function& fn, const Op& op) {
  const int ra = fn.arrays[op.param].rank, rb = fn.arrays[op.param_b].rank;
  return {op.tile_shape[ra - 2], op.tile_shape_b[rb - 1], op.tile_shape[ra - 1]};
}

size_t gemm_loop_smem_bytes(const Function& fn, const Op& op) {
  GemmTile t = gemm_tile(fn, op);
  return gemm_loop_smem_bytes(fn.arrays[op.param].dtype, t.bm, t.bn, t.bk, op.stages, gemm_b_transposed(op));
}

size_t gemm_hopper_smem_bytes(const Function& fn, const Op& op) {
  GemmTile t = gemm_tile(fn, op);
  return gemm_hopper_smem_bytes(fn.arrays[op.param].dtype, t.bm, t.bn, t.bk, op.hopper_stages, gemm_b_transposed(op));
}

void recognise_gemm_loops(Function& fn) { rewrite(fn, fn.body, {}); }

}  // namespace tile2cu::ir
