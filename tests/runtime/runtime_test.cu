// Runtime tests: hand-written kernels that use the tile2cu runtime the way generated code does,
// checked on the host against straightforward C++ references.
//
//   nvcc -std=c++17 -I runtime -arch=sm_80 tests/runtime/runtime_test.cu -o runtime_test && ./runtime_test
#include <tile2cu/tile2cu.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

// ================================================================================= kernels ====
// No `using namespace tile2cu;` at global scope: tile2cu::exp etc. would clash with the C library
// inside CUDA's own headers. Generated code does the same: kernels live in a namespace.
namespace kern {
using namespace tile2cu;
constexpr int kThreads = 128;

// One row of a 2-D output array, as a 1-D array.
template <class T>
__device__ Array<T, 1> row(const Array<T, 2>& a, int k) {
  return Array<T, 1>{a.data + int64_t(k) * a.stride[0], {a.shape[1]}, {a.stride[1]}};
}

// ---- z = x + w: w's tile is the same in every block (with_whole_tiles, as generated code does) ---
using FixedL = BlockedLayout<Shape<1024>, kThreads, 8>;
__global__ void fixed_tile_add(Array<__nv_bfloat16, 1> x, Array<__nv_bfloat16, 1> w, Array<float, 1> z) {
  const int b = blockIdx.x;
  const bool fixed_tiles_whole = whole_tile<FixedL>(w, {0});
  with_whole_tiles(fixed_tiles_whole, [&](auto whole) {
    const auto wt = astype<float>(load<FixedL, PaddingMode::Zero>(w, {0}, whole));
    store(z, {b}, astype<float>(load<FixedL, PaddingMode::Zero>(x, {b})) + wt);
  });
}

// ---- z = x + y, with the vector width as a parameter ------------------------------------------
template <class T, int Vec>
using AddL = BlockedLayout<Shape<1024>, kThreads, Vec>;
template <class T, int Vec>
__global__ void vector_add(Array<T, 1> x, Array<T, 1> y, Array<T, 1> z) {
  const int b = blockIdx.x;
  auto a = load<AddL<T, Vec>, PaddingMode::Zero>(x, {b});
  auto c = load<AddL<T, Vec>, PaddingMode::Zero>(y, {b});
  store(z, {b}, a + c);
}

// ---- integer ops ------------------------------------------------------------------------------
template <class T>
using OpsL = BlockedLayout<Shape<512>, kThreads, (16 / sizeof(T) > 8 ? 8 : 16 / sizeof(T))>;
constexpr int kIntOps = 26;
template <class T>
__global__ void int_ops(Array<T, 1> xa, Array<T, 1> xb, Array<T, 1> xd, Array<T, 2> out) {
  using L = OpsL<T>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  const auto d0 = load<L, PaddingMode::Zero>(xd, {bid});
  const auto d = where(d0 == T(0), T(1), d0);  // never 0 in the tail
  const auto s = b & T(sizeof(T) * 8 - 1);                                 // shift counts
  store(row(out, 0), {bid}, a + b);
  store(row(out, 1), {bid}, a - b);
  store(row(out, 2), {bid}, a * b);
  store(row(out, 3), {bid}, a & b);
  store(row(out, 4), {bid}, a | b);
  store(row(out, 5), {bid}, a ^ b);
  store(row(out, 6), {bid}, a << s);
  store(row(out, 7), {bid}, a >> s);
  store(row(out, 8), {bid}, ~a);
  store(row(out, 9), {bid}, -a);
  store(row(out, 10), {bid}, astype<T>(a < b));
  store(row(out, 11), {bid}, astype<T>(a == b));
  store(row(out, 12), {bid}, floordiv(a, d));
  store(row(out, 13), {bid}, mod(a, d));
  store(row(out, 14), {bid}, cdiv(a, d));
  store(row(out, 15), {bid}, minimum(a, b));
  store(row(out, 16), {bid}, maximum(a, b));
  store(row(out, 17), {bid}, where(a > b, a, T(7)));
  store(row(out, 18), {bid}, abs(a));
  store(row(out, 19), {bid}, a + T(3));
  store(row(out, 20), {bid}, T(5) - a);
  store(row(out, 21), {bid}, astype<T>(a != b));
  store(row(out, 22), {bid}, astype<T>(a >= b));
  store(row(out, 23), {bid}, astype<T>(a <= b));
  store(row(out, 24), {bid}, astype<T>((a > b) & !(a == b)));
  store(row(out, 25), {bid}, mod(a, T(7)) + floordiv(T(100), d));
}

// ---- float ops (float, double, half, bfloat16) -------------------------------------------------
constexpr int kFloatOps = 23;
template <class T>
__global__ void float_ops(Array<T, 1> xa, Array<T, 1> xb, Array<T, 2> out) {
  using L = OpsL<T>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  store(row(out, 0), {bid}, a + b);
  store(row(out, 1), {bid}, a - b);
  store(row(out, 2), {bid}, a * b);
  store(row(out, 3), {bid}, a / b);
  store(row(out, 4), {bid}, -a);
  store(row(out, 5), {bid}, floordiv(a, b));
  store(row(out, 6), {bid}, mod(a, b));
  store(row(out, 7), {bid}, minimum(a, b));
  store(row(out, 8), {bid}, maximum(a, b));
  store(row(out, 9), {bid}, minimum_nan(a, b));
  store(row(out, 10), {bid}, maximum_nan(a, b));
  store(row(out, 11), {bid}, where(a < b, a, b));
  store(row(out, 12), {bid}, astype<T>(a != b));
  store(row(out, 13), {bid}, astype<T>(a == b));
  store(row(out, 14), {bid}, astype<T>(a < b));
  store(row(out, 15), {bid}, astype<T>(isnan(a)));
  store(row(out, 16), {bid}, abs(a));
  store(row(out, 17), {bid}, floor(a));
  store(row(out, 18), {bid}, ceil(a));
  store(row(out, 19), {bid}, a * 2.0f + 1.0f);
  store(row(out, 20), {bid}, where(isnan(b), 0.5f, a));
  store(row(out, 21), {bid}, where(true, b, a));
  store(row(out, 22), {bid}, astype<T>(!(a >= b)));
}

// ---- bool ops -----------------------------------------------------------------------------------
constexpr int kBoolOps = 8;
__global__ void bool_ops(Array<bool, 1> xa, Array<bool, 1> xb, Array<bool, 2> out) {
  using L = BlockedLayout<Shape<512>, kThreads, 4>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  store(row(out, 0), {bid}, a & b);
  store(row(out, 1), {bid}, a | b);
  store(row(out, 2), {bid}, a ^ b);
  store(row(out, 3), {bid}, ~a);
  store(row(out, 4), {bid}, !a);
  store(row(out, 5), {bid}, a == b);
  store(row(out, 6), {bid}, a != b);
  store(row(out, 7), {bid}, where(a, b, false));
}

// ---- math (compared with a tolerance) -----------------------------------------------------------
// Inputs: a in [-3, 3], b in [0.5, 3].
constexpr int kMathOps = 14, kFastOps = 9, kRoundOps = 12;
template <class T>
__global__ void math_ops(Array<T, 1> xa, Array<T, 1> xb, Array<T, 2> out) {
  using L = OpsL<T>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  store(row(out, 0), {bid}, exp(a));
  store(row(out, 1), {bid}, exp2(a));
  store(row(out, 2), {bid}, log(b));
  store(row(out, 3), {bid}, log2(b));
  store(row(out, 4), {bid}, sqrt(b));
  store(row(out, 5), {bid}, rsqrt(b));
  store(row(out, 6), {bid}, sin(a));
  store(row(out, 7), {bid}, cos(a));
  store(row(out, 8), {bid}, tan(a));
  store(row(out, 9), {bid}, sinh(a));
  store(row(out, 10), {bid}, cosh(a));
  store(row(out, 11), {bid}, tanh(a));
  store(row(out, 12), {bid}, atan2(a, b));
  store(row(out, 13), {bid}, pow(b, a));
}
template <class T>
__global__ void fast_ops(Array<T, 1> xa, Array<T, 1> xb, Array<T, 2> out) {
  using L = OpsL<T>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  store(row(out, 0), {bid}, exp_approx(a));
  store(row(out, 1), {bid}, exp2_approx(a));
  store(row(out, 2), {bid}, exp2_ftz(a));
  store(row(out, 3), {bid}, tanh_approx(a));
  store(row(out, 4), {bid}, sqrt_ftz(b));
  store(row(out, 5), {bid}, rsqrt_ftz(b));
  store(row(out, 6), {bid}, div_approx(a, b));
  store(row(out, 7), {bid}, div_full(a, b));
  store(row(out, 8), {bid}, div_ftz(a, b));
}
template <class T>
__global__ void round_ops(Array<T, 1> xa, Array<T, 1> xb, Array<T, 2> out) {
  using L = OpsL<T>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid});
  const auto b = load<L>(xb, {bid});
  store(row(out, 0), {bid}, div_rn(a, b));
  store(row(out, 1), {bid}, div_rz(a, b));
  store(row(out, 2), {bid}, div_rm(a, b));
  store(row(out, 3), {bid}, div_rp(a, b));
  store(row(out, 4), {bid}, sqrt_rn(b));
  store(row(out, 5), {bid}, sqrt_rz(b));
  store(row(out, 6), {bid}, sqrt_rm(b));
  store(row(out, 7), {bid}, sqrt_rp(b));
  store(row(out, 8), {bid}, add_rz(a, b));
  store(row(out, 9), {bid}, sub_rm(a, b));
  store(row(out, 10), {bid}, mul_rp(a, b));
  store(row(out, 11), {bid}, mul_rn(a, b));
}

