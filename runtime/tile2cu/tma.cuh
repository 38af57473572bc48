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

#if defined(__CUDACC_RTC__)
// NVRTC cannot include cuda.h (it includes the C library). The kernels need only the type of a
// tensor map, declared here as cuda.h (CUDA 13) declares it: 128 opaque bytes, 128-byte aligned.
typedef struct CUtensorMap_st {
  alignas(128) unsigned long long opaque[16];
} CUtensorMap;
#else
#include <cuda.h>
#endif

#include <cuda/atomic>

#include "types.cuh"

namespace tile2cu {

// The tensor maps of one GEMM main loop's operands. `usable` is 0 when the host could not
// describe the arrays to the copy engine (strides or base not 16-byte aligned, rank > 2, a
// device without TMA): the kernel then keeps its cp.async path.
struct GemmTensorMaps {
  CUtensorMap a, b;
  int usable;
};

// The same for one attention main loop's K and V (any rank up to 5: the leading axes are
// batch and head, fixed per block).
struct AttentionTensorMaps {
  CUtensorMap k, v;
  int usable;
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TILE2CU_HAS_TMA 1
#else
#define TILE2CU_HAS_TMA 0
#endif

namespace tma {

// Shared memory a TmaRing takes per stage: its mbarrier (8 bytes) and its count (4), rounded up.
constexpr int kRingBytesPerStage = 16;

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

// Copies the box at `c` (coordinates innermost axis first, one per axis of the map) of `map`
// into shared memory at `dst`, counting the bytes on `bar`.
template <int N>
TILE2CU_DEVICE void load_box(void* dst, const CUtensorMap* map, const int32_t (&c)[N], uint64_t* bar) {
  static_assert(N >= 2 && N <= 5, "tensor maps have 2 to 5 axes here");
  const uint32_t to = smem_u32(dst), done = smem_u32(bar);
  const uint64_t from = reinterpret_cast<uint64_t>(map);
#define TILE2CU_TMA_LOAD(n, coords, ...)                                                                      \
  asm volatile("cp.async.bulk.tensor." #n "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], " \
               "[%1, {" coords "}], [%2];\n" ::"r"(to), "l"(from), "r"(done), __VA_ARGS__ : "memory")
  if constexpr (N == 2) TILE2CU_TMA_LOAD(2, "%3, %4", "r"(c[0]), "r"(c[1]));
  if constexpr (N == 3) TILE2CU_TMA_LOAD(3, "%3, %4, %5", "r"(c[0]), "r"(c[1]), "r"(c[2]));
  if constexpr (N == 4) TILE2CU_TMA_LOAD(4, "%3, %4, %5, %6", "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
  if constexpr (N == 5) TILE2CU_TMA_LOAD(5, "%3, %4, %5, %6, %7", "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]));
#undef TILE2CU_TMA_LOAD
}
TILE2CU_DEVICE void prefetch_map(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// A ring of S shared-memory stages that the copy engine fills, with what its users need to share
// it without a block-wide barrier per stage. Stage s has `full[s]`, an mbarrier that completes
// when the stage's bytes have landed, and `released[s]`, how many warps have ever finished with
// it. The warp whose release completes a stage's count refills it, so no warp waits for another
// (a producer thread waiting on an `empty` barrier held its whole warpgroup back to the slower
// one's pace: 1 % on the GEMM, session 5). Tile t lives in stage t % S.
template <int S, int Warps>
struct TmaRing {
  uint64_t* full;
  uint32_t* released;

  explicit TILE2CU_DEVICE TmaRing(unsigned char* at)
      : full(reinterpret_cast<uint64_t*>(at)), released(reinterpret_cast<uint32_t*>(full + S)) {}
  // Thread 0, before the block barrier that precedes every other use.
  TILE2CU_DEVICE void init() const {
#pragma unroll
    for (int s = 0; s < S; ++s) barrier_init(&full[s], 1), released[s] = 0;
    barrier_init_fence();
  }
  // The issuing thread: announces tile t's bytes on its stage's barrier, which the copies
  // then complete; returns that barrier.
  TILE2CU_DEVICE uint64_t* expect(int64_t t, uint32_t bytes) const {
    uint64_t* bar = &full[t % S];
    barrier_arrive_expect_bytes(bar, bytes);
    return bar;
  }
  // Every reader: waits until tile t has landed.
  TILE2CU_DEVICE void wait(int64_t t) const { barrier_wait(&full[t % S], uint32_t(t / S) & 1u); }
  // Lane 0 of each warp once the warp is done reading tile t: true for the one warp whose call
  // completes the count (it refills the stage).
  TILE2CU_DEVICE bool release(int64_t t) const {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_block> count(released[t % S]);
    const uint32_t arrived = count.fetch_add(1u, cuda::memory_order_acq_rel) + 1u;
    return arrived == uint32_t(Warps) * uint32_t(t / S + 1);
  }
  // Thread 0, after a block barrier that follows the last wait.
  TILE2CU_DEVICE void inval() const {
#pragma unroll
    for (int s = 0; s < S; ++s) barrier_inval(&full[s]);
  }
};
#endif  // TILE2CU_HAS_TMA

#if !defined(__CUDACC_RTC__)
// Host: a tensor map over an array of rank R (shape and strides in elements, outermost axis
// first, the last axis contiguous) whose box is `box` elements per axis, 128-byte swizzled (the
// box's last axis must be 128 bytes of T). False when the copy engine cannot describe it.
template <class T, int R>
inline bool encode_map(CUtensorMap& map, const T* data, const int64_t (&shape)[R], const int64_t (&stride)[R],
                       const uint32_t (&box)[R]) {
  static_assert(sizeof(T) == 2, "tensor maps here describe 16-bit operands");
  static_assert(R >= 2 && R <= 5, "the copy engine takes 2 to 5 axes here");
  if (stride[R - 1] != 1 || reinterpret_cast<uintptr_t>(data) % 16 != 0 || box[R - 1] * sizeof(T) != 128) return false;
  cuuint64_t dims[R], strides[R - 1];
  cuuint32_t boxes[R], unit[R];
  for (int d = 0; d < R; ++d) {  // the driver takes the innermost axis first
    const int a = R - 1 - d;
    if (shape[a] <= 0 || shape[a] > (int64_t(1) << 32) || box[a] == 0 || box[a] > 256) return false;
    dims[d] = cuuint64_t(shape[a]), boxes[d] = box[a], unit[d] = 1;
    if (d > 0) {
      const int64_t bytes = stride[a] * int64_t(sizeof(T));  // between consecutive entries of axis a
      if (bytes <= 0 || bytes % 16 != 0 || bytes >= (int64_t(1) << 40)) return false;
      strides[d - 1] = cuuint64_t(bytes);
    }
  }
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
  const CUtensorMapDataType type =
      std::is_same_v<T, __nv_bfloat16> ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  return encode(&map, type, R, const_cast<T*>(data), dims, strides, boxes, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}
#endif  // !__CUDACC_RTC__

}  // namespace tma
}  // namespace tile2cu
