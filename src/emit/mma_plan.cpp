#include "emit/mma_plan.hpp"

namespace tile2cu {

namespace {
size_t align16(size_t bytes) { return (bytes + 15) / 16 * 16; }
}  // namespace

// Mirrors tile2cu::MmaPlan (runtime/tile2cu/mma.cuh): keep the two in step.
size_t mma_smem_bytes(const ir::Function& fn, const ir::Op& op) {
  const ir::TileType& x = fn.type(op.operands[0]);
  const ir::TileType& y = fn.type(op.operands[1]);
  const ir::TileType& acc = fn.type(op.operands[2]);
  const size_t r = x.shape.size();
  const int64_t m = x.shape[r - 2], k = x.shape[r - 1], n = y.shape[r - 1];
  const int64_t batch = ir::shape_elements(x.shape) / (m * k);
  const bool sixteen_bit = x.dtype == DType::Float16 || x.dtype == DType::BFloat16;
  const bool float_acc = acc.dtype == DType::Float32 || acc.dtype == DType::Float16;
  const bool half_or_tf32 = x.dtype == y.dtype && (sixteen_bit || x.dtype == DType::TFloat32) && float_acc;
  auto is_int8 = [](DType t) { return t == DType::Int8 || t == DType::UInt8; };
  const bool fp8 = x.dtype == DType::Float8E4M3FN || x.dtype == DType::Float8E5M2;
  const bool eight_bit = (is_int8(x.dtype) && is_int8(y.dtype) && acc.dtype == DType::Int32) ||
                         (fp8 && x.dtype == y.dtype && float_acc);
  const int64_t instruction_k = eight_bit ? 32 : sixteen_bit ? 16 : 8;
  const bool tensor_cores = (half_or_tf32 || eight_bit) && m % 16 == 0 && n % 8 == 0 && k % instruction_k == 0;
  const bool transposed_b = tensor_cores && eight_bit;  // y staged column by column
  const size_t ea = static_cast<size_t>(dtype_bytes(x.dtype)), eb = static_cast<size_t>(dtype_bytes(y.dtype));
  const size_t lda = static_cast<size_t>(k) + (tensor_cores ? 16 / ea : 0);
  const size_t ldb = static_cast<size_t>(transposed_b ? k : n) + (tensor_cores ? 16 / eb : 0);
  const size_t b_rows = static_cast<size_t>(batch * (transposed_b ? n : k));
  size_t bytes = align16(static_cast<size_t>(batch * m) * lda * ea) + align16(b_rows * ldb * eb);
  if (tensor_cores) bytes += static_cast<size_t>(batch * m * n) * 4;  // float or int32
  return bytes;
}

}  // namespace tile2cu