// Flush to zero (float32): each op with .ftz on (a, b), and the same op without it on the inputs
// already flushed (af, bf). The host flushes the second and requires the two to be equal.
constexpr int kFtzOps = 22;
__global__ void ftz_ops(Array<float, 1> xa, Array<float, 1> xb, Array<float, 1> xaf, Array<float, 1> xbf,
                        Array<float, 2> with_ftz, Array<float, 2> plain) {
  using L = OpsL<float>;
  const int bid = blockIdx.x;
  const auto a = load<L>(xa, {bid}), b = load<L>(xb, {bid});
  const auto af = load<L>(xaf, {bid}), bf = load<L>(xbf, {bid});
  int k = 0;
  auto both = [&](const auto& f, const auto& g) {
    store(row(with_ftz, k), {bid}, f);
    store(row(plain, k++), {bid}, g);
  };
  both(add_ftz(a, b), add(af, bf));
  both(add_rz_ftz(a, b), add_rz(af, bf));
  both(add_rm_ftz(a, b), add_rm(af, bf));
  both(add_rp_ftz(a, b), add_rp(af, bf));
  both(sub_ftz(a, b), sub(af, bf));
  both(sub_rz_ftz(a, b), sub_rz(af, bf));
  both(sub_rm_ftz(a, b), sub_rm(af, bf));
  both(sub_rp_ftz(a, b), sub_rp(af, bf));
  both(mul_ftz(a, b), mul(af, bf));
  both(mul_rz_ftz(a, b), mul_rz(af, bf));
  both(mul_rm_ftz(a, b), mul_rm(af, bf));
  both(mul_rp_ftz(a, b), mul_rp(af, bf));
  both(div_ftz(a, b), div_rn(af, bf));
  both(div_rz_ftz(a, b), div_rz(af, bf));
  both(div_rm_ftz(a, b), div_rm(af, bf));
  both(div_rp_ftz(a, b), div_rp(af, bf));
  both(sqrt_rz_ftz(abs(a)), sqrt_rz(abs(af)));
  both(sqrt_rp_ftz(abs(a)), sqrt_rp(abs(af)));
  both(minimum_ftz(a, b), minimum(af, bf));
  both(maximum_ftz(a, b), maximum(af, bf));
  both(minimum_nan_ftz(a, b), minimum_nan(af, bf));
  both(maximum_nan_ftz(a, b), maximum_nan(af, bf));
}

// astype with a directed rounding: f64 -> f32 / f16 / bf16, f32 -> f16 / bf16, bf16 -> f16.
constexpr int kAstypeOps = 13;
__global__ void astype_directed(Array<double, 1> xd, Array<__nv_bfloat16, 1> xb, Array<float, 2> out32,
                                Array<__half, 2> out16, Array<__nv_bfloat16, 2> outbf) {
  using L = OpsL<double>;
  const int bid = blockIdx.x;
  const auto d = load<L>(xd, {bid});
  const auto f = astype<float>(d);
  const auto b = load<L>(xb, {bid});
  store(row(out32, 0), {bid}, astype_rz<float>(d));
  store(row(out32, 1), {bid}, astype_rm<float>(d));
  store(row(out32, 2), {bid}, astype_rp<float>(d));
  store(row(out16, 3), {bid}, astype_rz<__half>(d));
  store(row(outbf, 4), {bid}, astype_rz<__nv_bfloat16>(d));
  store(row(out16, 5), {bid}, astype_rz<__half>(f));
  store(row(out16, 6), {bid}, astype_rm<__half>(f));
  store(row(out16, 7), {bid}, astype_rp<__half>(f));
  store(row(outbf, 8), {bid}, astype_rz<__nv_bfloat16>(f));
  store(row(out16, 9), {bid}, astype_rm<__half>(b));
  store(row(out16, 10), {bid}, astype_rp<__half>(b));
  store(row(out16, 11), {bid}, astype_rz<__half>(b));
  store(row(out16, 12), {bid}, astype_ra<__half>(b));
}

// ---- 2-D loads / stores with orders and padding -------------------------------------------------
using L2 = BlockedLayout<Shape<32, 64>, kThreads, 4>;  // 4 runs per thread
// out = x, or x^T through a transposing load (Order<1, 0>) or a transposing store.
template <int Mode, class I>
__global__ void copy2d(Array<float, 2, I> x, Array<float, 2, I> out) {
  const int i = blockIdx.x, j = blockIdx.y;
  if constexpr (Mode == 0) {
    store(out, {i, j}, load<L2, PaddingMode::Zero>(x, {i, j}));
  } else if constexpr (Mode == 1) {  // tile axis 0 walks array axis 1
    store(out, {i, j}, load<L2, PaddingMode::Zero, Order<1, 0>>(x, {i, j}));
  } else {
    store<Order<1, 0>>(out, {i, j}, load<L2>(x, {i, j}));
  }
}
// Whole tiles, padding included, copied to an array of full-tile extent.
template <class T, PaddingMode Pad, class Ord>
__global__ void pad_copy(Array<T, 2> x, Array<T, 2> out) {
  const int i = blockIdx.x, j = blockIdx.y;
  store(out, {i, j}, load<L2, Pad, Ord>(x, {i, j}));
}

// ---- 3-D, strided, and a tile smaller than the CTA (threads 16.. own nothing) -------------------
using L3 = BlockedLayout<Shape<2, 4, 8>, kThreads, 4>;
template <class T>
__global__ void copy3d(Array<T, 3> x, Array<T, 3> out) {
  const auto t = load<L3, PaddingMode::Zero>(x, {int(blockIdx.x), int(blockIdx.y), int(blockIdx.z)});
  store(out, {blockIdx.x, blockIdx.y, blockIdx.z}, t + T(1));
}

// ---- broadcast_to, reshape, arange --------------------------------------------------------------
// out = x + row (1,64) + col (32,1) - s (1,1), each broadcast to (32, 64).
__global__ void broadcast_test(Array<float, 2> x, Array<float, 2> r, Array<float, 2> c,
                               Array<float, 2> s, Array<float, 2> out) {
  __shared__ __align__(16) unsigned char smem[smem_bytes<float, L2>];
  const int i = blockIdx.x;
  const auto xt = load<L2>(x, {i, 0});
  const auto rt = load<BlockedLayout<Shape<1, 64>, kThreads, 4>>(r, {0, 0});
  const auto ct = load<BlockedLayout<Shape<32, 1>, kThreads, 1>>(c, {i, 0});
  const auto st = load<BlockedLayout<Shape<1, 1>, kThreads, 1>>(s, {0, 0});
  const auto rb = broadcast_to<L2>(rt, smem);
  const auto cb = broadcast_to<L2>(ct, smem);
  const auto sb = broadcast_to<L2>(st, smem);
  store(out, {i, 0}, xt + rb + cb - sb);
}
__global__ void reshape_test(Array<float, 1> x, Array<float, 2> out_row, Array<float, 2> out_sq,
                             Array<float, 1> out_vec1, Array<int32_t, 1> ar_i, Array<float, 1> ar_f) {
  __shared__ __align__(16) unsigned char smem[64 * sizeof(float)];
  using L64 = BlockedLayout<Shape<64>, kThreads, 4>;
  const auto t = load<L64>(x, {0});
  store(out_row, {0, 0}, reshape<BlockedLayout<Shape<1, 64>, kThreads, 4>>(t, smem));  // registers
  store(out_sq, {0, 0}, reshape<BlockedLayout<Shape<8, 8>, kThreads, 2>>(t, smem));    // via smem
  store(out_vec1, {0}, reshape<BlockedLayout<Shape<64>, kThreads, 1>>(t, smem));       // via smem
  store(ar_i, {0}, arange<L64, int32_t>());
  store(ar_f, {0}, arange<L64, float>(5, -3));
}

// ---- casts --------------------------------------------------------------------------------------
constexpr int kCasts = 11;
__global__ void cast_test(Array<float, 1> f, Array<double, 1> d, Array<int64_t, 1> i64,
                          Array<uint8_t, 1> u8, Array<int32_t, 1> i32, Array<int8_t, 1> i8,
                          Array<float, 2> out, Array<uint32_t, 1> bits) {
  using L = BlockedLayout<Shape<256>, kThreads, 2>;
  const int b = blockIdx.x;
  const auto tf = load<L>(f, {b});
  const auto td = load<L>(d, {b});
  const auto ti = load<L>(i64, {b});
  const auto tu = load<L>(u8, {b});
  const auto t32 = load<L>(i32, {b});
  const auto t8 = load<L>(i8, {b});
  store(row(out, 0), {b}, astype<float>(astype<float16>(tf)));
  store(row(out, 1), {b}, astype<float>(astype<bfloat16>(tf)));
  store(row(out, 2), {b}, astype<float>(astype<int32_t>(tf)));
  store(row(out, 3), {b}, astype<float>(astype<int8_t>(astype<float16>(tf))));
  store(row(out, 4), {b}, astype<float>(astype<int32_t>(astype<bfloat16>(td))));
  store(row(out, 5), {b}, astype<float>(astype<float16>(ti)));
  store(row(out, 6), {b}, astype<float>(astype<bool>(tu)));
  store(row(out, 7), {b}, astype<float>(astype<int32_t>(astype<bool>(tf))));
  store(row(out, 8), {b}, astype<float>(astype<bfloat16>(t32)));
  store(row(out, 9), {b}, astype<float>(astype<int32_t>(astype<uint8_t>(t8))));
  store(row(out, 10), {b}, astype<float>(astype<float16>(td)));
  store(bits, {b}, bitcast<uint32_t>(tf));
}

