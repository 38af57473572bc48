// Device check of tile / scalar division (tile2cu/divide.cuh): every quotient of the tile
// operator must equal IEEE __fdiv_rn bit for bit (NaN for NaN).
//   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime tests/gpu/divide_check.cu -o divide_check && ./divide_check
// 1. all 2^23 significands of a in [1, 2) against 65536 divisors in [1, 2) (six edge cases, the
//    rest random): the rounding depends only on the significands while nothing under/overflows;
// 2. every pair of exponents (subnormals, inf, NaN included) with 4096 random significand and
//    sign pairs each: the fast path's range limits. Exits 1 on any mismatch.
#include <tile2cu/tile2cu.cuh>

#include <cstdio>
#include <random>
#include <vector>

namespace check {
using namespace tile2cu;
constexpr int kThreads = 256;
constexpr int kTile = 4096;
using Layout = BlockedLayout<Shape<kTile>, kThreads, 4>;

// A hash for the random bits of exponent_pairs.
__device__ uint32_t mix(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

// blockIdx.x = the divisor, blockIdx.y = which kTile significands of a.
__global__ void significands(const uint32_t* divisors, unsigned long long* wrong) {
  const float b = __uint_as_float(divisors[blockIdx.x]);
  Tile<float, Layout> a;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s)
    a.v[s] = __uint_as_float(0x3f800000u | (blockIdx.y * kTile + Layout::element(s)));
  const auto q = a / b;
  int bad = 0;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s)
    bad += __float_as_uint(q.v[s]) != __float_as_uint(__fdiv_rn(a.v[s], b));
  if (bad) atomicAdd(wrong, (unsigned long long)bad);
}

// blockIdx.x = a's exponent, blockIdx.y = b's exponent; significands and signs hashed.
__global__ void exponent_pairs(unsigned long long* wrong) {
  const uint32_t eb = blockIdx.y, ea = blockIdx.x;
  const float b = __uint_as_float((mix(eb * 7919u + 1u) & 0x807fffffu) | (eb << 23));
  Tile<float, Layout> a;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s)
    a.v[s] = __uint_as_float((mix((ea << 20) ^ (eb << 8) ^ Layout::element(s) * 2654435761u) &
                              0x807fffffu) | (ea << 23));
  const auto q = a / b;
  int bad = 0;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s) {
    const float want = __fdiv_rn(a.v[s], b);
    bad += __float_as_uint(q.v[s]) != __float_as_uint(want) && !(want != want && q.v[s] != q.v[s]);
  }
  if (bad) atomicAdd(wrong, (unsigned long long)bad);
}
}  // namespace check

int main() {
  constexpr int kDivisors = 65536;
  std::vector<uint32_t> divisors(kDivisors);
  std::mt19937 rng(20261124);
  const uint32_t edges[] = {0x3f800000u, 0x3f800001u, 0x3fffffffu, 0x3fc00000u, 0x3faaaaabu, 0x3f800002u};
  for (int k = 0; k < kDivisors; ++k) divisors[k] = k < 6 ? edges[k] : 0x3f800000u | (rng() & 0x7fffffu);
  uint32_t* d_divisors;
  unsigned long long* d_wrong;
  cudaMalloc(&d_divisors, kDivisors * sizeof(uint32_t));
  cudaMalloc(&d_wrong, 2 * sizeof(unsigned long long));
  cudaMemcpy(d_divisors, divisors.data(), kDivisors * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemset(d_wrong, 0, 2 * sizeof(unsigned long long));
  check::significands<<<dim3(kDivisors, (1u << 23) / check::kTile), check::kThreads>>>(d_divisors, d_wrong);
  check::exponent_pairs<<<dim3(256, 256), check::kThreads>>>(d_wrong + 1);
  unsigned long long wrong[2];
  const cudaError_t err = cudaMemcpy(wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("divide_check: CUDA error %s\n", cudaGetErrorString(err));
    return 2;
  }
  std::printf("divide_check: %llu of %llu significand quotients and %llu of %llu exponent-pair "
              "quotients differ from __fdiv_rn\n",
              wrong[0], (1ull << 23) * kDivisors, wrong[1], 256ull * 256 * check::kTile);
  return wrong[0] == 0 && wrong[1] == 0 ? 0 : 1;
}
