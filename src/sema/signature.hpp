// A kernel signature: what one specialization knows of each parameter at launch, modelled on
// cuTile's KernelSignature / ParameterConstraint. Text form (command line and sidecar files):
//
//   [spec_name =] kernel(param=constraint, ...)      or, with --kernel given:  param=constraint, ...
//
//   array     dtype[d0, d1, ...] [strides(s0, s1, ...)] [align16] [contiguous]
//             each d is ? (dynamic) or a positive integer; each s ? or an integer >= 0 (a
//             static stride, in elements: cuTile's ArrayAnnotation(static_stride_dims=...))
//   scalar    dtype                                        float32, int32, bool, ...
//   constant  a literal: 1024, -3, 0.5, True, (64, 128)
//   list      list[<array>]                                a list of arrays of one dtype and rank
//   tuple     (<constraint>, ...)                          arrays, scalars, lists, constants, tuples
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/dtype.hpp"

namespace tile2cu {

struct ConstantLiteral {
  std::variant<__int128, double, bool, std::vector<ConstantLiteral>> value;
};

struct ArrayConstraint {
  DType dtype;
  std::vector<std::optional<int64_t>> dims;  // rank = dims.size()
  bool aligned16 = false;
  bool contiguous = false;
  std::vector<std::optional<int64_t>> strides;  // empty, or one per dim: static strides
};
struct ScalarConstraint { DType dtype; };
// A list of arrays (cuTile's ListAnnotation): every item has the element's dtype, rank and facts;
// the kernel picks one with a run-time index. Written `list[float32[?, ?]]`.
struct ListConstraint { ArrayConstraint element; };
struct ConstantConstraint { ConstantLiteral value; };
struct ParameterConstraint;
// A tuple parameter (cuTile 1.5 and later) holding arrays or scalars, written (float32[?], int32);
// its items are unnamed. The generated kernel takes each leaf as a parameter of its own. A tuple
// of constants only is a ConstantConstraint.
struct TupleConstraint { std::vector<ParameterConstraint> items; };

struct ParameterConstraint {
  std::string name;  // empty: positional
  std::variant<ArrayConstraint, ScalarConstraint, ConstantConstraint, ListConstraint, TupleConstraint> constraint;
};
using Constraint = decltype(ParameterConstraint::constraint);

struct KernelSignature {
  std::string spec_name;  // empty: derived from the kernel and the constraints
  std::string kernel;     // empty: taken from --kernel
  std::vector<ParameterConstraint> params;
  std::string text;       // as written, for messages
};

// Throws CompileError(ErrorKind::Signature) with a caret into `text` on malformed input.
KernelSignature parse_signature(std::string_view text, const std::string& origin);

// A sidecar file: one signature per line, '#' starts a comment.
std::vector<KernelSignature> parse_signature_file(std::string_view contents,
                                                  const std::string& path);

// tile2cu's cap on the signatures of one transpile: each specialization is lowered, kept in
// memory and emitted, and the file's lowering budget is shared by all of them.
inline constexpr size_t kMaxSignatures = 1000;
// The error for a signature past kMaxSignatures, at its first column.
[[noreturn]] void refuse_signature_past_limit(std::string_view text, const std::string& origin);

std::string constant_literal_string(const ConstantLiteral& c);
std::string constraint_string(const ParameterConstraint& p);

}  // namespace tile2cu