// ---- rank-0 values ------------------------------------------------------------------------------
__global__ void scalar_test(Array<float, 2> x, Array<float, 1> out, Array<int32_t, 1> iout,
                            Array<float, 2> small, Array<float, 1> seen) {
  const float v = load_scalar(x, {1, 2});
  const float zero = load_scalar<PaddingMode::Zero>(x, {100, 0});
  const float ninf = load_scalar<PaddingMode::NegInf>(x, {-1, 0});
  store_scalar(out, {0}, v);
  store_scalar(out, {1}, zero);
  store_scalar(out, {2}, ninf);
  store_scalar(out, {3}, tile2cu::floordiv(v, 2.0f));
  store_scalar(out, {4}, tile2cu::mod(-7.0f, 3.0f));
  store_scalar(out, {5}, tile2cu::mod(7.5f, -2.0f));
  store_scalar(out, {6}, tile2cu::exp(tile2cu::astype<float>(tile2cu::astype<float16>(0.0f))));
  store_scalar(out, {7}, tile2cu::minimum(tile2cu::quiet_nan<float>(), 3.0f));
  store_scalar(out, {99}, 1.0f);  // out of bounds: dropped
  store_scalar(iout, {0}, tile2cu::mod(-7, 3));
  store_scalar(iout, {1}, tile2cu::floordiv(-7, 2));
  store_scalar(iout, {2}, tile2cu::cdiv(7, 2));
  store_scalar(iout, {3}, tile2cu::cdiv(-7, 2));
  store_scalar(iout, {4}, int32_t(tile2cu::add(int8_t(100), int8_t(100))));
  store_scalar(iout, {5}, tile2cu::maximum(-3, 2));
  store_scalar(small, {5, 0}, 42.0f);  // out of the view's bounds: dropped
  store_scalar(small, {1, 1}, 42.0f);
  // Every thread saw the loaded value.
  store(seen, {0}, full<BlockedLayout<Shape<kThreads>, kThreads, 1>>(v));
}

// Whole-tile reductions to a scalar on 512 threads (16 warps: the butterfly over the warps'
// partials, reduce.cuh): every thread writes what it got, so the host can see that all of them
// hold the same bits.
constexpr int kWideThreads = 512;
using WideLayout = BlockedLayout<Shape<1, 8192>, kWideThreads, 8>;
__global__ void __launch_bounds__(kWideThreads) reduce_all_test(Array<float, 2> x, Array<int32_t, 2> xi,
                                                                Array<float, 2> out, Array<int32_t, 1> iout) {
  __shared__ alignas(16) unsigned char smem[kWideThreads / 32 * 8];
  const int row = int(blockIdx.x);
  const auto t = load<WideLayout>(x, {row, 0});
  const float sum = reduce_sum<Axes<0, 1>>(t, smem), max = reduce_max<Axes<0, 1>>(t, smem);
  const int32_t isum = reduce_sum<Axes<0, 1>>(load<WideLayout>(xi, {row, 0}), smem);
  const int64_t k = int64_t(threadIdx.x);
  store_scalar(out, {row, k}, sum);
  store_scalar(out, {row, k + kWideThreads}, max);
  if (threadIdx.x == 0) store_scalar(iout, {row}, isum);
}

}  // namespace kern

// ==================================================================================== host ====
using tile2cu::Array;
using tile2cu::ArrayView;

#define CUDA_CHECK(x)                                                                      \
  do {                                                                                     \
    cudaError_t err_ = (x);                                                                \
    if (err_ != cudaSuccess) {                                                             \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
      std::exit(2);                                                                        \
    }                                                                                      \
  } while (0)

static int g_passed = 0, g_failed = 0;
static void check(const std::string& name, bool ok, const std::string& detail = "") {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::printf("FAIL %s %s\n", name.c_str(), detail.c_str());
  }
}

// Host storage for T (std::vector<bool> is a bitset, so bools are kept as bytes).
template <class T>
using HostT = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
template <class T>
using HVec = std::vector<HostT<T>>;

