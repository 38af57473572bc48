// Element types: the promotion table of spec b.5, implicit casts (b.6), integer ranges (b.3)
// and the dtype spellings kernels and signatures use (b.4).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "ir/dtype.hpp"

namespace tile2cu {
namespace {

constexpr std::array<DType, 13> kAll = {
    DType::Bool,   DType::Int8,    DType::Int16,    DType::Int32,   DType::Int64,
    DType::UInt8,  DType::UInt16,  DType::UInt32,   DType::UInt64,  DType::Float16,
    DType::BFloat16, DType::Float32, DType::Float64,
};

std::string name_of(std::optional<DType> t) { return t ? dtype_short_name(*t) : "-"; }

// ---- the promotion table ------------------------------------------------------------------

// Spec b.5, transcribed cell by cell in the spec's own row/column order. "-" = refused.
constexpr std::array<DType, 13> kTableOrder = {
    DType::Bool,  DType::UInt8, DType::UInt16, DType::UInt32,  DType::UInt64,
    DType::Int8,  DType::Int16, DType::Int32,  DType::Int64,   DType::Float16,
    DType::Float32, DType::Float64, DType::BFloat16,
};
// clang-format off
const char* const kTable[13][13] = {
    //  bool    u8     u16    u32    u64    i8     i16    i32    i64    f16    f32    f64    bf16
    {"b1",  "u8",  "u16", "u32", "u64", "i8",  "i16", "i32", "i64", "f16", "f32", "f64", "bf16"},  // bool
    {"u8",  "u8",  "u16", "u32", "u64", "-",   "-",   "-",   "-",   "f16", "f32", "f64", "bf16"},  // u8
    {"u16", "u16", "u16", "u32", "u64", "-",   "-",   "-",   "-",   "f16", "f32", "f64", "bf16"},  // u16
    {"u32", "u32", "u32", "u32", "u64", "-",   "-",   "-",   "-",   "f16", "f32", "f64", "bf16"},  // u32
    {"u64", "u64", "u64", "u64", "u64", "-",   "-",   "-",   "-",   "f16", "f32", "f64", "bf16"},  // u64
    {"i8",  "-",   "-",   "-",   "-",   "i8",  "i16", "i32", "i64", "f16", "f32", "f64", "bf16"},  // i8
    {"i16", "-",   "-",   "-",   "-",   "i16", "i16", "i32", "i64", "f16", "f32", "f64", "bf16"},  // i16
    {"i32", "-",   "-",   "-",   "-",   "i32", "i32", "i32", "i64", "f16", "f32", "f64", "bf16"},  // i32
    {"i64", "-",   "-",   "-",   "-",   "i64", "i64", "i64", "i64", "f16", "f32", "f64", "bf16"},  // i64
    {"f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f16", "f32", "f64", "-"},     // f16
    {"f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f32", "f64", "f32"},   // f32
    {"f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64", "f64"},   // f64
    {"bf16","bf16","bf16","bf16","bf16","bf16","bf16","bf16","bf16","-",   "f32", "f64", "bf16"},  // bf16
};
// clang-format on

TEST(DTypePromotion, FullTableOfSpecB5) {
  for (size_t r = 0; r < 13; ++r) {
    for (size_t c = 0; c < 13; ++c) {
      DType a = kTableOrder[r], b = kTableOrder[c];
      EXPECT_EQ(name_of(promote(a, b)), kTable[r][c])
          << "promote(" << dtype_name(a) << ", " << dtype_name(b) << ")";
    }
  }
}

TEST(DTypePromotion, IsSymmetric) {
  for (DType a : kAll)
    for (DType b : kAll)
      EXPECT_EQ(promote(a, b), promote(b, a)) << dtype_name(a) << " / " << dtype_name(b);
}

TEST(DTypePromotion, IsIdempotentOnTheDiagonal) {
  for (DType a : kAll) EXPECT_EQ(promote(a, a), a) << dtype_name(a);
}

TEST(DTypePromotion, RefusedPairs) {
  // float16 and bfloat16 never mix.
  EXPECT_EQ(promote(DType::Float16, DType::BFloat16), std::nullopt);
  EXPECT_EQ(promote(DType::BFloat16, DType::Float16), std::nullopt);
  // Signed and unsigned integers never mix, whatever the widths.
  for (DType s : {DType::Int8, DType::Int16, DType::Int32, DType::Int64})
    for (DType u : {DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64}) {
      EXPECT_EQ(promote(s, u), std::nullopt) << dtype_name(s) << " / " << dtype_name(u);
      EXPECT_EQ(promote(u, s), std::nullopt) << dtype_name(u) << " / " << dtype_name(s);
    }
}

TEST(DTypePromotion, NotableConsequences) {
  // Any integer with float16 yields float16, even 64-bit ones.
  EXPECT_EQ(promote(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(promote(DType::UInt64, DType::Float16), DType::Float16);
  EXPECT_EQ(promote(DType::UInt64, DType::BFloat16), DType::BFloat16);
  // bf16 with a runtime float32 scalar is float32.
  EXPECT_EQ(promote(DType::BFloat16, DType::Float32), DType::Float32);
  // bool is the bottom of every category.
  EXPECT_EQ(promote(DType::Bool, DType::Int8), DType::Int8);
  EXPECT_EQ(promote(DType::Bool, DType::UInt64), DType::UInt64);
  EXPECT_EQ(promote(DType::Bool, DType::BFloat16), DType::BFloat16);
  // Float64 absorbs everything, including the 16-bit floats.
  for (DType t : kAll) EXPECT_EQ(promote(t, DType::Float64), DType::Float64) << dtype_name(t);
}

// ---- implicit casts (b.6): lossless per the table --------------------------------------------

TEST(DTypeImplicitCast, Examples) {
  // Storing float32 into float16 needs an explicit astype.
  EXPECT_FALSE(implicitly_castable(DType::Float32, DType::Float16));
  EXPECT_FALSE(implicitly_castable(DType::Float32, DType::BFloat16));
  EXPECT_FALSE(implicitly_castable(DType::Float64, DType::Float32));
  EXPECT_TRUE(implicitly_castable(DType::Float16, DType::Float32));
  EXPECT_TRUE(implicitly_castable(DType::BFloat16, DType::Float32));
  EXPECT_TRUE(implicitly_castable(DType::Float32, DType::Float64));
  EXPECT_FALSE(implicitly_castable(DType::Float16, DType::BFloat16));
  EXPECT_FALSE(implicitly_castable(DType::BFloat16, DType::Float16));
  // Integers widen within their signedness, never narrow, never cross signedness.
  EXPECT_TRUE(implicitly_castable(DType::Int8, DType::Int32));
  EXPECT_TRUE(implicitly_castable(DType::UInt16, DType::UInt64));
  EXPECT_FALSE(implicitly_castable(DType::Int32, DType::Int16));
  EXPECT_FALSE(implicitly_castable(DType::UInt8, DType::Int32));
  EXPECT_FALSE(implicitly_castable(DType::Int32, DType::UInt32));
  // Integers into floats (the table says so, even int64 -> float16); never floats into ints.
  EXPECT_TRUE(implicitly_castable(DType::Int32, DType::Float32));
  EXPECT_TRUE(implicitly_castable(DType::Int64, DType::Float16));
  EXPECT_FALSE(implicitly_castable(DType::Float16, DType::Int64));
  EXPECT_FALSE(implicitly_castable(DType::Float32, DType::Int32));
  // bool goes anywhere; nothing else goes into bool.
  for (DType t : kAll) {
    EXPECT_TRUE(implicitly_castable(DType::Bool, t)) << dtype_name(t);
    if (t != DType::Bool) EXPECT_FALSE(implicitly_castable(t, DType::Bool)) << dtype_name(t);
  }
}

TEST(DTypeImplicitCast, AgreesWithTheTable) {
  for (size_t r = 0; r < 13; ++r)
    for (size_t c = 0; c < 13; ++c) {
      DType from = kTableOrder[r], to = kTableOrder[c];
      EXPECT_EQ(implicitly_castable(from, to), std::string(kTable[r][c]) == dtype_short_name(to))
          << dtype_name(from) << " -> " << dtype_name(to);
    }
}

// ---- integer ranges ---------------------------------------------------------------------------

TEST(DTypeIntegerFits, Bounds) {
  struct Case { DType t; __int128 lo, hi; };
  const Case cases[] = {
      {DType::Int8, -128, 127},
      {DType::Int16, -32768, 32767},
      {DType::Int32, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()},
      {DType::Int64, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()},
      {DType::UInt8, 0, 255},
      {DType::UInt16, 0, 65535},
      {DType::UInt32, 0, std::numeric_limits<uint32_t>::max()},
      {DType::UInt64, 0, static_cast<__int128>(std::numeric_limits<uint64_t>::max())},
      {DType::Bool, 0, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(dtype_name(c.t));
    EXPECT_TRUE(integer_fits(c.t, c.lo));
    EXPECT_TRUE(integer_fits(c.t, c.hi));
    EXPECT_FALSE(integer_fits(c.t, c.lo - 1));
    EXPECT_FALSE(integer_fits(c.t, c.hi + 1));
  }
  EXPECT_FALSE(integer_fits(DType::Int8, 300));   // "Integer constant 300 is out of range of int8"
  EXPECT_TRUE(integer_fits(DType::UInt8, 255));
  EXPECT_FALSE(integer_fits(DType::UInt64, -1));
  EXPECT_FALSE(integer_fits(DType::UInt64, static_cast<__int128>(1) << 64));
}

TEST(DTypeIntegerFits, FloatsTakeAnyInteger) {
  for (DType t : {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64}) {
    EXPECT_TRUE(integer_fits(t, static_cast<__int128>(1) << 100)) << dtype_name(t);
    EXPECT_TRUE(integer_fits(t, -(static_cast<__int128>(1) << 100))) << dtype_name(t);
  }
}

// ---- names --------------------------------------------------------------------------------

TEST(DTypeNames, CanonicalNamesRoundTrip) {
  for (DType t : kAll) {
    EXPECT_EQ(parse_dtype(dtype_name(t)), t) << dtype_name(t);
    EXPECT_EQ(parse_dtype(dtype_short_name(t)), t) << dtype_short_name(t);
  }
}

TEST(DTypeNames, CuTileSpellings) {
  EXPECT_STREQ(dtype_name(DType::Bool), "bool_");
  EXPECT_STREQ(dtype_name(DType::BFloat16), "bfloat16");
  EXPECT_STREQ(dtype_short_name(DType::Float32), "f32");
  EXPECT_STREQ(dtype_short_name(DType::BFloat16), "bf16");
  EXPECT_STREQ(dtype_cpp_name(DType::Float16), "__half");
  EXPECT_STREQ(dtype_cpp_name(DType::BFloat16), "__nv_bfloat16");
  EXPECT_STREQ(dtype_cpp_name(DType::Int8), "int8_t");
  EXPECT_STREQ(dtype_cpp_name(DType::UInt64), "uint64_t");
  EXPECT_STREQ(dtype_cpp_name(DType::Float32), "float");
  EXPECT_STREQ(dtype_cpp_name(DType::Bool), "bool");
}

TEST(DTypeNames, Aliases) {
  EXPECT_EQ(parse_dtype("bool_"), DType::Bool);
  EXPECT_EQ(parse_dtype("bool"), DType::Bool);
  EXPECT_EQ(parse_dtype("half"), DType::Float16);
  EXPECT_EQ(parse_dtype("float"), DType::Float32);
  EXPECT_EQ(parse_dtype("double"), DType::Float64);
  EXPECT_EQ(parse_dtype("f32"), DType::Float32);
  EXPECT_EQ(parse_dtype("f16"), DType::Float16);
  EXPECT_EQ(parse_dtype("bf16"), DType::BFloat16);
  EXPECT_EQ(parse_dtype("i8"), DType::Int8);
  EXPECT_EQ(parse_dtype("u64"), DType::UInt64);
  EXPECT_EQ(parse_dtype("int32"), DType::Int32);  // torch.int32's attribute part
  EXPECT_EQ(parse_dtype("uint16"), DType::UInt16);
}

TEST(DTypeNames, Rejected) {
  EXPECT_EQ(parse_dtype(""), std::nullopt);
  EXPECT_EQ(parse_dtype("float128"), std::nullopt);
  EXPECT_EQ(parse_dtype("Float32"), std::nullopt);  // case matters
  EXPECT_EQ(parse_dtype("float32 "), std::nullopt);
  EXPECT_EQ(parse_dtype("int4"), std::nullopt);
  // Restricted floats tile2cu does not have (yet): Rubin's and the sub-byte one.
  EXPECT_EQ(parse_dtype("float8_e5m3fnu"), std::nullopt);
  EXPECT_EQ(parse_dtype("float4_e2m1fn"), std::nullopt);
}

TEST(DTypeNames, RestrictedFloatsForMma) {
  EXPECT_EQ(parse_dtype("tfloat32"), DType::TFloat32);
  EXPECT_EQ(parse_dtype("float8_e4m3fn"), DType::Float8E4M3FN);
  EXPECT_EQ(parse_dtype("float8_e8m0fnu"), DType::Float8E8M0FNU);  // mma_scaled's scales
  EXPECT_EQ(parse_dtype("float8_e5m2"), DType::Float8E5M2);
  for (DType d : {DType::TFloat32, DType::Float8E4M3FN, DType::Float8E5M2}) {
    EXPECT_TRUE(is_restricted(d));
    EXPECT_FALSE(is_float(d));
    EXPECT_EQ(promote(d, DType::Float32), std::nullopt) << dtype_name(d);  // never promoted
  }
  EXPECT_EQ(dtype_bits(DType::Float8E5M2), 8);
}

TEST(DTypeProperties, BitsCategoriesAndSignedness) {
  EXPECT_EQ(dtype_bits(DType::Bool), 1);
  EXPECT_EQ(dtype_bytes(DType::Bool), 1);
  EXPECT_EQ(dtype_bytes(DType::Float16), 2);
  EXPECT_EQ(dtype_bytes(DType::BFloat16), 2);
  EXPECT_EQ(dtype_bytes(DType::UInt64), 8);
  EXPECT_EQ(dtype_bytes(DType::Float64), 8);
  int floats = 0, ints = 0, bools = 0;
  for (DType t : kAll) {
    floats += is_float(t);
    ints += is_integer(t);
    bools += dtype_category(t) == DTypeCategory::Boolean;
    EXPECT_FALSE(is_signed_integer(t) && is_unsigned_integer(t)) << dtype_name(t);
    EXPECT_EQ(is_integer(t), is_signed_integer(t) || is_unsigned_integer(t)) << dtype_name(t);
  }
  EXPECT_EQ(floats, 4);
  EXPECT_EQ(ints, 8);
  EXPECT_EQ(bools, 1);
  EXPECT_FALSE(is_signed_integer(DType::Bool));
  EXPECT_FALSE(is_unsigned_integer(DType::Bool));
}

}  // namespace
}  // namespace tile2cu
