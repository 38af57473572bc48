// tile2cu/array_list.cuh: lists of arrays as kernel arguments (cuTile's `list` parameters).
//
// cuTile passes a list as a pointer to packed 64-bit words plus an int32 length: per item the
// data pointer, then its shapes, then its strides (1 + 2 * Rank words). The kernel reads the
// item it indexes from that table in global memory; the launcher builds the tables of all its
// list arguments on the host, back to back (pack_array_list, host.hpp), and copies them to the
// device in one go for the launch (DeviceTable).
#pragma once

#if !defined(__CUDACC_RTC__)  // DeviceTable is the launcher's (host code)
#include <cuda_runtime.h>

#include <vector>
#endif

#include "array.cuh"
#include "types.cuh"

namespace tile2cu {

template <class T, int Rank, class Index = int32_t>
struct ArrayList {
  static constexpr int kWordsPerItem = 1 + 2 * Rank;
  const int64_t* table;
  int32_t size;

  // Item i (0 <= i < size; an index outside that range is undefined behaviour, as in cuTile).
  TILE2CU_DEVICE Array<T, Rank, Index> operator[](int32_t i) const {
    const int64_t* words = table + int64_t(i) * kWordsPerItem;
    Array<T, Rank, Index> a;
    a.data = reinterpret_cast<T*>(words[0]);
#pragma unroll
    for (int k = 0; k < Rank; ++k) {
      a.shape[k] = static_cast<Index>(words[1 + k]);
      a.stride[k] = static_cast<Index>(words[1 + Rank + k]);
    }
    return a;
  }
};

#if !defined(__CUDACC_RTC__)
// The packed table in device memory for one launch: allocated and filled in stream order, and
// freed in stream order (after the kernel) when the launcher returns.
class DeviceTable {
 public:
  DeviceTable() = default;
  DeviceTable(const DeviceTable&) = delete;
  DeviceTable& operator=(const DeviceTable&) = delete;
  ~DeviceTable() {
    if (data_) cudaFreeAsync(data_, stream_);
  }

  // The copy is from pageable memory, so `words` may go away as soon as this returns.
  cudaError_t upload(const std::vector<int64_t>& words, cudaStream_t stream) {
    stream_ = stream;
    if (words.empty()) return cudaSuccess;
    const size_t bytes = words.size() * sizeof(int64_t);
    void* p = nullptr;
    if (cudaError_t e = cudaMallocAsync(&p, bytes, stream)) return e;
    data_ = static_cast<int64_t*>(p);
    return cudaMemcpyAsync(data_, words.data(), bytes, cudaMemcpyHostToDevice, stream);
  }
  const int64_t* data() const { return data_; }

 private:
  int64_t* data_ = nullptr;
  cudaStream_t stream_ = nullptr;
};
#endif  // !__CUDACC_RTC__

}  // namespace tile2cu