// A device buffer with some slack after it (for out-of-bounds checks).
template <class T>
struct Buf {
  T* d = nullptr;
  size_t n = 0;
  explicit Buf(size_t n_) : n(n_) {
    CUDA_CHECK(cudaMalloc(&d, bytes()));
    CUDA_CHECK(cudaMemset(d, 0, bytes()));
  }
  explicit Buf(const HVec<T>& h) : Buf(h.size()) {
    CUDA_CHECK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  Buf(const Buf&) = delete;
  ~Buf() { cudaFree(d); }
  size_t bytes() const { return n * sizeof(T) + 256; }
  HVec<T> get(size_t extra = 0) const {
    HVec<T> h(n + extra);
    CUDA_CHECK(cudaMemcpy(h.data(), d, (n + extra) * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

template <class I = int32_t, class T, int R>
Array<T, R, I> make_array(T* p, const int64_t (&shape)[R]) {
  Array<T, R, I> a{};
  if (!tile2cu::to_device_array<I>(ArrayView<T, R>(p, shape), a)) std::exit(3);
  return a;
}
template <class I = int32_t, class T, int R>
Array<T, R, I> make_array(T* p, const int64_t (&shape)[R], const int64_t (&strides)[R]) {
  Array<T, R, I> a{};
  if (!tile2cu::to_device_array<I>(ArrayView<T, R>(p, shape, strides), a)) std::exit(3);
  return a;
}

static void sync(const char* what) {
  CUDA_CHECK(cudaGetLastError());
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("kernel %s failed: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

static std::mt19937_64 rng(12345);

// ---- numeric helpers on the host ----------------------------------------------------------------
template <class T>
constexpr bool is_half_like = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;
template <class T>
using W = std::conditional_t<is_half_like<T>, float, T>;  // the type a reference computes in
template <class T>
W<T> wide(T x) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(x);
  else return x;
}
template <class T>
T narrow(W<T> x) {
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(x);
  else return x;
}
template <class T>
std::string str(T x) {
  if constexpr (is_half_like<T> || std::is_floating_point_v<T>) return std::to_string(double(wide(x)));
  else if constexpr (std::is_signed_v<T>) return std::to_string(int64_t(x));
  else return std::to_string(uint64_t(x));
}
// Exact equality; NaN equals NaN; -0 differs from +0 unless any_zero_sign.
template <class T>
bool same(T got, T want, bool any_zero_sign = false) {
  if constexpr (is_half_like<T> || std::is_floating_point_v<T>) {
    const double g = double(wide(got)), w = double(wide(want));
    if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w);
    return g == w && (any_zero_sign || std::signbit(g) == std::signbit(w));
  } else {
    return got == want;
  }
}
template <class T>
bool close(T got, double want, double rel, double abs_tol = 0) {
  const double g = double(wide(got));
  if (std::isnan(want)) return std::isnan(g);
  if (std::isinf(want)) return g == want;
  return std::fabs(g - want) <= abs_tol + rel * std::fabs(want);
}

// Compares got[i] with want(i) for i < n; reports the first few mismatches.
template <class T, class F>
void expect(const std::string& name, const T* got, size_t n, F want, bool any_zero_sign = false) {
  int bad = 0;
  std::string detail;
  for (size_t i = 0; i < n; ++i) {
    const T w = want(i);
    if (!same(got[i], w, any_zero_sign)) {
      if (bad < 3) detail += " [" + std::to_string(i) + "] got " + str(got[i]) + " want " + str(w);
      ++bad;
    }
  }
  check(name, bad == 0, std::to_string(bad) + " mismatches:" + detail);
}
template <class T, class F>
void expect_close(const std::string& name, const T* got, size_t n, double rel, double abs_tol,
                  F want) {
  int bad = 0;
  std::string detail;
  for (size_t i = 0; i < n; ++i) {
    const double w = want(i);
    if (!close(got[i], w, rel, abs_tol)) {
      if (bad < 3) detail += " [" + std::to_string(i) + "] got " + str(got[i]) + " want " + std::to_string(w);
      ++bad;
    }
  }
  check(name, bad == 0, std::to_string(bad) + " mismatches:" + detail);
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<T, __half>) return "float16";
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bfloat16";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else return "bool";
}

// Random floats rounded to T, with NaN, infinities, signed zeros and ties sprinkled in.
template <class T>
HVec<T> random_floats(size_t n, double lo, double hi, bool specials) {
  std::uniform_real_distribution<double> u(lo, hi);
  HVec<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    double x = u(rng);
    if (specials) {
      switch (rng() % 40) {
        case 0: x = std::numeric_limits<double>::quiet_NaN(); break;
        case 1: x = std::numeric_limits<double>::infinity(); break;
        case 2: x = -std::numeric_limits<double>::infinity(); break;
        case 3: x = 0.0; break;
        case 4: x = -0.0; break;
        case 5: x = std::round(x); break;
        default: break;
      }
    }
    if constexpr (std::is_same_v<T, double>) v[i] = x;
    else v[i] = narrow<T>(W<T>(x));
  }
  return v;
}

// ---- tests ----------------------------------------------------------------------------------------
template <class T, int Vec>
void test_vector_add(int64_t n, int misalign) {
  HVec<T> x(n + misalign), y(n + misalign);
  for (int64_t i = 0; i < n + misalign; ++i) {
    x[i] = narrow<T>(W<T>(i % 97));
    y[i] = narrow<T>(W<T>((3 * i) % 89));
  }
  Buf<T> dx(x), dy(y), dz(n + misalign);
  const int64_t grid = tile2cu::ceil_div(n, 1024);
  kern::vector_add<T, Vec><<<grid, kern::kThreads>>>(make_array(dx.d + misalign, {n}),
                                                     make_array(dy.d + misalign, {n}),
                                                     make_array(dz.d + misalign, {n}));
  sync("vector_add");
  const auto z = dz.get();
  expect(std::string("vector_add ") + type_name<T>() + " vec" + std::to_string(Vec) + " n=" + std::to_string(n) +
             " misalign=" + std::to_string(misalign),
         z.data(), size_t(n + misalign), [&](size_t i) {
           if (int64_t(i) < misalign) return narrow<T>(W<T>(0));
           return narrow<T>(W<T>(wide(x[i]) + wide(y[i])));
         });
}

// w shorter than the tile (its checked path) or misaligned (no vector loads) or neither.
void test_fixed_tile(int64_t w_len, int misalign) {
  const int64_t n = 3 * 1024;
  HVec<__nv_bfloat16> x(n), w(w_len + misalign);
  for (int64_t i = 0; i < n; ++i) x[i] = __float2bfloat16_rn(float(i % 101) - 50.0f);
  for (int64_t i = 0; i < w_len + misalign; ++i) w[i] = __float2bfloat16_rn(0.25f * float(i % 37) + 0.5f);
  Buf<__nv_bfloat16> dx(x), dw(w);
  Buf<float> dz(n);
  kern::fixed_tile_add<<<n / 1024, kern::kThreads>>>(make_array(dx.d, {n}), make_array(dw.d + misalign, {w_len}),
                                                   make_array(dz.d, {n}));
  sync("fixed_tile_add");
  const auto z = dz.get();
  expect("fixed tile w_len=" + std::to_string(w_len) + " misalign=" + std::to_string(misalign), z.data(), size_t(n),
         [&](size_t i) {
           const int64_t k = int64_t(i) % 1024;
           return __bfloat162float(x[i]) + (k < w_len ? __bfloat162float(w[k + misalign]) : 0.0f);
         });
}

template <class T>
void test_int_ops() {
  using U = std::make_unsigned_t<T>;
  constexpr int bits = sizeof(T) * 8;
  const int64_t n = 1000;
  HVec<T> a(n), b(n), d(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = T(rng());
    b[i] = (i % 5 == 0) ? a[i] : T(rng());  // some ties
    if (i % 3 == 0) b[i] = T(int64_t(rng() % 200) - 100);  // small values too
    T div = T(rng() >> (rng() % 64));
    if (i % 2) div = T(int64_t(rng() % 19) - 9);
    if (div == 0) div = 1;
    if constexpr (std::is_signed_v<T>) {
      if (a[i] == std::numeric_limits<T>::min() && div == T(-1)) div = 1;
    }
    d[i] = div;
  }
  Buf<T> da(a), db(b), dd(d), dout(kern::kIntOps * n);
  const int64_t grid = tile2cu::ceil_div(n, 512);
  kern::int_ops<T><<<grid, kern::kThreads>>>(make_array(da.d, {n}), make_array(db.d, {n}),
                                              make_array(dd.d, {n}),
                                              make_array(dout.d, {int64_t(kern::kIntOps), n}));
  sync("int_ops");
  const auto out = dout.get();
  // Python semantics, written out with wide integers.
  auto fdiv = [](T x, T y) -> T {
    if constexpr (std::is_signed_v<T>) {
      int64_t q = int64_t(x) / int64_t(y), r = int64_t(x) % int64_t(y);
      if (r != 0 && ((r < 0) != (y < 0))) --q;
      return T(q);
    } else {
      return T(x / y);
    }
  };
  auto pmod = [](T x, T y) -> T {
    if constexpr (std::is_signed_v<T>) {
      int64_t r = int64_t(x) % int64_t(y);
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return T(r);
    } else {
      return T(x % y);
    }
  };
  auto cdiv = [](T x, T y) -> T {
    if constexpr (std::is_signed_v<T>) {
      int64_t q = int64_t(x) / int64_t(y), r = int64_t(x) % int64_t(y);
      if (r != 0 && ((r < 0) == (y < 0))) ++q;
      return T(q);
    } else {
      return T(x / y + (x % y != 0));
    }
  };
  auto wrap = [](uint64_t v) { return T(U(v)); };
  const std::string tn = type_name<T>();
  auto row = [&](int k) { return out.data() + k * n; };
  expect(tn + " add", row(0), n, [&](size_t i) { return wrap(uint64_t(a[i]) + uint64_t(b[i])); });
  expect(tn + " sub", row(1), n, [&](size_t i) { return wrap(uint64_t(a[i]) - uint64_t(b[i])); });
  expect(tn + " mul", row(2), n, [&](size_t i) { return wrap(uint64_t(a[i]) * uint64_t(b[i])); });
  expect(tn + " and", row(3), n, [&](size_t i) { return T(a[i] & b[i]); });
  expect(tn + " or", row(4), n, [&](size_t i) { return T(a[i] | b[i]); });
  expect(tn + " xor", row(5), n, [&](size_t i) { return T(a[i] ^ b[i]); });
  expect(tn + " lshift", row(6), n, [&](size_t i) { return wrap(uint64_t(a[i]) << (U(b[i]) % bits)); });
  expect(tn + " rshift", row(7), n, [&](size_t i) {
    if constexpr (std::is_signed_v<T>) return T(int64_t(a[i]) >> (U(b[i]) % bits));
    else return T(uint64_t(a[i]) >> (U(b[i]) % bits));
  });
  expect(tn + " not", row(8), n, [&](size_t i) { return wrap(~uint64_t(a[i])); });
  expect(tn + " neg", row(9), n, [&](size_t i) { return wrap(0 - uint64_t(a[i])); });
  expect(tn + " lt", row(10), n, [&](size_t i) { return T(a[i] < b[i]); });
  expect(tn + " eq", row(11), n, [&](size_t i) { return T(a[i] == b[i]); });
  expect(tn + " floordiv", row(12), n, [&](size_t i) { return fdiv(a[i], d[i]); });
  expect(tn + " mod", row(13), n, [&](size_t i) { return pmod(a[i], d[i]); });
  expect(tn + " cdiv", row(14), n, [&](size_t i) { return cdiv(a[i], d[i]); });
  expect(tn + " minimum", row(15), n, [&](size_t i) { return std::min(a[i], b[i]); });
  expect(tn + " maximum", row(16), n, [&](size_t i) { return std::max(a[i], b[i]); });
  expect(tn + " where", row(17), n, [&](size_t i) { return a[i] > b[i] ? a[i] : T(7); });
  expect(tn + " abs", row(18), n, [&](size_t i) {
    if constexpr (std::is_signed_v<T>) return a[i] < 0 ? wrap(0 - uint64_t(a[i])) : a[i];
    else return a[i];
  });
  expect(tn + " add_scalar", row(19), n, [&](size_t i) { return wrap(uint64_t(a[i]) + 3); });
  expect(tn + " scalar_sub", row(20), n, [&](size_t i) { return wrap(5 - uint64_t(a[i])); });
  expect(tn + " ne", row(21), n, [&](size_t i) { return T(a[i] != b[i]); });
  expect(tn + " ge", row(22), n, [&](size_t i) { return T(a[i] >= b[i]); });
  expect(tn + " le", row(23), n, [&](size_t i) { return T(a[i] <= b[i]); });
  expect(tn + " gt_and_not_eq", row(24), n, [&](size_t i) { return T(a[i] > b[i]); });
  expect(tn + " mod_scalar_floordiv_scalar", row(25), n,
         [&](size_t i) { return wrap(uint64_t(pmod(a[i], T(7))) + uint64_t(fdiv(T(100), d[i]))); });
}

template <class T>
void test_float_ops() {
  const int64_t n = 1000;
  HVec<T> a = random_floats<T>(n, -8, 8, true), b = random_floats<T>(n, -8, 8, true);
  for (int64_t i = 0; i < n; i += 7) b[i] = a[i];  // ties
  Buf<T> da(a), db(b), dout(kern::kFloatOps * n);
  kern::float_ops<T><<<tile2cu::ceil_div(n, 512), kern::kThreads>>>(
      make_array(da.d, {n}), make_array(db.d, {n}), make_array(dout.d, {int64_t(kern::kFloatOps), n}));
  sync("float_ops");
  const auto out = dout.get();
  using F = W<T>;
  auto A = [&](size_t i) { return wide(a[i]); };
  auto B = [&](size_t i) { return wide(b[i]); };
  auto N = [](F x) { return narrow<T>(x); };
  auto row = [&](int k) { return out.data() + k * n; };
  auto py_mod = [](F x, F y) {  // CPython's float_rem
    F r = std::fmod(x, y);
    if (r != 0) {
      if ((y < 0) != (r < 0)) r += y;
    } else {
      r = std::copysign(F(0), y);
    }
    return r;
  };
  auto fmin_ = [](F x, F y) { return std::isnan(x) ? y : std::isnan(y) ? x : (y < x ? y : x); };
  auto fmax_ = [](F x, F y) { return std::isnan(x) ? y : std::isnan(y) ? x : (x < y ? y : x); };
  const F nan = std::numeric_limits<F>::quiet_NaN();
  const std::string tn = type_name<T>();
  expect(tn + " add", row(0), n, [&](size_t i) { return N(A(i) + B(i)); });
  expect(tn + " sub", row(1), n, [&](size_t i) { return N(A(i) - B(i)); });
  expect(tn + " mul", row(2), n, [&](size_t i) { return N(A(i) * B(i)); });
  expect(tn + " div", row(3), n, [&](size_t i) { return N(A(i) / B(i)); });
  expect(tn + " neg", row(4), n, [&](size_t i) { return N(-A(i)); });
  expect(tn + " floordiv", row(5), n, [&](size_t i) { return N(std::floor(A(i) / B(i))); });
  expect(tn + " mod", row(6), n, [&](size_t i) { return N(py_mod(A(i), B(i))); });
  // minimum(-0, +0): either zero.
  expect(tn + " minimum", row(7), n, [&](size_t i) { return N(fmin_(A(i), B(i))); }, true);
  expect(tn + " maximum", row(8), n, [&](size_t i) { return N(fmax_(A(i), B(i))); }, true);
  expect(tn + " minimum_nan", row(9), n, [&](size_t i) {
    return N(std::isnan(A(i)) || std::isnan(B(i)) ? nan : fmin_(A(i), B(i)));
  }, true);
  expect(tn + " maximum_nan", row(10), n, [&](size_t i) {
    return N(std::isnan(A(i)) || std::isnan(B(i)) ? nan : fmax_(A(i), B(i)));
  }, true);
  expect(tn + " where", row(11), n, [&](size_t i) { return A(i) < B(i) ? a[i] : b[i]; });
  expect(tn + " ne", row(12), n, [&](size_t i) { return N(F(A(i) != B(i))); });
  expect(tn + " eq", row(13), n, [&](size_t i) { return N(F(A(i) == B(i))); });
  expect(tn + " lt", row(14), n, [&](size_t i) { return N(F(A(i) < B(i))); });
  expect(tn + " isnan", row(15), n, [&](size_t i) { return N(F(std::isnan(A(i)))); });
  expect(tn + " abs", row(16), n, [&](size_t i) { return N(std::fabs(A(i))); });
  expect(tn + " floor", row(17), n, [&](size_t i) { return N(std::floor(A(i))); });
  expect(tn + " ceil", row(18), n, [&](size_t i) { return N(std::ceil(A(i))); });
  expect(tn + " mul_add_scalar", row(19), n, [&](size_t i) { return N(wide(N(A(i) * 2)) + 1); });
  expect(tn + " where_scalar", row(20), n, [&](size_t i) { return std::isnan(B(i)) ? N(0.5f) : a[i]; });
  expect(tn + " where_bool", row(21), n, [&](size_t i) { return b[i]; });
  expect(tn + " not_ge", row(22), n, [&](size_t i) { return N(F(!(A(i) >= B(i)))); });
}

void test_bool_ops() {
  const int64_t n = 1000;
  HVec<bool> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = rng() & 1;
    b[i] = rng() & 1;
  }
  Buf<bool> da(a), db(b), dout(kern::kBoolOps * n);
  kern::bool_ops<<<tile2cu::ceil_div(n, 512), kern::kThreads>>>(
      make_array(da.d, {n}), make_array(db.d, {n}), make_array(dout.d, {int64_t(kern::kBoolOps), n}));
  sync("bool_ops");
  const auto out = dout.get();
  const char* names[] = {"and", "or", "xor", "invert", "not", "eq", "ne", "where"};
  for (int k = 0; k < kern::kBoolOps; ++k) {
    expect(std::string("bool ") + names[k], out.data() + k * n, n, [&](size_t i) -> uint8_t {
      const bool x = a[i], y = b[i];
      const bool r[] = {x && y, x || y, x != y, !x, !x, x == y, x != y, x && y};
      return r[k];
    });
  }
}

// `exact` rounded to T in direction m ('n' nearest, 'z' toward zero, 'm' down, 'p' up): to float
// in that direction (nextafter corrects the nearest conversion), then to f16/bf16 by CUDA's host
// conversions; the two steps compose (types.cuh).
template <class T>
T round_directed(double exact, char m) {
  if constexpr (std::is_same_v<T, double>) return exact;
  float f = float(exact);
  const float inf = std::numeric_limits<float>::infinity();
  if (m == 'z' && std::fabs(double(f)) > std::fabs(exact)) f = std::nextafter(f, 0.0f);
  if (m == 'm' && double(f) > exact) f = std::nextafter(f, -inf);
  if (m == 'p' && double(f) < exact) f = std::nextafter(f, inf);
  if constexpr (std::is_same_v<T, float>) return f;
  else if constexpr (std::is_same_v<T, __half>)
    return m == 'n' ? __float2half_rn(f) : m == 'z' ? __float2half_rz(f) : m == 'm' ? __float2half_rd(f) : __float2half_ru(f);
  else
    return m == 'n' ? __float2bfloat16_rn(f) : m == 'z' ? __float2bfloat16_rz(f)
         : m == 'm' ? __float2bfloat16_rd(f) : __float2bfloat16_ru(f);
}

template <class T>
void test_math() {
  const int64_t n = 1000;
  HVec<T> a = random_floats<T>(n, -3, 3, false), b = random_floats<T>(n, 0.5, 3, false);
  Buf<T> da(a), db(b), dm(kern::kMathOps * n), df(kern::kFastOps * n), dr(kern::kRoundOps * n);
  const auto xa = make_array(da.d, {n}), xb = make_array(db.d, {n});
  const int64_t grid = tile2cu::ceil_div(n, 512);
  kern::math_ops<T><<<grid, kern::kThreads>>>(xa, xb, make_array(dm.d, {int64_t(kern::kMathOps), n}));
  kern::fast_ops<T><<<grid, kern::kThreads>>>(xa, xb, make_array(df.d, {int64_t(kern::kFastOps), n}));
  kern::round_ops<T><<<grid, kern::kThreads>>>(xa, xb, make_array(dr.d, {int64_t(kern::kRoundOps), n}));
  sync("math");
  const auto m = dm.get(), f = df.get(), r = dr.get();
  auto A = [&](size_t i) { return double(wide(a[i])); };
  auto B = [&](size_t i) { return double(wide(b[i])); };
  // Tolerances: a few ulps of T (the reference is exact-ish in double, the device result is rounded to T).
  const double rel = std::is_same_v<T, double> ? 1e-14 : std::is_same_v<T, float> ? 4e-6
                   : std::is_same_v<T, __half> ? 2e-3 : 1.6e-2;
  const double abs_tol = rel;  // for results near 0 (sin, tanh, atan2)
  const std::string tn = type_name<T>();
  using Fn = double (*)(double, double);
  const std::pair<const char*, Fn> precise[] = {
      {"exp", [](double x, double) { return std::exp(x); }},
      {"exp2", [](double x, double) { return std::exp2(x); }},
      {"log", [](double, double y) { return std::log(y); }},
      {"log2", [](double, double y) { return std::log2(y); }},
      {"sqrt", [](double, double y) { return std::sqrt(y); }},
      {"rsqrt", [](double, double y) { return 1 / std::sqrt(y); }},
      {"sin", [](double x, double) { return std::sin(x); }},
      {"cos", [](double x, double) { return std::cos(x); }},
      {"tan", [](double x, double) { return std::tan(x); }},
      {"sinh", [](double x, double) { return std::sinh(x); }},
      {"cosh", [](double x, double) { return std::cosh(x); }},
      {"tanh", [](double x, double) { return std::tanh(x); }},
      {"atan2", [](double x, double y) { return std::atan2(x, y); }},
      {"pow", [](double x, double y) { return std::pow(y, x); }},
  };
  for (int k = 0; k < kern::kMathOps; ++k) {
    const double rk = (k == 8) ? rel * 8 : rel;  // tan: large values near +-pi/2
    expect_close(tn + " " + precise[k].first, m.data() + k * n, n, rk, abs_tol,
                 [&](size_t i) { return precise[k].second(A(i), B(i)); });
  }
  // Approximations: looser (relative ~2^-21 for ex2/rsqrt/div.approx, 2^-11 for tanh.approx).
  const double arel = std::max(rel, 1e-5), tanh_tol = std::max(rel, 2e-3);
  const std::pair<const char*, Fn> fast[] = {
      {"exp_approx", [](double x, double) { return std::exp(x); }},
      {"exp2_approx", [](double x, double) { return std::exp2(x); }},
      {"exp2_ftz", [](double x, double) { return std::exp2(x); }},
      {"tanh_approx", [](double x, double) { return std::tanh(x); }},
      {"sqrt_ftz", [](double, double y) { return std::sqrt(y); }},
      {"rsqrt_ftz", [](double, double y) { return 1 / std::sqrt(y); }},
      {"div_approx", [](double x, double y) { return x / y; }},
      {"div_full", [](double x, double y) { return x / y; }},
      {"div_ftz", [](double x, double y) { return x / y; }},
  };
  for (int k = 0; k < kern::kFastOps; ++k) {
    const double t = k == 3 ? tanh_tol : arel;
    expect_close(tn + " " + fast[k].first, f.data() + k * n, n, t, t,
                 [&](size_t i) { return fast[k].second(A(i), B(i)); });
  }
  if constexpr (!is_half_like<T>) {
    // Explicit rounding. rn must equal the host's IEEE result; rm / rp / rz must be the neighbour
    // of the exact value on the right side, which side() decides exactly.
    const char* names[] = {"div_rn", "div_rz", "div_rm", "div_rp", "sqrt_rn", "sqrt_rz",
                           "sqrt_rm", "sqrt_rp", "add_rz", "sub_rm", "mul_rp", "mul_rn"};
    const char mode[] = {'n', 'z', 'm', 'p', 'n', 'z', 'm', 'p', 'z', 'm', 'p', 'n'};
    for (int k = 0; k < kern::kRoundOps; ++k) {
      int bad = 0;
      for (int64_t i = 0; i < n; ++i) {
        const T x = a[i], y = b[i];
        const T got = r[k * n + i];
        const T yy = k == 9 ? -y : y;
        const T near = k < 4 ? x / y : k < 8 ? std::sqrt(y) : k < 10 ? x + yy : x * y;
        // sign(v - exact result), from exact residuals (fma, TwoSum).
        auto side = [&](T v) {
          T d;
          if (k < 4) d = std::fma(v, y, -x);       // y > 0
          else if (k < 8) d = std::fma(v, v, -y);  // v >= 0
          else if (k < 10) {
            const T s = x + yy, bb = s - x, e = (x - (s - bb)) + (yy - bb);  // x + yy = s + e
            d = (v - s) - e;
          } else d = -std::fma(x, y, -v);
          return (d > 0) - (d < 0);
        };
        const T up = std::nextafter(got, std::numeric_limits<T>::infinity());
        const T down = std::nextafter(got, -std::numeric_limits<T>::infinity());
        const bool rounds_down = side(got) <= 0 && side(up) > 0;
        const bool rounds_up = side(got) >= 0 && side(down) < 0;
        bool ok;
        switch (mode[k]) {
          case 'n': ok = got == near; break;
          case 'm': ok = rounds_down; break;
          case 'p': ok = rounds_up; break;
          default: ok = near >= 0 ? rounds_down : rounds_up; break;
        }
        bad += !ok;
      }
      check(tn + " " + names[k], bad == 0, std::to_string(bad) + " mismatches");
    }
  } else {
    // f16/bf16: the exact result (add, sub, mul are exact in double; a quotient or root of
    // 16-bit values lies too far from every float to round across one), rounded on the host
    // in the op's direction to float and then to T.
    const char* names[] = {"div_rn", "div_rz", "div_rm", "div_rp", "sqrt_rn", "sqrt_rz",
                           "sqrt_rm", "sqrt_rp", "add_rz", "sub_rm", "mul_rp", "mul_rn"};
    const char mode[] = {'n', 'z', 'm', 'p', 'n', 'z', 'm', 'p', 'z', 'm', 'p', 'n'};
    for (int k = 0; k < kern::kRoundOps; ++k) {
      int bad = 0;
      for (int64_t i = 0; i < n; ++i) {
        const double x = A(i), y = B(i);
        const double exact = k < 4 ? x / y : k < 8 ? std::sqrt(y) : k == 8 ? x + y : k == 9 ? x - y : x * y;
        bad += wide(r[k * n + i]) != wide(round_directed<T>(exact, mode[k]));
      }
      check(tn + " " + names[k], bad == 0, std::to_string(bad) + " mismatches");
    }
  }
}

// Inputs for ftz_ops: normal values, subnormals of both signs, and pairs whose exact sum,
// difference or product is subnormal (flushed by the .ftz forms), with a few zeros.
void test_ftz_ops() {
  const int64_t n = 4096;
  HVec<float> a(n), b(n), af(n), bf(n);
  auto flush = [](float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; };
  std::uniform_real_distribution<float> unit(1.0f, 2.0f);
  for (int64_t i = 0; i < n; ++i) {
    const float sign_a = rng() % 2 ? -1.0f : 1.0f, sign_b = rng() % 2 ? -1.0f : 1.0f;
    switch (i % 4) {
      case 0: a[i] = sign_a * unit(rng); b[i] = sign_b * unit(rng); break;                      // normal
      case 1: a[i] = sign_a * std::ldexp(unit(rng), -130 - int(rng() % 20)); b[i] = sign_b * unit(rng); break;  // subnormal a
      case 2: a[i] = sign_a * std::ldexp(unit(rng), -126); b[i] = -a[i] * std::ldexp(1.0f, -int(rng() % 3)) *
                                                               (1.0f + std::ldexp(1.0f, -20)); break;  // sum subnormal
      default: a[i] = sign_a * std::ldexp(unit(rng), -70); b[i] = sign_b * std::ldexp(unit(rng), -60 - int(rng() % 10));
               if (i % 64 == 3) a[i] = 0.0f; break;                                           // product subnormal
    }
    af[i] = flush(a[i]);
    bf[i] = flush(b[i]);
  }
  Buf<float> da(a), db(b), daf(af), dbf(bf), dw(kern::kFtzOps * n), dp(kern::kFtzOps * n);
  kern::ftz_ops<<<tile2cu::ceil_div(n, 512), kern::kThreads>>>(
      make_array(da.d, {n}), make_array(db.d, {n}), make_array(daf.d, {n}), make_array(dbf.d, {n}),
      make_array(dw.d, {int64_t(kern::kFtzOps), n}), make_array(dp.d, {int64_t(kern::kFtzOps), n}));
  sync("ftz_ops");
  const auto w = dw.get(), p = dp.get();
  const char* names[] = {"add", "add_rz", "add_rm", "add_rp", "sub", "sub_rz", "sub_rm", "sub_rp",
                         "mul", "mul_rz", "mul_rm", "mul_rp", "div", "div_rz", "div_rm", "div_rp",
                         "sqrt_rz", "sqrt_rp", "minimum", "maximum", "minimum_nan", "maximum_nan"};
  int flushed = 0;
  for (int k = 0; k < kern::kFtzOps; ++k) {
    int bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      const float got = w[k * n + i], want = flush(p[k * n + i]);
      flushed += want != p[k * n + i];
      bad += std::memcmp(&got, &want, sizeof got) != 0;
    }
    check(std::string("f32 ") + names[k] + "_ftz", bad == 0, std::to_string(bad) + " mismatches");
  }
  check("ftz inputs reach subnormal results", flushed > 1000, std::to_string(flushed) + " flushed results");
}

// x (a float) rounded to the nearest f16, ties away from zero, worked out from the two f16
// neighbours that the host's directed conversions give; past 65504 the one above is 65536, and
// a value that rounds to it overflows to infinity.
double nearest_away_f16(double x) {
  const double m = std::fabs(x);
  const double lo = __half2float(__float2half_rd(float(m)));
  double hi = __half2float(__float2half_ru(float(m)));
  if (std::isinf(hi)) hi = 65536.0;
  const double r = (m - lo < hi - m) ? lo : hi;  // a tie takes the larger magnitude
  return std::copysign(r == 65536.0 ? INFINITY : r, x);
}

// Values over the whole range of f16 and beyond it (overflow, subnormals), both signs.
void test_astype_directed() {
  const int64_t n = 4096;
  HVec<double> d(n);
  HVec<__nv_bfloat16> b(n);
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  for (int64_t i = 0; i < n; ++i) {
    const double sign = rng() % 2 ? -1.0 : 1.0;
    d[i] = sign * std::ldexp(unit(rng), int(rng() % 50) - 30);  // 2^-30 .. 2^20: f16 subnormals to overflow
    b[i] = __float2bfloat16_rn(float(sign * std::ldexp(unit(rng), int(rng() % 50) - 30)));
    // Ties for RA: odd multiples of half the smallest f16 subnormal, and values past the largest f16.
    if (i % 16 == 5) b[i] = __float2bfloat16_rn(float(sign * std::ldexp(double(2 * (rng() % 64) + 1), -25)));
    if (i % 64 == 9) b[i] = __float2bfloat16_rn(float(sign * (rng() % 2 ? 65536.0 : 65280.0)));
  }
  Buf<double> dd(d);
  Buf<__nv_bfloat16> db(b);
  Buf<float> d32(kern::kAstypeOps * n);
  Buf<__half> d16(kern::kAstypeOps * n);
  Buf<__nv_bfloat16> dbf(kern::kAstypeOps * n);
  kern::astype_directed<<<tile2cu::ceil_div(n, 512), kern::kThreads>>>(
      make_array(dd.d, {n}), make_array(db.d, {n}), make_array(d32.d, {int64_t(kern::kAstypeOps), n}),
      make_array(d16.d, {int64_t(kern::kAstypeOps), n}), make_array(dbf.d, {int64_t(kern::kAstypeOps), n}));
  sync("astype_directed");
  const auto o32 = d32.get();
  const auto o16 = d16.get();
  const auto obf = dbf.get();
  // (name, output dtype: 0 f32 / 1 f16 / 2 bf16, source: 0 f64 / 1 f32 / 2 bf16, direction)
  struct Case { const char* name; int out, src; char mode; };
  const Case cases[kern::kAstypeOps] = {
      {"f64->f32 rz", 0, 0, 'z'}, {"f64->f32 rm", 0, 0, 'm'}, {"f64->f32 rp", 0, 0, 'p'},
      {"f64->f16 rz", 1, 0, 'z'}, {"f64->bf16 rz", 2, 0, 'z'}, {"f32->f16 rz", 1, 1, 'z'},
      {"f32->f16 rm", 1, 1, 'm'}, {"f32->f16 rp", 1, 1, 'p'}, {"f32->bf16 rz", 2, 1, 'z'},
      {"bf16->f16 rm", 1, 2, 'm'}, {"bf16->f16 rp", 1, 2, 'p'}, {"bf16->f16 rz", 1, 2, 'z'},
      {"bf16->f16 ra", 1, 2, 'a'}};
  for (int k = 0; k < kern::kAstypeOps; ++k) {
    const Case& c = cases[k];
    int bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double x = c.src == 0 ? d[i] : c.src == 1 ? double(float(d[i])) : double(__bfloat162float(b[i]));
      const double got = c.out == 0 ? double(o32[k * n + i]) : c.out == 1 ? double(__half2float(o16[k * n + i]))
                                                                          : double(__bfloat162float(obf[k * n + i]));
      const double want = c.mode == 'a' ? nearest_away_f16(x)
                        : c.out == 0 ? double(round_directed<float>(x, c.mode))
                        : c.out == 1 ? double(__half2float(round_directed<__half>(x, c.mode)))
                                     : double(__bfloat162float(round_directed<__nv_bfloat16>(x, c.mode)));
      bad += !(got == want || (std::isnan(got) && std::isnan(want)));
    }
    check(std::string("astype ") + c.name, bad == 0, std::to_string(bad) + " mismatches");
  }
}

