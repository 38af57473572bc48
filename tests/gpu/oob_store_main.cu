// Host side of the compute-sanitizer demonstration (sanitizer_demo.sh): launches oob_copy with a
// view of y that claims more elements than were allocated.
#include <cstdio>

#include "oob_store.cuh"

int main() {
  const int64_t allocated = 1000, claimed = 1024;  // one 1024-element tile
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, claimed * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&y, allocated * sizeof(float)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 2;
  }
  cudaMemset(x, 0, claimed * sizeof(float));
  cudaError_t launched = launch_oob_copy_f32(nullptr, dim3(1), {x, {claimed}}, {y, {claimed}});
  cudaError_t finished = cudaDeviceSynchronize();
  std::printf("launch: %s, synchronize: %s\n", cudaGetErrorString(launched), cudaGetErrorString(finished));
  cudaFree(x);
  cudaFree(y);
  return 0;
}
