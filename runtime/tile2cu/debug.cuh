// tile2cu/debug.cuh: ct.print / ct.printf / ct.assert_ (spec c.12). A cuTile kernel body runs
// once per block, so output is per block: tiles are staged in shared memory and thread 0 prints
// the whole line, with one printf call when it fits CUDA's 32-argument limit, else piece by
// piece; a device-wide lock keeps lines of different blocks from interleaving. Every thread
// of the CTA must make these calls.
#pragma once

#if !defined(__CUDACC_RTC__)  // NVRTC declares printf itself
#include <cstdio>
#endif

#include "broadcast.cuh"
#include "tile.cuh"

namespace tile2cu {

// Writes the tile to `smem` in row-major order; call __syncthreads() before reading it.
template <class T, class L>
TILE2CU_DEVICE const T* stage(const Tile<T, L>& t, unsigned char* smem) {
  T* buf = reinterpret_cast<T*>(smem);
  detail::spill(t, buf);
  return buf;
}

// Lines too long for one printf call are printed piece by piece; this lock keeps the pieces of
// one block's line together, and every other line (print_line) out of the middle of them. Only
// thread 0 of a printing block takes it; the holder is running, so waiters always get it.
static __device__ int print_mutex = 0;
TILE2CU_DEVICE void print_lock() {
  while (atomicCAS(&print_mutex, 0, 1) != 0) {
  }
  __threadfence();
}
TILE2CU_DEVICE void print_unlock() {
  __threadfence();
  atomicExch(&print_mutex, 0);
}

// One whole line in one printf call (format and values as printf_arg made them).
template <class... Args>
TILE2CU_DEVICE void print_line(const char* format, Args... args) {
  print_lock();
  printf(format, args...);
  print_unlock();
}

// A value as printf's varargs expect it for the conversion chosen from its dtype.
template <class T>
TILE2CU_DEVICE auto printf_arg(T x) {
  if constexpr (is_float_v<T> || is_restricted_v<T>) return convert<double>(x);  // tf32, fp8 too
  else if constexpr (std::is_same_v<T, bool>) return int(x);
  else if constexpr (sizeof(T) == 8 && std::is_signed_v<T>) return static_cast<long long>(x);
  else if constexpr (sizeof(T) == 8) return static_cast<unsigned long long>(x);
  else if constexpr (std::is_signed_v<T>) return int(x);
  else return static_cast<unsigned>(x);
}

// Prints a staged tile of shape S as nested lists ("[[1, 2], [3, 4]]"), one printf per element:
// for tiles too large for a single printf call.
template <class S, class T>
TILE2CU_DEVICE void print_elements(const T* buf, const char* conversion) {
  for (int i = 0; i < S::size; ++i) {
    int opens = 0, extent = 1;
    for (int k = S::rank - 1; k >= 0; --k) {
      extent *= S::dim(k);
      if (i % extent == 0) ++opens;
    }
    for (int k = 0; k < opens; ++k) printf("[");
    printf(conversion, printf_arg(buf[i]));
    int closes = 0;
    extent = 1;
    for (int k = S::rank - 1; k >= 0; --k) {
      extent *= S::dim(k);
      if ((i + 1) % extent == 0) ++closes;
    }
    for (int k = 0; k < closes; ++k) printf("]");
    if (i + 1 < S::size) printf(", ");
  }
}

// ct.assert_: when any element is false, thread 0 prints `message` with the block index and the
// kernel traps (the launch fails with cudaErrorLaunchFailure).
template <class L>
TILE2CU_DEVICE void assert_all(const Tile<bool, L>& cond, const char* message) {
  bool ok = true;
#pragma unroll
  for (int s = 0; s < L::kSlots; ++s)
    if (L::owns(s)) ok &= cond.v[s];
  if (__syncthreads_and(ok)) return;
  if (threadIdx.x == 0)
    printf("%s (block %u, %u, %u)\n", message, blockIdx.x, blockIdx.y, blockIdx.z);
  __syncthreads();
  __trap();
}

TILE2CU_DEVICE void assert_all(bool cond, const char* message) {
  if (cond) return;  // scalars are block-uniform: every thread takes the same branch
  if (threadIdx.x == 0)
    printf("%s (block %u, %u, %u)\n", message, blockIdx.x, blockIdx.y, blockIdx.z);
  __syncthreads();
  __trap();
}

}  // namespace tile2cu