void test_copy2d() {
  const int64_t M = 100, N = 150;
  HVec<float> x(M * N);
  for (auto& v : x) v = float(rng() % 1000);
  Buf<float> dx(x), dout(M * N), dt1(M * N), dt2(M * N);
  // identity, int64 index type
  kern::copy2d<0, int64_t><<<dim3(tile2cu::ceil_div(M, 32), tile2cu::ceil_div(N, 64)), kern::kThreads>>>(
      make_array<int64_t>(dx.d, {M, N}), make_array<int64_t>(dout.d, {M, N}));
  // transposing load: tile (32, 64) covers array axis 1 (32) x axis 0 (64)
  kern::copy2d<1, int32_t><<<dim3(tile2cu::ceil_div(N, 32), tile2cu::ceil_div(M, 64)), kern::kThreads>>>(
      make_array(dx.d, {M, N}), make_array(dt1.d, {N, M}));
  // transposing store
  kern::copy2d<2, int32_t><<<dim3(tile2cu::ceil_div(M, 32), tile2cu::ceil_div(N, 64)), kern::kThreads>>>(
      make_array(dx.d, {M, N}), make_array(dt2.d, {N, M}));
  sync("copy2d");
  const auto out = dout.get(), t1 = dt1.get(), t2 = dt2.get();
  expect("copy2d identity int64-index", out.data(), M * N, [&](size_t i) { return x[i]; });
  auto xt = [&](size_t i) { return x[(i % M) * N + i / M]; };  // x^T, shape (N, M)
  expect("copy2d load Order<1,0>", t1.data(), M * N, xt);
  expect("copy2d store Order<1,0>", t2.data(), M * N, xt);
  // Nothing written past the arrays.
  const auto tail = dout.get(256 / sizeof(float));
  bool clean = true;
  for (size_t i = M * N; i < tail.size(); ++i) clean = clean && tail[i] == 0;
  check("copy2d no write past end", clean);
}

