// tile2cu/block_uniform.cuh: side effects that a cuTile block performs once.
//
// A cuTile kernel body runs once per block; the generated CUDA runs it in every thread. Values
// are computed redundantly by all threads, which is harmless, but a scalar side effect (an
// atomic on one element, a store of one element, a read of memory that other blocks change) must
// happen once, and its result must be the same in every thread, or control flow that depends on
// it (a spin lock's `while`) would diverge. once_per_block(f) does both:
//
//   const int32_t old = once_per_block([&] { return atomic_cas<...>(locks, indices(i), 0, 1); });
//
//   1. __syncthreads(): every memory access the block made before (all threads) happens before f,
//      so a lock is released only after every thread's stores (spec h.2), and the shared slot
//      below is free again (everyone has read the previous result).
//   2. thread 0 runs f and writes its result to shared memory;
//   3. __syncthreads(), then every thread reads the result: f happens before anything the block
//      does afterwards (the loads that an acquired lock protects).
// Block-level control flow is uniform (conditions are scalars every thread computes alike), so
// every thread reaches the barriers.
#pragma once

#include "types.cuh"

namespace tile2cu {

template <class F>
TILE2CU_DEVICE auto once_per_block(F f) {
  using R = decltype(f());
  __syncthreads();
  if constexpr (std::is_void_v<R>) {
    if (threadIdx.x == 0) f();
    __syncthreads();
  } else {
    // Raw bytes: __half and friends have constructors, which __shared__ variables may not run.
    __shared__ alignas(alignof(R)) unsigned char result[sizeof(R)];
    if (threadIdx.x == 0) {
      const R r = f();
      memcpy(result, &r, sizeof(R));
    }
    __syncthreads();
    R r;
    memcpy(&r, result, sizeof(R));
    return r;
  }
}

// A one-element store to an array that nothing else in the kernel reads or writes needs no
// ordering with the rest of the block: thread 0 does it, nobody waits.
template <class F>
TILE2CU_DEVICE void in_one_thread(F f) {
  if (threadIdx.x == 0) f();
}

}  // namespace tile2cu
