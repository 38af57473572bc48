// Device check of tile / scalar division (tile2cu/divide.cuh): every quotient of the tile
// operator must equal IEEE __fdiv_rn bit for bit (NaN for NaN), and every quotient of the tile
// forms of div_full / div_approx (truediv FULL / APPROX) and their _ftz forms that of the PTX
// instruction (div.full.f32, div.approx.f32, div.full.ftz.f32, div.approx.ftz.f32) applied to
// the element.
//   nvcc -std=c++17 -O3 -arch=sm_90 -I runtime tests/gpu/divide_check.cu -o divide_check && ./divide_check
// 1. (IEEE) all 2^23 significands of a in [1, 2) against 65536 divisors in [1, 2) (six edge
//    cases, the rest random): the rounding depends only on the significands while nothing
//    under/overflows;
// 2. (each mode) every pair of exponents (subnormals, inf, NaN included) with 4096 random
//    significand and sign pairs each: the fast path's range limits;
// 3. (each mode) divisors at the edges of the scaling ranges (2^126, 2^-126, their neighbours,
//    zero, the smallest subnormal, inf, NaN, both signs) against every exponent of a;
// 4. (each mode) as 2, with a fifth of the dividends +0 or -0 (a softmax's padded lanes): the
//    tile takes its fast path or its IEEE one as a whole, so zeros among other values matter.
// Exits 1 on any mismatch.
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

enum class Mode { Ieee, Full, Approx, FullFtz, ApproxFtz };
constexpr int kModes = 5;
constexpr const char* kModeNames[kModes] = {"IEEE (__fdiv_rn)", "FULL (div.full.f32)", "APPROX (div.approx.f32)",
                                            "FULL ftz (div.full.ftz.f32)", "APPROX ftz (div.approx.ftz.f32)"};