template <class T, tile2cu::PaddingMode Pad, class Ord>
void test_padding(const char* name, double pad_value) {
  const int64_t M = 45, N = 70;  // tiles 32 x 64
  const bool transposed = !std::is_same_v<Ord, tile2cu::Order<>>;
  HVec<T> x(M * N);
  for (auto& v : x) v = narrow<T>(W<T>(rng() % 100 + 1));
  const int64_t TM = transposed ? N : M, TN = transposed ? M : N;  // tile space extents
  const int64_t gi = tile2cu::ceil_div(TM, 32), gj = tile2cu::ceil_div(TN, 64);
  const int64_t PM = gi * 32, PN = gj * 64;
  Buf<T> dx(x), dout(PM * PN);
  kern::pad_copy<T, Pad, Ord><<<dim3(gi, gj), kern::kThreads>>>(make_array(dx.d, {M, N}),
                                                                make_array(dout.d, {PM, PN}));
  sync("pad_copy");
  const auto out = dout.get();
  int bad = 0;
  for (int64_t p = 0; p < PM; ++p)
    for (int64_t q = 0; q < PN; ++q) {
      const int64_t r = transposed ? q : p, c = transposed ? p : q;  // array position
      const double got = double(wide(out[p * PN + q]));
      if (r < M && c < N) {
        bad += got != double(wide(x[r * N + c]));
      } else {
        const bool ok = std::isnan(pad_value) ? std::isnan(got)
                                              : got == pad_value && std::signbit(got) == std::signbit(pad_value);
        bad += !ok;
      }
    }
  check(std::string("padding ") + name, bad == 0, std::to_string(bad) + " mismatches");
}

