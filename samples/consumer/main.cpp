// Calls two transpiled cuTile kernels through their typed launchers and checks the results.
// Without a GPU it says so and exits 0 (CI builds it but cannot run it).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "row_bias_scale.cuh"  // launch_rbs_f32
#include "vector_add.cuh"      // launch_vector_add_f32, ..._f16, ..._i32_t256, launch_vector_add

#define CHECK(call)                                                                    \
  do {                                                                                 \
    cudaError_t err_ = (call);                                                         \
    if (err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,               \
                   cudaGetErrorString(err_));                                          \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

template <class T>
T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  if (cudaMalloc(&p, host.size() * sizeof(T)) != cudaSuccess) return nullptr;
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

// c = a + b on a ragged length (not a multiple of the 1024-element tile).
int check_vector_add() {
  const int64_t n = 1000003;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.5f * float(i % 1000);
    b[i] = 1.0f - float(i % 7);
  }
  float* da = to_device(a);
  float* db = to_device(b);
  float* dc = to_device(c);
  if (!da || !db || !dc) return 1;
  // One block per tile: grid = ceil(n / TILE). Views are (pointer, shape), contiguous.
  dim3 grid(unsigned(tile2cu::ceil_div(n, 1024)));
  CHECK(launch_vector_add_f32(nullptr, grid, {da, {n}}, {db, {n}}, {dc, {n}}));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i < n; ++i) {
    if (c[i] != a[i] + b[i]) {
      std::fprintf(stderr, "vector_add: c[%lld] = %g, want %g\n", (long long)i, c[i], a[i] + b[i]);
      return 1;
    }
  }
  // The launcher refuses arguments that break the specialization instead of launching.
  tile2cu::ArrayView<const float, 1> too_big(da, {int64_t(1) << 40});
  if (launch_vector_add_f32(nullptr, grid, too_big, {db, {n}}, {dc, {n}}) != cudaErrorInvalidValue) {
    std::fprintf(stderr, "vector_add: an oversized view was not rejected\n");
    return 1;
  }
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("vector_add_f32: %lld elements ok\n", (long long)n);
  return 0;
}

// y = x * scale + bias[None, :] on a 100 x 300 matrix (ragged in both tile dims).
int check_row_bias_scale() {
  const int64_t m = 100, n = 300;
  const float scale = 0.25f;
  std::vector<float> x(m * n), bias(n), y(m * n, -1.0f);
  for (int64_t i = 0; i < m * n; ++i) x[i] = float(i % 97) - 40.0f;
  for (int64_t j = 0; j < n; ++j) bias[j] = 0.125f * float(j);
  float* dx = to_device(x);
  float* dbias = to_device(bias);
  float* dy = to_device(y);
  if (!dx || !dbias || !dy) return 1;
  dim3 grid(unsigned(tile2cu::ceil_div(m, 32)), unsigned(tile2cu::ceil_div(n, 128)));
  CHECK(launch_rbs_f32(nullptr, grid, {dx, {m, n}}, {dbias, {n}}, {dy, {m, n}}, scale));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(y.data(), dy, m * n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float want = x[i * n + j] * scale + bias[j];
      if (std::fabs(y[i * n + j] - want) > 1e-5f * std::fabs(want) + 1e-6f) {
        std::fprintf(stderr, "row_bias_scale: y[%lld, %lld] = %g, want %g\n", (long long)i, (long long)j,
                     y[i * n + j], want);
        return 1;
      }
    }
  cudaFree(dx);
  cudaFree(dbias);
  cudaFree(dy);
  std::printf("rbs_f32: %lld x %lld ok\n", (long long)m, (long long)n);
  return 0;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no GPU: skipped\n");
    return 0;
  }
  if (check_vector_add() != 0 || check_row_bias_scale() != 0) return 1;
  std::printf("all ok\n");
  return 0;
}
