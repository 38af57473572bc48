// libFuzzer entry point; built three times (fuzz_frontend, fuzz_sema, fuzz_pipeline) with
// TILE2CU_FUZZ_TARGET naming the function of fuzz_targets.hpp to call.
#include <cstddef>
#include <cstdint>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tile2cu::fuzz::TILE2CU_FUZZ_TARGET(data, size);
  return 0;
}
