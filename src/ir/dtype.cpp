#include "ir/dtype.hpp"

#include <array>
#include <utility>

namespace tile2cu {

namespace {

struct DTypeInfo {
  DType type;
  const char* name;
  const char* short_name;
  const char* cpp_name;
  int bits;
  DTypeCategory category;
};

constexpr std::array<DTypeInfo, 17> kInfo = {{
    {DType::Bool, "bool_", "b1", "bool", 1, DTypeCategory::Boolean},
    {DType::Int8, "int8", "i8", "int8_t", 8, DTypeCategory::Integer},
    {DType::Int16, "int16", "i16", "int16_t", 16, DTypeCategory::Integer},
    {DType::Int32, "int32", "i32", "int32_t", 32, DTypeCategory::Integer},
    {DType::Int64, "int64", "i64", "int64_t", 64, DTypeCategory::Integer},
    {DType::UInt8, "uint8", "u8", "uint8_t", 8, DTypeCategory::Integer},
    {DType::UInt16, "uint16", "u16", "uint16_t", 16, DTypeCategory::Integer},
    {DType::UInt32, "uint32", "u32", "uint32_t", 32, DTypeCategory::Integer},
    {DType::UInt64, "uint64", "u64", "uint64_t", 64, DTypeCategory::Integer},
    {DType::Float16, "float16", "f16", "__half", 16, DTypeCategory::Float},
    {DType::BFloat16, "bfloat16", "bf16", "__nv_bfloat16", 16, DTypeCategory::Float},
    {DType::Float32, "float32", "f32", "float", 32, DTypeCategory::Float},
    {DType::Float64, "float64", "f64", "double", 64, DTypeCategory::Float},
    {DType::TFloat32, "tfloat32", "tf32", "tfloat32", 32, DTypeCategory::Restricted},
    {DType::Float8E4M3FN, "float8_e4m3fn", "f8e4m3", "__nv_fp8_e4m3", 8, DTypeCategory::Restricted},
    {DType::Float8E5M2, "float8_e5m2", "f8e5m2", "__nv_fp8_e5m2", 8, DTypeCategory::Restricted},
    {DType::Float8E8M0FNU, "float8_e8m0fnu", "f8e8m0fnu", "__nv_fp8_e8m0", 8, DTypeCategory::Restricted},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<size_t>(t)]; }

int rank_in_category(DType t) {
  switch (t) {
    case DType::Int8: case DType::UInt8: return 8;
    case DType::Int16: case DType::UInt16: return 16;
    case DType::Int32: case DType::UInt32: return 32;
    case DType::Int64: case DType::UInt64: return 64;
    default: return 0;
  }
}

}  // namespace

const char* dtype_name(DType t) { return info(t).name; }
const char* dtype_short_name(DType t) { return info(t).short_name; }
const char* dtype_cpp_name(DType t) { return info(t).cpp_name; }
int dtype_bits(DType t) { return info(t).bits; }
DTypeCategory dtype_category(DType t) { return info(t).category; }

bool is_signed_integer(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
}
bool is_unsigned_integer(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& i : kInfo)
    if (name == i.name || name == i.short_name) return i.type;
  static constexpr std::pair<std::string_view, DType> kAliases[] = {
      {"bool", DType::Bool}, {"half", DType::Float16}, {"float", DType::Float32},
      {"double", DType::Float64}, {"short", DType::Int16}, {"int", DType::Int32},
      {"long", DType::Int64}, {"b8", DType::Bool},
  };
  for (const auto& [alias, t] : kAliases)
    if (name == alias) return t;
  return std::nullopt;
}

std::optional<DType> promote(DType a, DType b) {
  if (a == b) return a;
  if (is_restricted(a) || is_restricted(b)) return std::nullopt;  // never promoted (spec b.4)
  auto ca = dtype_category(a), cb = dtype_category(b);
  if (ca == DTypeCategory::Boolean) return b;
  if (cb == DTypeCategory::Boolean) return a;
  if (ca == DTypeCategory::Float || cb == DTypeCategory::Float) {
    if (ca != cb) return ca == DTypeCategory::Float ? a : b;  // float beats any integer
    // Two floats: f16 and bf16 never mix; otherwise the wider one wins, and f32 absorbs
    // the 16-bit ones.
    bool half_pair = (a == DType::Float16 && b == DType::BFloat16) ||
                     (a == DType::BFloat16 && b == DType::Float16);
    if (half_pair) return std::nullopt;
    return dtype_bits(a) >= dtype_bits(b) ? a : b;
  }
  // Two integers: signed and unsigned never mix.
  if (is_signed_integer(a) != is_signed_integer(b)) return std::nullopt;
  return rank_in_category(a) >= rank_in_category(b) ? a : b;
}

bool integer_fits(DType t, __int128 v) {
  switch (t) {
    case DType::Bool: return v == 0 || v == 1;
    case DType::Int8: return v >= -128 && v <= 127;
    case DType::Int16: return v >= -32768 && v <= 32767;
    case DType::Int32: return v >= INT32_MIN && v <= INT32_MAX;
    case DType::Int64: return v >= INT64_MIN && v <= INT64_MAX;
    case DType::UInt8: return v >= 0 && v <= 0xFF;
    case DType::UInt16: return v >= 0 && v <= 0xFFFF;
    case DType::UInt32: return v >= 0 && v <= 0xFFFFFFFFll;
    case DType::UInt64: return v >= 0 && v <= static_cast<__int128>(UINT64_MAX);
    default: return true;  // floats take any integer (rounded)
  }
}

}  // namespace tile2cu
