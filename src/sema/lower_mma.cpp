// ct.mma, ct.matmul and `@` (spec c.11, h.5, h.13): shape and dtype rules, and their IR.
//
// mma never promotes: the operands share one dtype (int8 with uint8 is the one allowed mix)
// and the accumulator keeps its dtype, chosen from the table below. matmul promotes its
// operands, accumulates in the first allowed accumulator dtype (f16 in f16, int8 in int32)
// and casts the product back to the promoted operand dtype. Batch dims broadcast; sema
// broadcasts them explicitly, so the Mma op always sees operands of equal batch shape.
#include <fmt/format.h>

#include <algorithm>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

// The accumulator dtypes cuTile allows for an operand dtype, the default (matmul's) first.
std::vector<DType> allowed_accumulators(DType operand) {
  switch (operand) {
    case DType::Float16: return {DType::Float16, DType::Float32};
    case DType::BFloat16: case DType::Float32: case DType::TFloat32: return {DType::Float32};
    case DType::Float64: return {DType::Float64};
    case DType::Float8E4M3FN: case DType::Float8E5M2: return {DType::Float16, DType::Float32};
    case DType::Int8: case DType::UInt8: return {DType::Int32};
    default: return {};
  }
}

std::string dtype_list(const std::vector<DType>& ds) {
  std::vector<std::string> names;
  for (DType d : ds) names.push_back(dtype_name(d));
  return fmt::format("{}", fmt::join(names, " or "));
}

constexpr const char* kMmaOperandDtypes =
    "float16, bfloat16, float32, tfloat32, float64, float8_e4m3fn, float8_e5m2, int8, uint8";

}  // namespace

ir::ValueId KernelLowering::mma_operand(const Value& v, const char* fn, const char* what,
                                        SourceRange range) {
  if (!v.is<Runtime>() || type_of(v.as<Runtime>()->id).is_scalar())
    error(ErrorKind::Type, range, fmt::format("{}(): {} must be a tile, got {}", fn, what, describe(v)));
  return v.as<Runtime>()->id;
}

ir::ValueId KernelLowering::mma(ir::ValueId x, ir::ValueId y, ir::ValueId acc, const MmaRanges& r) {
  const ir::TileType tx = type_of(x), ty = type_of(y), tacc = type_of(acc);
  for (auto [t, what, range] : {std::tuple{tx, "x", r.x}, std::tuple{ty, "y", r.y}}) {
    if (t.shape.size() < 2)
      error(ErrorKind::Type, range,
            fmt::format("mma(): {} must be at least 2-D, got shape {}", what, ir::shape_string(t.shape)));
    if (t.shape.size() > 3)
      error(ErrorKind::UnsupportedFeature, range,
            fmt::format("mma(): {} has rank {}; tile2cu supports 2-D and 3-D (batched) operands",
                        what, t.shape.size()));
  }
  // dtypes: one operand dtype (int8/uint8 may mix), the accumulator from the table.
  bool int8_mix = (tx.dtype == DType::Int8 && ty.dtype == DType::UInt8) ||
                  (tx.dtype == DType::UInt8 && ty.dtype == DType::Int8);
  if (tx.dtype != ty.dtype && !int8_mix)
    error(ErrorKind::Type, r.call,
          fmt::format("mma(): x and y must have the same dtype, got {} and {} (only int8 with uint8 may mix; "
                      "mma does not promote): convert one with astype()", dtype_name(tx.dtype), dtype_name(ty.dtype)));
  std::vector<DType> accs = allowed_accumulators(tx.dtype);
  if (accs.empty())
    error(ErrorKind::Type, r.x,
          fmt::format("mma(): Unsupported input dtype {}; expected one of {}",
                      dtype_name(tx.dtype), kMmaOperandDtypes));
  if (std::find(accs.begin(), accs.end(), tacc.dtype) == accs.end())
    error(ErrorKind::Type, r.acc,
          fmt::format("mma(): Unsupported acc dtype {} for {} operands; expected {}",
                      dtype_name(tacc.dtype), dtype_name(tx.dtype), dtype_list(accs)));
  // Shapes: [..., M, K] x [..., K, N] -> [..., M, N]; batch dims broadcast; acc matches exactly.
  const size_t rx = tx.shape.size(), ry = ty.shape.size();
  const int64_t m = tx.shape[rx - 2], k = tx.shape[rx - 1], k2 = ty.shape[ry - 2], n = ty.shape[ry - 1];
  if (k != k2)
    error(ErrorKind::Type, r.call,
          fmt::format("mma(): the K dims differ: x is {} (K = {}) and y is {} (K = {})",
                      ir::shape_string(tx.shape), k, ir::shape_string(ty.shape), k2));
  ir::Shape bx(tx.shape.begin(), tx.shape.end() - 2), by(ty.shape.begin(), ty.shape.end() - 2);
  ir::Shape batch = broadcast_shape(bx, by, r.call);
  ir::Shape result = batch;
  result.push_back(m);
  result.push_back(n);
  if (tacc.shape != result)
    error(ErrorKind::Type, r.acc,
          fmt::format("mma(): acc has shape {} but x {} times y {} gives {}", ir::shape_string(tacc.shape),
                      ir::shape_string(tx.shape), ir::shape_string(ty.shape), ir::shape_string(result)));
  // Give both operands the full batch shape, so the op itself never broadcasts.
  auto batched = [&](ir::ValueId v, int64_t rows, int64_t cols) {
    ir::Shape full = batch;
    full.push_back(rows);
    full.push_back(cols);
    if (type_of(v).shape == full) return v;
    if (type_of(v).shape.size() < full.size()) {
      ir::Shape ones(full.size() - type_of(v).shape.size(), 1);
      ones.insert(ones.end(), type_of(v).shape.begin(), type_of(v).shape.end());
      ir::Op re = make_op(ir::OpKind::Reshape, {v});
      v = emit1(std::move(re), {type_of(v).dtype, ones});
    }
    return broadcast(v, full, r.call);
  };
  ir::Op o = make_op(ir::OpKind::Mma, {batched(x, m, k), batched(y, k, n), acc});
  return emit1(std::move(o), tacc);
}

