// tile2cu/tma.cuh: Hopper's tensor memory accelerator (TMA) and the mbarriers it completes on,
// thin wrappers over PTX, plus the host side that describes an array to it (a tensor map).
//
// A tensor map (CUtensorMap, 128 bytes) tells the copy engine an array's base address, sizes,
// byte strides, the box one copy moves, and how the box is laid out in shared memory (here:
// 128-byte swizzle, the layout wgmma reads, see wgmma.cuh). The host encodes it (driver call
// cuTensorMapEncodeTiled, found through the runtime so no -lcuda link is needed) and passes it
// to the kernel as a `const __grid_constant__` parameter. In the kernel one thread issues
// cp.async.bulk.tensor with box coordinates; parts of the box outside the array are filled with
// zeros, which is what ragged tiles need. The copy counts its bytes on an mbarrier: waiters of
// that barrier's phase see the data once all expected bytes have arrived.
#pragma once

#include <cuda.h>

#include "types.cuh"

namespace tile2cu {

// The tensor maps of one GEMM main loop's operands. `usable` is 0 when the host could not
// describe the arrays to the copy engine (strides or base not 16-byte aligned, rank > 2, a
// device without TMA): the kernel then keeps its cp.async path.
struct GemmTensorMaps {
  CUtensorMap a, b;
  int usable;
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILE2CU_HAS_TMA 1
#else
#define TILE2CU_HAS_TMA 0
#endif

namespace tma {

#if TILE2CU_HAS_TMA
TILE2CU_DEVICE uint32_t smem_u32(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// An mbarrier whose phase completes after `count` arrivals (and all expected bytes).
TILE2CU_DEVICE void barrier_init(uint64_t* bar, int count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(count) : "memory");
}
// Makes initialised barriers visible to the copy engine (and the other threads, with a __syncthreads).
TILE2CU_DEVICE void barrier_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }
TILE2CU_DEVICE void barrier_inval(uint64_t* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
TILE2CU_DEVICE void barrier_arrive(uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}
// One arrival that also announces `bytes` of copies still to land in this phase.
TILE2CU_DEVICE void barrier_arrive_expect_bytes(uint64_t* bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes) : "memory");
}
// Waits until the phase with parity `phase` (0, 1, 0, ...: the n-th completion has parity n % 2) is complete.
TILE2CU_DEVICE void barrier_wait(uint64_t* bar, uint32_t phase) {
  asm volatile(
      "{\n.reg .pred done;\nwait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(smem_u32(bar)),
      "r"(phase)
      : "memory");
}

// Copies the box at coordinates (c0 innermost, c1) of `map` into shared memory at `dst`,
// counting the bytes on `bar`.
TILE2CU_DEVICE void load_2d(void* dst, const CUtensorMap* map, int32_t c0, int32_t c1, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          smem_u32(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(smem_u32(bar))
      : "memory");
}
TILE2CU_DEVICE void prefetch_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}
#endif  // TILE2CU_HAS_TMA

// Host: a 2-D tensor map over a row-major matrix (rows x cols, `row_stride` elements between
// rows, columns contiguous) whose box is box_rows x box_cols, 128-byte swizzled (box_cols of
// T must be 128 bytes). False when the copy engine cannot describe it.
template <class T>
inline bool encode_matrix_map(CUtensorMap& map, const T* data, int64_t rows, int64_t cols, int64_t row_stride,
                              int64_t col_stride, uint32_t box_rows, uint32_t box_cols) {
  static_assert(sizeof(T) == 2, "tensor maps here describe 16-bit operands");
  if (col_stride != 1 || rows <= 0 || cols <= 0 || reinterpret_cast<uintptr_t>(data) % 16 != 0 ||
      (row_stride * int64_t(sizeof(T))) % 16 != 0 || box_cols * sizeof(T) != 128)
    return false;
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<Encode>(fn);
  }();
  if (!encode) return false;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(row_stride) * sizeof(T)};  // bytes between rows
  const cuuint32_t box[2] = {box_cols, box_rows}, unit[2] = {1, 1};
  const CUtensorMapDataType type =
      std::is_same_v<T, __nv_bfloat16> ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  return encode(&map, type, 2, const_cast<T*>(data), dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace tma
}  // namespace tile2cu
