// Building generated code with nvcc inside a unit test, where nvcc is installed (compile only:
// no GPU needed). Tests call GTEST_SKIP when it is not, or when TILE2CU_TEST_NO_NVCC is set to
// anything but 0 (scripts/sanitize.sh: the sanitizers instrument tile2cu, not nvcc, and the
// normal test run builds the same code).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace tile2cu::testing {

inline const std::string kNvcc = "/usr/local/cuda/bin/nvcc";

inline bool have_nvcc() {
  const char* off = std::getenv("TILE2CU_TEST_NO_NVCC");
  if (off != nullptr && *off != '\0' && std::string(off) != "0") return false;
  return std::ifstream(kNvcc).good();
}

// Writes the .cu and its header (`header_name`, as the .cu includes it) to a folder of this test
// alone (ctest runs tests in parallel) and compiles the .cu for `arch`: nvcc's exit status, 0
// when it built.
inline int nvcc_compile(const std::string& cu, const std::string& cuh, const std::string& header_name,
                        const std::string& arch = "sm_80") {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / (std::string(test->test_suite_name()) + "." + test->name());
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "kernel.cu") << cu;
  std::ofstream(dir / header_name) << cuh;
  const std::string cmd = kNvcc + " -std=c++17 -O3 -I " + TILE2CU_RUNTIME_DIR + " -arch=" + arch + " -c " +
                          (dir / "kernel.cu").string() + " -o " + (dir / "kernel.o").string();
  return std::system(cmd.c_str());
}

}  // namespace tile2cu::testing
