// tile2cu/mma_warp.cuh: the warp-level tensor-core instructions (sm_80 and up) that mma.cuh and
// gemm_pipeline.cuh build on, each a thin wrapper over one PTX instruction.
//
// FRAGMENTS. mma.sync multiplies a 16 x K tile of A by a K x 8 tile of B into a 16 x 8 tile of
// C, spread over the 32 lanes of a warp. With g = lane / 4 and t = lane % 4, lane holds
//   C (and D), 4 floats:  c[0], c[1] at (row g,     cols 2t, 2t+1)
//                         c[2], c[3] at (row g + 8, cols 2t, 2t+1)
// and its share of A and B as 32-bit registers (two 16-bit values, one tf32, or four 8-bit
// values each; C is int32 for int8 operands).
// ldmatrix loads those A and B registers straight from shared memory, 8 rows of 16 bytes per
// 8x8 matrix, each lane naming one row's address.
#pragma once

#include "types.cuh"

namespace tile2cu::warp {

TILE2CU_DEVICE uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// Four 8x8 matrices of 16-bit values: lanes 8i..8i+7 give the row addresses of matrix i.
TILE2CU_DEVICE void ldmatrix_x4(uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(row)));
}
// Two 8x8 matrices, transposed on the way (lanes 0..15 give the row addresses).
TILE2CU_DEVICE void ldmatrix_x2_trans(uint32_t (&r)[2], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_address(row)));
}
// Four 8x8 matrices, transposed (B fragments of two neighbouring 8-column tiles at once).
TILE2CU_DEVICE void ldmatrix_x4_trans(uint32_t (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_address(row)));
}

// d += a * b on a 16x8x16 tile; T is __half or __nv_bfloat16, accumulation in float.
template <class T>
TILE2CU_DEVICE void mma_16x8x16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  static_assert(is_half_like_v<T>, "mma_16x8x16: 16-bit float operands");
  if constexpr (std::is_same_v<T, __half>) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
}

