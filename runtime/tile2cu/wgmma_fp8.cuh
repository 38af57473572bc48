// tile2cu/wgmma_fp8.cuh: 8-bit floating-point wgmma (sm_90a), for ct.mma on float8_e4m3fn /
// float8_e5m2 operands (mma.cuh). Hopper's fp8 wgmma sums its products with less precision
// than fp32 (cuBLAS's and cuTile's fp8 GEMMs run on it, so their results carry that rounding);
// mma.sync's m16n8k32 fp8 form does not, so on sm_90a an fp8 mma must run here to agree with them.
//
// fp8 wgmma has no transposed forms: A (M x K) and B (as B^T, N x K) are both K-major in shared
// memory. This file uses the no-swizzle layout: "core matrices" of 8 rows x 16 bytes (16 fp8 values
// along K), each 128 contiguous bytes; along K they follow each other (leading byte offset 128),
// and 8-row groups are a whole row of them apart (stride byte offset 8 K bytes). Element (r, k)
// of an R x K operand lies at byte core_offset<K>(r, k).
#pragma once

#include "wgmma.cuh"

namespace tile2cu::wgmma {

template <int K>
TILE2CU_HD constexpr int core_offset(int r, int k) {
  return (r / 8) * (8 * K) + (k / 16) * 128 + (r % 8) * 16 + k % 16;
}

#if TILE2CU_HAS_WGMMA

// Descriptor of a K-major operand in the no-swizzle core-matrix layout above (layout type 0).
template <int K>
TILE2CU_DEVICE uint64_t descriptor_k_major_no_swizzle(const void* p) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  uint64_t d = (addr & 0x3FFFFu) >> 4;
  d |= uint64_t(128u >> 4) << 16;          // leading: the next 16 values along K
  d |= uint64_t((8u * K) >> 4) << 32;      // stride: the next 8 rows
  return d;
}

// d (64 x 64, per warpgroup) (+)= A (64 x 32, K-major) * B (32 x 64, stored as B^T, K-major), fp8
// operands of one type T, float accumulator. `accumulate` 0 overwrites d.
template <class T>
TILE2CU_DEVICE void mma_64x64x32_fp8(float (&d)[32], uint64_t a, uint64_t b, int accumulate = 1) {
  static_assert(is_fp8_v<T>, "mma_64x64x32_fp8: fp8 operands");
  if constexpr (std::is_same_v<T, __nv_fp8_e4m3>) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1;\n}\n"
                 :
                   "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(a), "l"(b), "r"(accumulate));
  } else {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "%32, %33, p, 1, 1;\n}\n"
                 :
                   "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "l"(a), "l"(b), "r"(accumulate));
  }
}

#endif  // TILE2CU_HAS_WGMMA

}  // namespace tile2cu::wgmma