Value KernelLowering::mma_call(const Value& x, const Value& y, const Value& acc, const Value* use_fast_acc,
                               const MmaRanges& r) {
  ir::ValueId xv = mma_operand(x, "mma", "x", r.x), yv = mma_operand(y, "mma", "y", r.y);
  ir::ValueId av = mma_operand(acc, "mma", "acc", r.acc);
  if (use_fast_acc && !use_fast_acc->is<NoneValue>() &&
      const_bool(*use_fast_acc, r.call, "argument \"use_fast_acc\" of mma()")) {
    DType d = type_of(xv).dtype;
    if (d != DType::Float8E4M3FN && d != DType::Float8E5M2)
      error(ErrorKind::Type, r.call,
            fmt::format("mma(): use_fast_acc is only supported for fp8 operands (float8_e4m3fn, float8_e5m2), got {}", dtype_name(d)));
    // On fp8 it only permits a faster, less precise accumulation; tile2cu keeps the precise one.
  }
  return make(Runtime{mma(xv, yv, av, r)});
}

Value KernelLowering::matmul(const Value& x, const Value& y, const MmaRanges& r) {
  ir::ValueId xv = mma_operand(x, "matmul", "x", r.x), yv = mma_operand(y, "matmul", "y", r.y);
  const size_t rx = type_of(xv).shape.size(), ry = type_of(yv).shape.size();
  for (auto [rank, range] : {std::pair{rx, r.x}, std::pair{ry, r.y}})
    if (rank > 3)
      error(ErrorKind::Type, range, fmt::format("matmul(): operands must be 1-D, 2-D or 3-D, got rank {}", rank));
  auto promoted = promote_for_binary(type_of(xv).dtype, false, type_of(yv).dtype, false);
  if (!promoted)
    error(ErrorKind::Type, r.call,
          fmt::format("matmul(): Implicit promotion of {} and {} is not supported; use astype() to convert explicitly",
                      dtype_name(type_of(xv).dtype), dtype_name(type_of(yv).dtype)));
  std::vector<DType> accs = allowed_accumulators(*promoted);
  if (accs.empty())
    error(ErrorKind::Type, r.call,
          fmt::format("matmul(): Unsupported input dtype {}; expected one of {}",
                      dtype_name(*promoted), kMmaOperandDtypes));
  xv = convert(xv, *promoted);
  yv = convert(yv, *promoted);
  // NumPy's 1-D rules: x (K,) is a row [1, K], y (K,) a column [K, 1]; those dims go away after.
  auto as_matrix = [&](ir::ValueId v, bool row) {
    ir::Shape s = type_of(v).shape;
    if (s.size() != 1) return v;
    ir::Op re = make_op(ir::OpKind::Reshape, {v});
    return emit1(std::move(re), {type_of(v).dtype, row ? ir::Shape{1, s[0]} : ir::Shape{s[0], 1}});
  };
  xv = as_matrix(xv, true);
  yv = as_matrix(yv, false);
  const ir::Shape sx = type_of(xv).shape;
  const ir::Shape sy = type_of(yv).shape;
  if (sx.back() != sy[sy.size() - 2])
    error(ErrorKind::Type, r.call,
          fmt::format("matmul(): the K dims differ: x is {} and y is {}", ir::shape_string(sx), ir::shape_string(sy)));
  ir::Shape out = broadcast_shape(ir::Shape(sx.begin(), sx.end() - 2), ir::Shape(sy.begin(), sy.end() - 2), r.call);
  out.push_back(sx[sx.size() - 2]);
  out.push_back(sy.back());
  ir::ValueId zero = is_integer(accs[0]) ? constant(static_cast<__int128>(0), accs[0], out)
                                         : constant(0.0, accs[0], out);
  ir::ValueId product = convert(mma(xv, yv, zero, r), *promoted);
  ir::Shape squeezed(out.begin(), out.end() - 2);
  if (rx != 1) squeezed.push_back(out[out.size() - 2]);
  if (ry != 1) squeezed.push_back(out.back());
  if (squeezed == out) return make(Runtime{product});
  ir::Op re = make_op(ir::OpKind::Reshape, {product});
  return make(Runtime{emit1(std::move(re), {*promoted, squeezed})});
}

}  // namespace tile2cu::sema
