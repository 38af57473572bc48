#include "ir/passes/attention_loop.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "ir/passes/attention_mask.hpp"
#include "ir/passes/dce.hpp"
#include "ir/passes/gemm_loop.hpp"

namespace tile2cu::ir {

namespace {

size_t padded_tile_bytes(DType operand, int64_t rows, int64_t d) {
  const size_t e = static_cast<size_t>(dtype_bytes(operand));
  return static_cast<size_t>(rows) * (static_cast<size_t>(d) + 16 / e) * e;
}

Shape non_unit(const Shape& s) {
  Shape out;
  for (int64_t d : s)
    if (d != 1) out.push_back(d);
  return out;
}

bool is_half_like(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

struct Matcher {
  Function& fn;
  const Op& loop;
  std::map<ValueId, const Op*> def;  // every value of the function -> its defining op
  std::set<ValueId> body_values;
  std::set<const Op*> matched;       // body ops the new op stands for
  std::vector<const Op*> hoisted;    // scalar ops of invariants, moved before the new op
  std::set<ValueId> invariant;       // results of hoisted ops

  ValueId iv() const { return loop.regions[0].args[0]; }
  bool outside(ValueId v) const { return !body_values.count(v); }
  bool loop_invariant(ValueId v) const { return outside(v) || invariant.count(v); }

  const Op* def_of(ValueId v) const {
    auto it = def.find(v);
    return it == def.end() ? nullptr : it->second;
  }
  const Op* body_def(ValueId v, OpKind kind) const {
    const Op* op = def_of(v);
    return op && body_values.count(v) && op->kind == kind ? op : nullptr;
  }

  // Walks back through unit-dim reshapes (each recorded as matched) to a body load.
  const Op* load_behind(ValueId v) {
    while (const Op* op = def_of(v)) {
      if (!body_values.count(v)) return nullptr;
      if (op->kind == OpKind::Load) {
        matched.insert(op);
        return op;
      }
      if (op->kind != OpKind::Reshape ||
          non_unit(fn.type(op->operands[0]).shape) != non_unit(fn.type(op->results[0]).shape))
        return nullptr;
      matched.insert(op);
      v = op->operands[0];
    }
    return nullptr;
  }

  bool is_integer_constant(ValueId v, int value) const {
    const Op* op = def_of(v);
    auto* i = op && op->kind == OpKind::Constant ? std::get_if<__int128>(&op->literal) : nullptr;
    return i && *i == value;
  }
  bool is_zero_constant(ValueId v) const {
    const Op* op = def_of(v);
    if (op && op->kind == OpKind::Broadcast && fn.type(op->operands[0]).is_scalar()) op = def_of(op->operands[0]);
    if (!op || op->kind != OpKind::Constant) return false;
    if (auto* d = std::get_if<double>(&op->literal)) return *d == 0.0;
    if (auto* i = std::get_if<__int128>(&op->literal)) return *i == 0;
    return false;
  }
  void match_splat(ValueId v) {  // a zero accumulator's broadcast and constant, when in the body
    const Op* op = def_of(v);
    if (op && body_values.count(v)) matched.insert(op);
    if (op && op->kind == OpKind::Broadcast && body_values.count(op->operands[0])) matched.insert(def_of(op->operands[0]));
  }

  // A K or V load: leading tile dims 1 and invariant indices; the key axis indexed by j, the D
  // axis by the constant 0; zero or undetermined padding.
  bool kv_load_ok(const Op& load, bool transposed) const {
    const ArrayParam& a = fn.arrays[load.param];
    const int r = a.rank;
    if (r < 2 || static_cast<int>(load.tile_shape.size()) != r) return false;
    if (load.padding != PaddingMode::Zero && load.padding != PaddingMode::Undetermined) return false;
    for (int d = 0; d < r; ++d) {
      const int want = transposed && d >= r - 2 ? (d == r - 2 ? r - 1 : r - 2) : d;
      if (load.order.size() == static_cast<size_t>(r) ? load.order[d] != want : transposed) return false;
    }
    for (int d = 0; d + 2 < r; ++d)
      if (load.tile_shape[d] != 1 || load.operands[d] == iv() || !loop_invariant(load.operands[d])) return false;
    const int key_axis = transposed ? r - 1 : r - 2, d_axis = transposed ? r - 2 : r - 1;
    return load.operands[key_axis] == iv() && is_zero_constant(load.operands[d_axis]);
  }

  // p = unary(s - broadcast(m_new)) or alpha = unary(m - m_new): returns the minuend.
  ValueId exp_of_difference(ValueId v, ValueId subtrahend, UnaryKind* kind) {
    const Op* e = body_def(v, OpKind::Unary);
    if (!e || (e->unary != UnaryKind::Exp2 && e->unary != UnaryKind::Exp)) return kNoValue;
    const Op* sub = body_def(e->operands[0], OpKind::Binary);
    if (!sub || sub->binary != BinaryKind::Sub) return kNoValue;
    ValueId rhs = sub->operands[1];
    if (rhs != subtrahend) {
      const Op* b = body_def(rhs, OpKind::Broadcast);
      if (!b || b->operands[0] != subtrahend) return kNoValue;
      matched.insert(b);
    }
    *kind = e->unary;
    matched.insert(e);
    matched.insert(sub);
    return sub->operands[0];
  }

  // A binary op `kind` of x and something; the something, or kNoValue.
  ValueId other_operand(const Op* op, BinaryKind kind, ValueId x) const {
    if (!op || op->kind != OpKind::Binary || op->binary != kind || op->propagate_nan) return kNoValue;
    if (op->operands[0] == x) return op->operands[1];
    if (op->operands[1] == x) return op->operands[0];
    return kNoValue;
  }

  const Op* row_reduce(ValueId v, BinaryKind kind, ValueId of) const {
    const Op* r = body_def(v, OpKind::Reduce);
    if (!r || !r->regions.empty() || r->arg || r->propagate_nan || r->binary != kind || r->axes != std::vector<int>{1} ||
        r->operands[0] != of)
      return nullptr;
    return r;
  }

  // ---- the score function: the elementwise ops between s0 and s, one element at a time ----

  Block region;
  ValueId s0 = kNoValue;
  std::map<std::pair<ValueId, std::vector<ValueId>>, ValueId> scalar_of;
  ValueId zero_index = kNoValue;

  ValueId add_op(Op op, DType dtype) {
    ValueId r = fn.new_value(TileType{dtype, {}});
    op.results = {r};
    region.ops.push_back(std::move(op));
    return r;
  }
  ValueId zero() {
    if (zero_index == kNoValue) {
      Op c;
      c.kind = OpKind::Constant;
      c.literal = __int128(0);
      c.loc = loop.loc;
      zero_index = add_op(std::move(c), DType::Int32);
    }
    return zero_index;
  }

  // Element `index` (one scalar per axis of v) of tile v, as a scalar value of the region; or
  // kNoValue when some op on the way cannot be taken one element at a time.
  ValueId scalarise(ValueId v, const std::vector<ValueId>& index) {
    const TileType& t = fn.type(v);
    if (v == s0) return index == std::vector<ValueId>{region.args[1], region.args[2]} ? region.args[0] : kNoValue;
    if (v == iv()) return region.args[3];
    if (t.is_scalar() && loop_invariant(v)) return v;
    auto key = std::make_pair(v, index);
    if (auto it = scalar_of.find(key); it != scalar_of.end()) return it->second;
    const Op* op = def_of(v);
    if (!op) return kNoValue;
    if (body_values.count(v)) matched.insert(op);
    ValueId out = kNoValue;
    switch (op->kind) {
      case OpKind::Constant: {
        Op c = *op;
        out = add_op(std::move(c), t.dtype);
        break;
      }
      case OpKind::Binary: case OpKind::Compare: case OpKind::Select: case OpKind::Unary: case OpKind::Convert: {
        Op e = *op;
        e.operands.clear();
        for (ValueId o : op->operands) {
          ValueId so = scalarise(o, fn.type(o).is_scalar() ? std::vector<ValueId>{} : index);
          if (so == kNoValue) return kNoValue;
          e.operands.push_back(so);
        }
        out = add_op(std::move(e), t.dtype);
        break;
      }
      case OpKind::Broadcast: {
        const TileType& src = fn.type(op->operands[0]);
        std::vector<ValueId> inner;
        if (!src.is_scalar()) {
          if (src.shape.size() != t.shape.size()) return kNoValue;
          for (size_t d = 0; d < t.shape.size(); ++d) inner.push_back(src.shape[d] == 1 ? zero() : index[d]);
        }
        out = scalarise(op->operands[0], inner);
        break;
      }
      case OpKind::Reshape: {
        const Shape& src = fn.type(op->operands[0]).shape;
        if (non_unit(src) != non_unit(t.shape)) return kNoValue;
        std::vector<ValueId> kept;
        for (size_t d = 0; d < t.shape.size(); ++d)
          if (t.shape[d] != 1) kept.push_back(index[d]);
        std::vector<ValueId> inner;
        size_t next = 0;
        for (int64_t d : src) inner.push_back(d == 1 ? zero() : kept[next++]);
        out = scalarise(op->operands[0], inner);
        break;
      }
      case OpKind::Arange: {  // start + index * step
        if (!loop_invariant(op->operands[0]) || !loop_invariant(op->operands[1])) return kNoValue;
        ValueId i = index[0];
        if (t.dtype != DType::Int32) {
          Op c;
          c.kind = OpKind::Convert;
          c.operands = {i};
          c.loc = op->loc;
          i = add_op(std::move(c), t.dtype);
        }
        out = i;  // the usual arange(n): start 0, step 1, nothing to add
        if (!is_integer_constant(op->operands[1], 1)) {
          Op mul;
          mul.kind = OpKind::Binary;
          mul.binary = BinaryKind::Mul;
          mul.operands = {out, op->operands[1]};
          mul.loc = op->loc;
          out = add_op(std::move(mul), t.dtype);
        }
        if (!is_integer_constant(op->operands[0], 0)) {
          Op add;
          add.kind = OpKind::Binary;
          add.binary = BinaryKind::Add;
          add.operands = {op->operands[0], out};
          add.loc = op->loc;
          out = add_op(std::move(add), t.dtype);
        }
        break;
      }
      default:
        return kNoValue;
    }
    if (out != kNoValue && fn.values[out].name.empty()) fn.values[out].name = fn.values[v].name;
    scalar_of[key] = out;
    return out;
  }

  bool match(Op* out) {
    const Block& body = loop.regions[0];
    if (loop.operands.size() != 6 || body.args.size() != 4 || loop.results.size() != 3) return false;
    if (body.ops.empty() || body.ops.back().kind != OpKind::Yield) return false;
    for (ValueId v : body.args) body_values.insert(v);
    std::function<void(const Block&)> walk = [&](const Block& b) {
      for (const Op& op : b.ops) {
        for (ValueId r : op.results) def[r] = &op;
        for (const Block& r : op.regions) walk(r);
      }
    };
    walk(fn.body);
    for (const Op& op : body.ops)
      for (ValueId r : op.results) body_values.insert(r);
    const Op& yield = body.ops.back();
    matched.insert(&yield);

    // acc: carried k whose next value is mma(p.astype(T), v, acc * alpha).
    int acc_k = -1;
    const Op* pv = nullptr;
    for (int k = 0; k < 3; ++k)
      if (const Op* op = body_def(yield.operands[k], OpKind::Mma)) acc_k = k, pv = op;
    if (!pv) return false;
    matched.insert(pv);
    const ValueId acc_arg = body.args[1 + acc_k];
    const Op* rescale = body_def(pv->operands[2], OpKind::Binary);
    ValueId alpha_b = other_operand(rescale, BinaryKind::Mul, acc_arg);
    const Op* alpha_bcast = body_def(alpha_b, OpKind::Broadcast);
    if (!alpha_bcast) return false;
    matched.insert(rescale);
    matched.insert(alpha_bcast);
    const ValueId alpha = alpha_bcast->operands[0];

    // m: alpha = exp(m - m_new), m_new = maximum(m, max(s, 1)) yielded for m.
    int m_k = -1;
    for (int k = 0; k < 3; ++k)
      if (k != acc_k) {
        const Op* mx = body_def(yield.operands[k], OpKind::Binary);
        if (other_operand(mx, BinaryKind::Max, body.args[1 + k]) != kNoValue) m_k = k;
      }
    if (m_k < 0) return false;
    const ValueId m_arg = body.args[1 + m_k], m_new = yield.operands[m_k];
    const Op* m_new_op = def_of(m_new);
    matched.insert(m_new_op);
    UnaryKind exp_kind{};
    if (exp_of_difference(alpha, m_new, &exp_kind) != m_arg) return false;
    const Op* tile_max = body_def(other_operand(m_new_op, BinaryKind::Max, m_arg), OpKind::Reduce);
    if (!tile_max) return false;
    const ValueId s = tile_max->operands[0];
    if (!row_reduce(tile_max->results[0], BinaryKind::Max, s)) return false;
    matched.insert(tile_max);

    // l = l * alpha + sum(p, 1), p = exp(s - m_new), the first mma operand p.astype(T).
    const int l_k = 3 - acc_k - m_k;
    const ValueId l_arg = body.args[1 + l_k];
    const Op* l_add = body_def(yield.operands[l_k], OpKind::Binary);
    if (!l_add || l_add->binary != BinaryKind::Add) return false;
    matched.insert(l_add);
    const Op* convert_p = body_def(pv->operands[0], OpKind::Convert);
    if (!convert_p) return false;
    matched.insert(convert_p);
    const ValueId p = convert_p->operands[0];
    UnaryKind p_kind{};
    if (exp_of_difference(p, m_new, &p_kind) != s || p_kind != exp_kind) return false;
    bool l_ok = false;
    for (int side = 0; side < 2 && !l_ok; ++side) {
      const Op* scaled = body_def(l_add->operands[side], OpKind::Binary);
      const Op* sum = row_reduce(l_add->operands[1 - side], BinaryKind::Add, p);
      if (sum && other_operand(scaled, BinaryKind::Mul, l_arg) == alpha) {
        matched.insert(scaled);
        matched.insert(sum);
        l_ok = true;
      }
    }
    if (!l_ok) return false;

    // The loads of K (transposed) and V.
    const Op* lv = load_behind(pv->operands[1]);
    if (!lv || !kv_load_ok(*lv, false)) return false;
    // s0 = mma(q, kt, zeros): the elementwise cone between s0 and s becomes the score region.
    const Op* qk = nullptr;
    std::vector<ValueId> stack = {s};
    std::set<ValueId> seen;
    while (!stack.empty()) {  // the one mma in s's cone
      ValueId v = stack.back();
      stack.pop_back();
      if (!body_values.count(v) || !seen.insert(v).second) continue;
      const Op* op = def_of(v);
      if (op && op->kind == OpKind::Mma) {
        if (qk && qk != op) return false;
        qk = op;
        continue;
      }
      if (op) stack.insert(stack.end(), op->operands.begin(), op->operands.end());
    }
    if (!qk || qk == pv) return false;
    matched.insert(qk);
    const ValueId q = qk->operands[0];
    if (!outside(q) || !is_zero_constant(qk->operands[2])) return false;
    match_splat(qk->operands[2]);
    const Op* lk = load_behind(qk->operands[1]);
    if (!lk || !kv_load_ok(*lk, true)) return false;

    // Types and tiles the main loop handles.
    const TileType& qt = fn.type(q);
    const DType T = qt.dtype;
    const ArrayParam& ka = fn.arrays[lk->param];
    const ArrayParam& va = fn.arrays[lv->param];
    if (!is_half_like(T) || ka.dtype != T || va.dtype != T || fn.type(convert_p->results[0]).dtype != T) return false;
    if (qt.shape.size() != 2) return false;
    const int64_t bm = qt.shape[0], d = qt.shape[1];
    const int64_t bn = lk->tile_shape[ka.rank - 1];
    if (lk->tile_shape[ka.rank - 2] != d || lv->tile_shape[va.rank - 2] != bn || lv->tile_shape[va.rank - 1] != d)
      return false;
    const TileType row_type{DType::Float32, {bm, 1}};
    if (fn.type(m_arg) != row_type || fn.type(l_arg) != row_type ||
        fn.type(acc_arg) != TileType{DType::Float32, {bm, d}} || fn.type(s) != TileType{DType::Float32, {bm, bn}} ||
        fn.type(qk->results[0]) != fn.type(s))
      return false;
    if (bm % 16 || bn % 16 || d % 16 || (bm > 128 && bm % 128) || bm > 512) return false;  // warps of 16 x k rows
    const int stages = attention_pipeline_stages(T, bm, bn, d);
    if (stages < 2) return false;

    // The score region: (s, row, col, j) -> the new s.
    s0 = qk->results[0];
    region.args = {fn.new_value({DType::Float32, {}}, "s"), fn.new_value({DType::Int32, {}}, "row"),
                   fn.new_value({DType::Int32, {}}, "col"), fn.new_value(fn.type(iv()), fn.values[iv()].name)};
    // Hoist first: scalar pure ops of invariants (constants, j-free index arithmetic).
    for (const Op& op : body.ops) {
      bool scalar = !op.results.empty() && op.regions.empty();
      for (ValueId r : op.results) scalar = scalar && fn.type(r).is_scalar();
      bool pure = op.kind == OpKind::Constant || op.kind == OpKind::Binary || op.kind == OpKind::Convert ||
                  op.kind == OpKind::Compare || op.kind == OpKind::Unary || op.kind == OpKind::Select ||
                  op.kind == OpKind::ArrayDim || op.kind == OpKind::ArrayStride || op.kind == OpKind::BlockId ||
                  op.kind == OpKind::NumBlocks || op.kind == OpKind::ScalarParam;
      if (!scalar || !pure) continue;
      bool inv = true;
      for (ValueId v : op.operands) inv = inv && loop_invariant(v);
      if (!inv) continue;
      for (ValueId r : op.results) invariant.insert(r);
      hoisted.push_back(&op);
    }
    ValueId s_new = scalarise(s, {region.args[1], region.args[2]});
    if (s_new == kNoValue) return false;
    Op y;
    y.kind = OpKind::Yield;
    y.operands = {s_new};
    y.loc = loop.loc;
    region.ops.push_back(std::move(y));

    // Every body op is matched or hoisted: nothing else may read what the loop computes.
    std::set<const Op*> hoisted_set(hoisted.begin(), hoisted.end());
    for (const Op& op : body.ops)
      if (!matched.count(&op) && !hoisted_set.count(&op)) return false;

    Op a;
    a.kind = OpKind::AttentionLoop;
    a.loc = loop.loc;
    a.param = lk->param;
    a.param_b = lv->param;
    a.tile_shape = lk->tile_shape;
    a.tile_shape_b = lv->tile_shape;
    a.order = lk->order;
    a.stages = stages;
    a.unary = exp_kind;
    a.operands = {loop.operands[0], loop.operands[1], q};
    for (ValueId v : lk->operands) a.operands.push_back(v == iv() ? loop.operands[0] : v);
    for (ValueId v : lv->operands) a.operands.push_back(v == iv() ? loop.operands[0] : v);
    for (int k : {m_k, l_k, acc_k}) a.operands.push_back(loop.operands[3 + k]);
    a.results = {loop.results[m_k], loop.results[l_k], loop.results[acc_k]};
    Block mask = split_tile_mask(fn, region, loop.loc);
    a.regions.push_back(std::move(mask));
    a.regions.push_back(std::move(region));
    *out = std::move(a);
    return true;
  }
};

bool step_is_one(const Block& scope, ValueId v) {
  for (const Op& op : scope.ops)
    if (!op.results.empty() && op.results[0] == v && op.kind == OpKind::Constant)
      if (auto* i = std::get_if<__int128>(&op.literal)) return *i == 1;
  return false;
}

void rewrite(Function& fn, Block& block, std::vector<const Block*> enclosing) {
  enclosing.push_back(&block);
  for (size_t i = 0; i < block.ops.size(); ++i) {
    Op& op = block.ops[i];
    for (Block& r : op.regions) rewrite(fn, r, enclosing);
    if (op.kind != OpKind::For) continue;
    bool step_one = false;
    for (const Block* b : enclosing) step_one |= step_is_one(*b, op.operands[2]);
    if (!step_one) continue;
    const size_t values_before = fn.values.size();
    Matcher m{fn, block.ops[i]};
    Op attention;
    if (!m.match(&attention)) {
      fn.values.resize(values_before);  // the scalarised region's values, unused
      continue;
    }
    std::vector<Op> hoisted;
    for (const Op* h : m.hoisted) hoisted.push_back(*h);
    block.ops[i] = std::move(attention);
    block.ops.insert(block.ops.begin() + static_cast<std::ptrdiff_t>(i), hoisted.begin(), hoisted.end());
    i += hoisted.size();
  }
}

}  // namespace

int attention_pipeline_stages(DType operand, int64_t bm, int64_t bn, int64_t d) {
  const size_t q = padded_tile_bytes(operand, bm, d), kv = 2 * padded_tile_bytes(operand, bn, d);
  // Two stages: the next key tile's K and V load while this one computes. A third stage would
  // cost a CTA per SM (64 query rows of d128 hold 17 KiB of q and 34 KiB per stage).
  return q + 2 * kv <= kAttentionSmemBudget ? 2 : 0;
}

bool attention_wgmma_tiles(DType operand, int64_t bm, int64_t bn, int64_t d) {
  return is_half_like(operand) && bm == 128 && (bn == 64 || bn == 128) && (d == 64 || d == 128);
}

size_t attention_loop_smem_bytes(DType operand, int64_t bm, int64_t bn, int64_t d, int stages) {
  const size_t e = static_cast<size_t>(dtype_bytes(operand));
  const size_t ring = static_cast<size_t>(stages) * 2 * padded_tile_bytes(operand, bn, d);
  // acc with rows padded by 8 floats (AccumulatorExchange), then m and l.
  const size_t exchange = static_cast<size_t>(bm * (d + 8) + 2 * bm) * sizeof(float);
  const size_t mma_sync = padded_tile_bytes(operand, bm, d) + std::max(ring, exchange);
  if (!attention_wgmma_tiles(operand, bm, bn, d)) return mma_sync;
  // On sm_90a: alignment, q, the swizzled ring (or the exchange), the TMA ring's barriers.
  const size_t swizzled_ring = static_cast<size_t>(stages * 2 * bn * d) * e;
  return std::max(mma_sync, 1024 + static_cast<size_t>(bm * d) * e + std::max(swizzled_ring, exchange) +
                                kTmaRingBytesPerStage * static_cast<size_t>(stages));
}

bool attention_uses_wgmma(const Function& fn, const Op& op) {
  AttentionTile t = attention_tile(fn, op);
  return attention_wgmma_tiles(fn.arrays[op.param].dtype, t.bm, t.bn, t.d) && attention_threads(fn, op) == 256;
}

AttentionTile attention_tile(const Function& fn, const Op& op) {
  const TileType& q = fn.type(op.operands[2]);
  const int rk = fn.arrays[op.param].rank;
  return {q.shape[0], op.tile_shape[rk - 1], q.shape[1]};
}

size_t attention_loop_smem_bytes(const Function& fn, const Op& op) {
  AttentionTile t = attention_tile(fn, op);
  return attention_loop_smem_bytes(fn.arrays[op.param].dtype, t.bm, t.bn, t.d, op.stages);
}

int attention_threads(const Function& fn, const Op& op) {
  return static_cast<int>(std::min<int64_t>(8, attention_tile(fn, op).bm / 16)) * 32;
}

void recognise_attention_loops(Function& fn) {
  const size_t values_before = fn.values.size();
  rewrite(fn, fn.body, {});
  // What only fed the loop's masks (row and column index tiles built before it) is dead now.
  if (fn.values.size() != values_before) eliminate_dead_code(fn);
}

}  // namespace tile2cu::ir