template <class T>
void test_copy3d(bool strided) {
  const int64_t D0 = 3, D1 = 5, D2 = 9;
  // Strided: the source lives inside a (3, 6, 20) buffer, last-axis stride 2 -> no vector loads.
  const int64_t S0 = strided ? 6 * 20 : D1 * D2, S1 = strided ? 20 : D2, S2 = strided ? 2 : 1;
  HVec<T> x(D0 * S0);
  for (auto& v : x) v = T(rng() % 100);
  Buf<T> dx(x), dout(D0 * D1 * D2);
  kern::copy3d<T><<<dim3(2, 2, 2), kern::kThreads>>>(make_array(dx.d, {D0, D1, D2}, {S0, S1, S2}),
                                                     make_array(dout.d, {D0, D1, D2}));
  sync("copy3d");
  const auto out = dout.get();
  expect(std::string("copy3d ") + type_name<T>() + (strided ? " strided" : " contiguous"), out.data(),
         D0 * D1 * D2, [&](size_t i) {
           const int64_t a = i / (D1 * D2), b = i / D2 % D1, c = i % D2;
           return T(x[a * S0 + b * S1 + c * S2] + 1);
         });
}

void test_broadcast() {
  const int64_t M = 96;
  HVec<float> x(M * 64), r(64), c(M), s = {0.5f};
  for (auto& v : x) v = float(rng() % 100);
  for (auto& v : r) v = float(rng() % 100) * 1000;
  for (auto& v : c) v = float(rng() % 100) * 10000;
  Buf<float> dx(x), dr(r), dc(c), ds(s), dout(M * 64);
  kern::broadcast_test<<<M / 32, kern::kThreads>>>(make_array(dx.d, {M, 64}), make_array(dr.d, {1, 64}),
                                                   make_array(dc.d, {M, 1}), make_array(ds.d, {1, 1}),
                                                   make_array(dout.d, {M, 64}));
  sync("broadcast");
  const auto out = dout.get();
  expect("broadcast_to row/col/scalar", out.data(), M * 64, [&](size_t i) {
    return x[i] + r[i % 64] + c[i / 64] - s[0];
  });
}

void test_reshape_arange() {
  HVec<float> x(64);
  for (auto& v : x) v = float(rng() % 1000);
  Buf<float> dx(x), drow(64), dsq(64), dv1(64), daf(64);
  Buf<int32_t> dai(64);
  kern::reshape_test<<<1, kern::kThreads>>>(make_array(dx.d, {64}), make_array(drow.d, {1, 64}),
                                            make_array(dsq.d, {8, 8}), make_array(dv1.d, {64}),
                                            make_array(dai.d, {64}), make_array(daf.d, {64}));
  sync("reshape");
  const auto row = drow.get(), sq = dsq.get(), v1 = dv1.get(), af = daf.get();
  const auto ai = dai.get();
  expect("reshape (64,)->(1,64) registers", row.data(), 64, [&](size_t i) { return x[i]; });
  expect("reshape (64,)->(8,8) smem", sq.data(), 64, [&](size_t i) { return x[i]; });
  expect("reshape (64,) vec4->vec1 smem", v1.data(), 64, [&](size_t i) { return x[i]; });
  expect("arange int32", ai.data(), 64, [&](size_t i) { return int32_t(i); });
  expect("arange float 5,-3", af.data(), 64, [&](size_t i) { return float(5 - 3 * int64_t(i)); });
}

