// The three fuzz targets of tile2cu, as plain functions, so that the same code runs under
// libFuzzer (fuzz_*.cpp, clang only) and in the ordinary test build (replay.cpp).
//
// Input: the bytes of a Python file. Leading comment lines may steer the later stages,
// exactly as in tests/bad_inputs/:
//
//   # sig: a=float32[?], TILE=16        a signature (repeatable; "name = kernel(...)" too)
//   # kernel: k                         which kernel the signatures refer to
//   # line-directives                   (pipeline only) emit #line directives
//
// Without a `# sig:` line the targets derive a few generic signatures for every kernel
// from its parameter list (Constant-annotated or upper-case parameters get constants,
// the others arrays or scalars of several dtypes and ranks).
//
// Every target returns normally for any input that tile2cu rejects with a CompileError.
// Anything else (a crash, a sanitizer report, an exception that is not a CompileError,
// i.e. tile2cu's "internal error") aborts, which libFuzzer records as a finding.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tile2cu::fuzz {

// parse_module + print_ast (+ render_diagnostic on errors).
void frontend(const uint8_t* data, size_t size);
// parse_module + evaluate_module + specialize (+ ir::verify, ir::print_module).
void sema(const uint8_t* data, size_t size);
// tile2cu::transpile, the whole pipeline to .cu/.cuh text.
void pipeline(const uint8_t* data, size_t size);

}  // namespace tile2cu::fuzz
