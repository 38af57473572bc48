// Element types of tiles and arrays, and cuTile's promotion rules (spec b.4-b.6).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tile2cu {

enum class DType {
  Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
  Float16, BFloat16, Float32, Float64,
  // Restricted floats (spec b.4): loaded, stored, converted and fed to mma; no arithmetic.
  TFloat32, Float8E4M3FN, Float8E5M2,
  // Unsigned, exponent only (powers of two, 0xFF is NaN): mma_scaled's scale factors.
  Float8E8M0FNU,
};

enum class DTypeCategory { Boolean, Integer, Float, Restricted };

const char* dtype_name(DType t);         // "float32"
const char* dtype_short_name(DType t);   // "f32"
const char* dtype_cpp_name(DType t);     // "float", "__nv_bfloat16", "int8_t"
int dtype_bits(DType t);
inline int dtype_bytes(DType t) { return dtype_bits(t) == 1 ? 1 : dtype_bits(t) / 8; }
DTypeCategory dtype_category(DType t);
inline bool is_float(DType t) { return dtype_category(t) == DTypeCategory::Float; }
inline bool is_integer(DType t) { return dtype_category(t) == DTypeCategory::Integer; }
bool is_signed_integer(DType t);
inline bool is_restricted(DType t) { return dtype_category(t) == DTypeCategory::Restricted; }
bool is_unsigned_integer(DType t);

// Accepts cuTile names and the foreign spellings kernels use (np.float32, torch.int32's
// attribute part "int32", "bool_", "half", short forms such as "f32" and "bf16").
std::optional<DType> parse_dtype(std::string_view name);

// The promotion table of spec b.5 for two typed operands; nullopt where cuTile refuses.
std::optional<DType> promote(DType a, DType b);

// Whether a value of `from` may be written into `to` without an explicit astype (spec b.6).
inline bool implicitly_castable(DType from, DType to) { return promote(from, to) == to; }

// Range of an integer dtype, for checking loosely typed literals.
bool integer_fits(DType t, __int128 value);

}  // namespace tile2cu