void test_casts() {
  const int64_t n = 600;
  HVec<float> f(n);
  HVec<double> d(n);
  HVec<int64_t> i64(n);
  HVec<uint8_t> u8(n);
  HVec<int32_t> i32(n);
  HVec<int8_t> i8(n);
  std::uniform_real_distribution<double> u(-100, 100);
  for (int64_t i = 0; i < n; ++i) {
    f[i] = float(u(rng));
    if (i % 10 == 0) f[i] = std::round(f[i]) + 0.5f;  // ties
    if (i % 13 == 0) f[i] = 0.0f;
    d[i] = u(rng) * 1e3;
    i64[i] = int64_t(rng() % 200000) - 100000;  // beyond f16 range sometimes -> inf
    u8[i] = uint8_t(rng() % 3 == 0 ? 0 : rng());
    i32[i] = int32_t(rng());
    i8[i] = int8_t(rng());
  }
  Buf<float> df(f), dout(kern::kCasts * n);
  Buf<double> dd(d);
  Buf<int64_t> di64(i64);
  Buf<uint8_t> du8(u8);
  Buf<int32_t> di32(i32);
  Buf<int8_t> di8(i8);
  Buf<uint32_t> dbits(n);
  kern::cast_test<<<tile2cu::ceil_div(n, 256), kern::kThreads>>>(
      make_array(df.d, {n}), make_array(dd.d, {n}), make_array(di64.d, {n}), make_array(du8.d, {n}),
      make_array(di32.d, {n}), make_array(di8.d, {n}), make_array(dout.d, {int64_t(kern::kCasts), n}),
      make_array(dbits.d, {n}));
  sync("casts");
  const auto out = dout.get();
  const auto bits = dbits.get();
  auto row = [&](int k) { return out.data() + k * n; };
  auto h = [](float v) { return __half2float(__float2half_rn(v)); };
  auto bf = [](float v) { return __bfloat162float(__float2bfloat16_rn(v)); };
  expect("cast f32->f16->f32", row(0), n, [&](size_t i) { return h(f[i]); });
  expect("cast f32->bf16->f32", row(1), n, [&](size_t i) { return bf(f[i]); });
  expect("cast f32->i32->f32", row(2), n, [&](size_t i) { return float(int32_t(std::trunc(f[i]))); });
  expect("cast f32->f16->i8->f32", row(3), n, [&](size_t i) { return float(int8_t(std::trunc(h(f[i])))); });
  expect("cast f64->bf16->i32->f32", row(4), n,
         [&](size_t i) { return float(int32_t(std::trunc(__bfloat162float(__double2bfloat16(d[i]))))); });
  expect("cast i64->f16->f32", row(5), n,
         [&](size_t i) { return __half2float(__double2half(double(i64[i]))); });  // exact in double
  expect("cast u8->bool->f32", row(6), n, [&](size_t i) { return u8[i] != 0 ? 1.0f : 0.0f; });
  expect("cast f32->bool->i32->f32", row(7), n, [&](size_t i) { return f[i] != 0 ? 1.0f : 0.0f; });
  expect("cast i32->bf16->f32", row(8), n,
         [&](size_t i) { return __bfloat162float(__double2bfloat16(double(i32[i]))); });
  expect("cast i8->u8->i32->f32", row(9), n, [&](size_t i) { return float(uint8_t(i8[i])); });
  expect("cast f64->f16->f32", row(10), n, [&](size_t i) { return __half2float(__double2half(d[i])); });
  expect("bitcast f32->u32", bits.data(), n, [&](size_t i) {
    uint32_t b;
    std::memcpy(&b, &f[i], 4);
    return b;
  });
}

void test_scalars() {
  HVec<float> x(4 * 5);
  for (auto& v : x) v = float(rng() % 100) + 0.25f;
  Buf<float> dx(x), dout(16), dsmall(64), dseen(kern::kThreads);
  Buf<int32_t> diout(8);
  kern::scalar_test<<<1, kern::kThreads>>>(make_array(dx.d, {4, 5}), make_array(dout.d, {8}),
                                          make_array(diout.d, {8}), make_array(dsmall.d, {4, 4}),
                                          make_array(dseen.d, {int64_t(kern::kThreads)}));
  sync("scalars");
  const auto out = dout.get(), small = dsmall.get(), seen = dseen.get();
  const auto iout = diout.get();
  const float v = x[1 * 5 + 2];
  const float want[] = {v, 0.0f, -INFINITY, std::floor(v / 2), 2.0f, -0.5f, 1.0f, 3.0f};
  expect("scalar load/store/python ops", out.data(), 8, [&](size_t i) { return want[i]; });
  check("scalar store out of bounds dropped", out[8] == 0 && out[15] == 0);
  const int32_t iwant[] = {2, -4, 4, -3, -56, 2};
  expect("scalar int python ops", iout.data(), 6, [&](size_t i) { return iwant[i]; });
  bool small_ok = true;
  for (int i = 0; i < 64; ++i) small_ok = small_ok && small[i] == (i == 1 * 4 + 1 ? 42.0f : 0.0f);
  check("store_scalar bounds", small_ok);
  expect("load_scalar in every thread", seen.data(), kern::kThreads, [&](size_t) { return v; });
}

// Row 0: random floats; row 1: +0 and -0 only (max(+0, -0) must come out the same everywhere);
// row 2: one NaN among random floats.
void test_reduce_all() {
  constexpr int kRows = 3, kCols = 8192, kT = kern::kWideThreads;
  HVec<float> x(kRows * kCols);
  HVec<int32_t> xi(kRows * kCols);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = i / kCols == 1 ? (rng() % 2 ? 0.0f : -0.0f) : float(int64_t(rng() % 2000001) - 1000000) * 1e-3f;
    xi[i] = int32_t(rng() % 2001) - 1000;
  }
  x[2 * kCols + 4321] = NAN;
  Buf<float> dx(x), dout(kRows * 2 * kT);
  Buf<int32_t> dxi(xi), diout(kRows);
  kern::reduce_all_test<<<kRows, kT>>>(make_array(dx.d, {kRows, kCols}), make_array(dxi.d, {kRows, kCols}),
                                       make_array(dout.d, {kRows, 2 * kT}), make_array(diout.d, {kRows}));
  sync("reduce_all");
  const auto out = dout.get();
  const auto iout = diout.get();
  auto bits = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
  for (int r = 0; r < kRows; ++r) {
    const float* sums = &out[size_t(r) * 2 * kT];
    const float* maxes = sums + kT;
    bool same = true;
    for (int k = 0; k < kT; ++k)
      same = same && bits(sums[k]) == bits(sums[0]) && bits(maxes[k]) == bits(maxes[0]);
    check("reduce_all 512 threads: the same bits in every thread, row " + std::to_string(r), same);
    double want_sum = 0;
    float want_max = -INFINITY;
    int64_t want_isum = 0;
    for (int c = 0; c < kCols; ++c) {
      want_sum += x[size_t(r) * kCols + c];
      want_max = std::max(want_max, x[size_t(r) * kCols + c]);
      want_isum += xi[size_t(r) * kCols + c];
    }
    if (r == 0) {
      check("reduce_all 512 threads: sum", std::fabs(sums[0] - want_sum) <= 1e-4 * (std::fabs(want_sum) + 8192),
            std::to_string(sums[0]) + " vs " + std::to_string(want_sum));
      check("reduce_all 512 threads: max", maxes[0] == want_max);
    } else if (r == 1) {
      check("reduce_all 512 threads: sum and max of zeros", sums[0] == 0.0f && maxes[0] == 0.0f);
    } else {
      check("reduce_all 512 threads: a NaN reaches the sum", std::isnan(sums[0]));
    }
    check("reduce_all 512 threads: int32 sum, row " + std::to_string(r), iout[r] == int32_t(want_isum));
  }
}

int main() {
  int dev_count = 0;
  if (cudaGetDeviceCount(&dev_count) != cudaSuccess || dev_count == 0) {
    std::printf("no CUDA device\n");
    return 2;
  }
  test_vector_add<float, 4>(5000, 0);
  test_vector_add<float, 4>(4096, 0);
  test_vector_add<float, 4>(5001, 0);  // a run straddles the end
  test_vector_add<float, 4>(5000, 1);  // misaligned: element-wise fallback
  test_vector_add<double, 4>(3000, 0);
  test_vector_add<__half, 8>(3000, 0);
  test_vector_add<__half, 8>(3000, 3);
  test_vector_add<__half, 8>(3003, 0);
  test_vector_add<float, 1>(3000, 0);

  test_int_ops<int8_t>();
  test_int_ops<int16_t>();
  test_int_ops<int32_t>();
  test_int_ops<int64_t>();
  test_int_ops<uint8_t>();
  test_int_ops<uint16_t>();
  test_int_ops<uint32_t>();
  test_int_ops<uint64_t>();

  test_float_ops<float>();
  test_float_ops<double>();
  test_float_ops<__half>();
  test_float_ops<__nv_bfloat16>();
  test_bool_ops();

  test_math<float>();
  test_math<double>();
  test_math<__half>();
  test_math<__nv_bfloat16>();

  test_ftz_ops();
  test_astype_directed();
  test_copy2d();
  using tile2cu::Order;
  using tile2cu::PaddingMode;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  test_padding<float, PaddingMode::Zero, Order<>>("f32 zero", 0.0);
  test_padding<float, PaddingMode::NegZero, Order<>>("f32 neg_zero", -0.0);
  test_padding<float, PaddingMode::Nan, Order<>>("f32 nan", nan);
  test_padding<float, PaddingMode::PosInf, Order<>>("f32 pos_inf", inf);
  test_padding<float, PaddingMode::NegInf, Order<1, 0>>("f32 neg_inf Order<1,0>", -inf);
  test_padding<__half, PaddingMode::NegInf, Order<>>("f16 neg_inf", -inf);
  test_padding<__nv_bfloat16, PaddingMode::Nan, Order<>>("bf16 nan", nan);
  test_padding<int32_t, PaddingMode::Zero, Order<1, 0>>("i32 zero Order<1,0>", 0.0);
  test_padding<uint8_t, PaddingMode::Zero, Order<>>("u8 zero", 0.0);
  test_copy3d<float>(false);
  test_copy3d<float>(true);
  test_copy3d<int16_t>(false);
  test_broadcast();
  test_reshape_arange();
  test_casts();
  test_scalars();
  test_reduce_all();
  test_fixed_tile(1024, 0);
  test_fixed_tile(1000, 0);
  test_fixed_tile(1024, 1);
  test_fixed_tile(2048, 0);

  std::printf("%d passed, %d failed\n", g_passed, g_failed);
  return g_failed == 0 ? 0 : 1;
}