template <Mode M>
__device__ Tile<float, Layout> tile_quotient(const Tile<float, Layout>& a, float b) {
  if constexpr (M == Mode::Ieee) return a / b;
  else if constexpr (M == Mode::Full) return div_full(a, b);
  else if constexpr (M == Mode::Approx) return div_approx(a, b);
  else if constexpr (M == Mode::FullFtz) return div_full_ftz(a, b);
  else return div_approx_ftz(a, b);
}
template <Mode M>
__device__ float element_quotient(float a, float b) {
  float q;
  if constexpr (M == Mode::Ieee) q = __fdiv_rn(a, b);
  else if constexpr (M == Mode::Full) asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  else if constexpr (M == Mode::Approx) asm("div.approx.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  else if constexpr (M == Mode::FullFtz) asm("div.full.ftz.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  else asm("div.approx.ftz.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
  return q;
}
__device__ bool differ(float got, float want) {
  return __float_as_uint(got) != __float_as_uint(want) && !(want != want && got != got);
}

// a: kTile values of exponent `ea`, significands and signs hashed from `salt`; with `zeros`, a
// fifth of them (hashed) +0 or -0.
__device__ Tile<float, Layout> hashed_dividends(uint32_t ea, uint32_t salt, bool zeros = false) {
  Tile<float, Layout> a;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s) {
    const uint32_t h = mix((ea << 20) ^ (salt << 8) ^ Layout::element(s) * 2654435761u);
    a.v[s] = __uint_as_float(zeros && mix(h) % 5 == 0 ? h & 0x80000000u : (h & 0x807fffffu) | (ea << 23));
  }
  return a;
}
template <Mode M>
__device__ int count_wrong(const Tile<float, Layout>& a, float b) {
  const auto q = tile_quotient<M>(a, b);
  int bad = 0;
#pragma unroll
  for (int s = 0; s < Layout::kSlots; ++s) bad += differ(q.v[s], element_quotient<M>(a.v[s], b));
  return bad;
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
template <Mode M>
__global__ void exponent_pairs(unsigned long long* wrong, bool zeros) {
  const uint32_t eb = blockIdx.y, ea = blockIdx.x;
  const float b = __uint_as_float((mix(eb * 7919u + 1u) & 0x807fffffu) | (eb << 23));
  const int bad = count_wrong<M>(hashed_dividends(ea, eb, zeros), b);
  if (bad) atomicAdd(wrong, (unsigned long long)bad);
}

// blockIdx.x = a's exponent, blockIdx.y = which edge divisor.
constexpr uint32_t kEdgeDivisors[] = {
    0x7e800000u, 0x7e800001u, 0x7e7fffffu,  // 2^126 and its neighbours
    0x00800000u, 0x00800001u, 0x007fffffu,  // 2^-126 and its neighbours
    0x00000001u, 0x00000000u, 0x7f7fffffu,  // smallest subnormal, zero, largest float
    0x7f800000u, 0x7fc00000u, 0x3f800000u,  // inf, NaN, one
};
constexpr int kEdges = sizeof kEdgeDivisors / sizeof kEdgeDivisors[0];
__constant__ uint32_t edge_divisors[kEdges];

// Block x = 0 also divides tiles of nothing but +0 and nothing but -0 (a thread then takes the
// fast path for all its elements, or none).
template <Mode M>
__global__ void edge_divisor_pairs(unsigned long long* wrong) {
  const uint32_t ea = blockIdx.x;
  int bad = 0;
  for (uint32_t sign : {0u, 0x80000000u}) {
    const float b = __uint_as_float(edge_divisors[blockIdx.y] | sign);
    bad += count_wrong<M>(hashed_dividends(ea, blockIdx.y * 2 + (sign >> 31)), b);
    if (ea == 0)
      for (float zero : {0.0f, -0.0f}) bad += count_wrong<M>(full<Layout>(zero), b);
  }
  if (bad) atomicAdd(wrong, (unsigned long long)bad);
}

// Checks of one mode: exponent pairs, edge divisors, exponent pairs with zeros. Counts in
// wrong[0..2].
template <Mode M>
void launch_range_checks(unsigned long long* wrong) {
  check::exponent_pairs<M><<<dim3(256, 256), check::kThreads>>>(wrong, false);
  check::edge_divisor_pairs<M><<<dim3(256, check::kEdges), check::kThreads>>>(wrong + 1);
  check::exponent_pairs<M><<<dim3(256, 256), check::kThreads>>>(wrong + 2, true);
}
}  // namespace check

int main() {
  using check::Mode;
  constexpr int kDivisors = 65536;
  std::vector<uint32_t> divisors(kDivisors);
  std::mt19937 rng(20261124);
  const uint32_t edges[] = {0x3f800000u, 0x3f800001u, 0x3fffffffu, 0x3fc00000u, 0x3faaaaabu, 0x3f800002u};
  for (int k = 0; k < kDivisors; ++k) divisors[k] = k < 6 ? edges[k] : 0x3f800000u | (rng() & 0x7fffffu);
  uint32_t* d_divisors;
  unsigned long long* d_wrong;  // [0]: significands; then per mode: the three range checks
  constexpr int kCounts = 1 + 3 * check::kModes;
  cudaMalloc(&d_divisors, kDivisors * sizeof(uint32_t));
  cudaMalloc(&d_wrong, kCounts * sizeof(unsigned long long));
  cudaMemcpy(d_divisors, divisors.data(), kDivisors * sizeof(uint32_t), cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(check::edge_divisors, check::kEdgeDivisors, sizeof check::kEdgeDivisors);
  cudaMemset(d_wrong, 0, kCounts * sizeof(unsigned long long));
  check::significands<<<dim3(kDivisors, (1u << 23) / check::kTile), check::kThreads>>>(d_divisors, d_wrong);
  check::launch_range_checks<Mode::Ieee>(d_wrong + 1);
  check::launch_range_checks<Mode::Full>(d_wrong + 4);
  check::launch_range_checks<Mode::Approx>(d_wrong + 7);
  check::launch_range_checks<Mode::FullFtz>(d_wrong + 10);
  check::launch_range_checks<Mode::ApproxFtz>(d_wrong + 13);
  unsigned long long wrong[kCounts];
  const cudaError_t err = cudaMemcpy(wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::printf("divide_check: CUDA error %s\n", cudaGetErrorString(err));
    return 2;
  }
  std::printf("divide_check: IEEE: %llu of %llu significand quotients differ\n", wrong[0],
              (1ull << 23) * kDivisors);
  bool ok = wrong[0] == 0;
  for (int m = 0; m < check::kModes; ++m) {
    const unsigned long long* w = wrong + 1 + 3 * m;
    std::printf("divide_check: %s: %llu of %llu exponent-pair, %llu of %llu edge-divisor and %llu of %llu "
                "with-zeros quotients differ\n", check::kModeNames[m], w[0], 256ull * 256 * check::kTile, w[1],
                (256ull + 2) * check::kEdges * 2 * check::kTile, w[2], 256ull * 256 * check::kTile);
    ok &= w[0] == 0 && w[1] == 0 && w[2] == 0;
  }
  return ok ? 0 : 1;
}