// d += a * b on a 16x8x8 tile of tf32 operands. A: a[0] (g, t), a[1] (g+8, t), a[2] (g, t+4),
// a[3] (g+8, t+4); B: b[0] (k t, n g), b[1] (k t+4, n g).
TILE2CU_DEVICE void mma_16x8x8_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// d += a * b on a 16x8x32 tile of 8-bit operands: int8 / uint8 (any mix) into int32 (wrapping,
// as int32 arithmetic does), or fp8 (e4m3, e5m2; sm_89 and up) into float. Register j of A holds
// four k-consecutive values of row g (j = 0, 2) or g + 8 (j = 1, 3), at k = 4t (j < 2) or
// 16 + 4t; b[0] holds B[4t .. 4t+3][g], b[1] the same 16 rows further.
#define TILE2CU_MMA_16X8X32(ACC, A, B, C_CONSTRAINT)                                                   \
  asm volatile("mma.sync.aligned.m16n8k32.row.col." ACC "." A "." B "." ACC                          \
               " {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                   \
               : C_CONSTRAINT(d[0]), C_CONSTRAINT(d[1]), C_CONSTRAINT(d[2]), C_CONSTRAINT(d[3])     \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define TILE2CU_INT_ACC(x) "+r"(x)
#define TILE2CU_FLOAT_ACC(x) "+f"(x)

template <class TA, class TB>
TILE2CU_DEVICE void mma_16x8x32(int32_t (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  constexpr bool sa = std::is_same_v<TA, int8_t>, sb = std::is_same_v<TB, int8_t>;
  static_assert((sa || std::is_same_v<TA, uint8_t>) && (sb || std::is_same_v<TB, uint8_t>), "mma_16x8x32: int8 or uint8");
  if constexpr (sa && sb) TILE2CU_MMA_16X8X32("s32", "s8", "s8", TILE2CU_INT_ACC);
  else if constexpr (sa) TILE2CU_MMA_16X8X32("s32", "s8", "u8", TILE2CU_INT_ACC);
  else if constexpr (sb) TILE2CU_MMA_16X8X32("s32", "u8", "s8", TILE2CU_INT_ACC);
  else TILE2CU_MMA_16X8X32("s32", "u8", "u8", TILE2CU_INT_ACC);
}

// fp8 operands exist as tensor-core inputs from sm_89 on.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
inline constexpr bool kFp8TensorCores = false;
#else
inline constexpr bool kFp8TensorCores = true;
#endif

template <class TA, class TB>
TILE2CU_DEVICE void mma_16x8x32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  static_assert(is_fp8_v<TA> && std::is_same_v<TA, TB>, "mma_16x8x32: one fp8 dtype");
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
  if constexpr (std::is_same_v<TA, __nv_fp8_e4m3>) TILE2CU_MMA_16X8X32("f32", "e4m3", "e4m3", TILE2CU_FLOAT_ACC);
  else TILE2CU_MMA_16X8X32("f32", "e5m2", "e5m2", TILE2CU_FLOAT_ACC);
#endif
}
#undef TILE2CU_FLOAT_ACC
#undef TILE2CU_INT_ACC
#undef TILE2CU_MMA_16X8X32

// The 32-bit word at p (four 8-bit values; p 4-byte aligned).
TILE2CU_DEVICE uint32_t word_at(const void* p) { return *static_cast<const uint32_t*>(p); }

// One warp: d (16 x 8) += A[16 x K] * B[K x 8] for 8-bit operands, both in shared memory: A
// row-major (lda), B column by column (b_t: B transposed, N rows of K, ldb_t), so that each
// register's four k-consecutive values are one 32-bit read.
template <class TA, class TB, int K, class Acc>
TILE2CU_DEVICE void mma_tile_from_smem_8bit(Acc (&d)[4], const TA* a, int lda, const TB* b_t, int ldb_t) {
  static_assert(sizeof(TA) == 1 && sizeof(TB) == 1 && K % 32 == 0, "mma_tile_from_smem_8bit: 8-bit operands, K % 32 == 0");
  const int lane = int(threadIdx.x) % 32, g = lane / 4, t = lane % 4;
#pragma unroll
  for (int k = 0; k < K; k += 32) {
    const uint32_t fa[4] = {word_at(a + g * lda + k + 4 * t), word_at(a + (g + 8) * lda + k + 4 * t),
                            word_at(a + g * lda + k + 16 + 4 * t), word_at(a + (g + 8) * lda + k + 16 + 4 * t)};
    const uint32_t fb[2] = {word_at(b_t + g * ldb_t + k + 4 * t), word_at(b_t + g * ldb_t + k + 16 + 4 * t)};
    mma_16x8x32<TA, TB>(d, fa, fb);
  }
}

// One warp: d (16 x 8, fragment layout above) += A[16 x K] * B[K x 8], both in shared memory,
// row-major with leading dimensions lda / ldb (elements; rows 16-byte aligned for 16-bit types).
template <class T, int K>
TILE2CU_DEVICE void mma_tile_from_smem(float (&d)[4], const T* a, int lda, const T* b, int ldb) {
  const int lane = int(threadIdx.x) % 32;
  if constexpr (is_half_like_v<T>) {
#pragma unroll
    for (int k = 0; k < K; k += 16) {
      uint32_t fa[4], fb[2];
      ldmatrix_x4(fa, a + (lane % 16) * lda + k + (lane / 16) * 8);
      ldmatrix_x2_trans(fb, b + (k + lane % 16) * ldb);
      mma_16x8x16<T>(d, fa, fb);
    }
  } else {
    static_assert(std::is_same_v<T, tfloat32>, "mma_tile_from_smem: f16, bf16 or tf32 operands");
    const int g = lane / 4, t = lane % 4;
    const float* fa_ = reinterpret_cast<const float*>(a);
    const float* fb_ = reinterpret_cast<const float*>(b);
#pragma unroll
    for (int k = 0; k < K; k += 8) {
      uint32_t fa[4], fb[2];
      fa[0] = __float_as_uint(fa_[g * lda + k + t]);
      fa[1] = __float_as_uint(fa_[(g + 8) * lda + k + t]);
      fa[2] = __float_as_uint(fa_[g * lda + k + t + 4]);
      fa[3] = __float_as_uint(fa_[(g + 8) * lda + k + t + 4]);
      fb[0] = __float_as_uint(fb_[(k + t) * ldb + g]);
      fb[1] = __float_as_uint(fb_[(k + t + 4) * ldb + g]);
      mma_16x8x8_tf32(d, fa, fb);
    }
  }
}

}  // namespace tile2cu::warp
