// rounding_mode= / flush_to_zero= / propagate_nan= of the math ops (spec c.15): which op takes
// which, read once here for the elementwise ops (lower_builtins.cpp) and for the reductions
// and scans that take them (sum, prod, max, min, cumsum, cumprod).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {
const std::map<std::string, ir::Rounding> kRoundingModes = {
    {"RN", ir::Rounding::RN}, {"RZ", ir::Rounding::RZ}, {"RM", ir::Rounding::RM}, {"RP", ir::Rounding::RP},
    {"FULL", ir::Rounding::Full}, {"APPROX", ir::Rounding::Approx}, {"RA", ir::Rounding::RA}};
}  // namespace

std::string KernelLowering::rounding_mode_member(const Value& mode, SourceRange range) const {
  auto* e = mode.as<EnumValue>();
  if (!e || e->cls->builtin != EnumKind::RoundingMode)
    error(ErrorKind::Type, range, "rounding_mode must be a ct.RoundingMode");
  return e->cls->member_name(e->member);
}

MathOptions math_options(const std::string& op) {
  using R = ir::Rounding;
  if (op == "add" || op == "sub" || op == "mul" || op == "sum" || op == "prod" || op == "cumsum" ||
      op == "cumprod")
    return {{"rounding_mode", "flush_to_zero"}, {R::RN, R::RZ, R::RM, R::RP}};
  if (op == "truediv")
    return {{"rounding_mode", "flush_to_zero"}, {R::RN, R::RZ, R::RM, R::RP, R::Full, R::Approx}};
  if (op == "sqrt") return {{"rounding_mode", "flush_to_zero"}, {R::RN, R::RZ, R::RM, R::RP, R::Approx}};
  if (op == "rsqrt" || op == "exp2") return {{"flush_to_zero"}, {}};
  if (op == "exp" || op == "tanh") return {{"rounding_mode"}, {R::Full, R::Approx}};
  if (op == "minimum" || op == "maximum" || op == "max" || op == "min") return {{"flush_to_zero", "propagate_nan"}, {}};
  return {{}, {}};
}

MathFlags KernelLowering::math_flags(const Bound& b, const std::string& opname, std::optional<DType> dtype) const {
  MathFlags flags;
  if (const Value* ftz = b.get("flush_to_zero"))
    flags.flush_to_zero = const_bool(*ftz, b.range_of("flush_to_zero"), b.what("flush_to_zero"));
  if (const Value* pn = b.get("propagate_nan"))
    flags.propagate_nan = const_bool(*pn, b.range_of("propagate_nan"), b.what("propagate_nan"));
  if (const Value* rm = b.get("rounding_mode"); rm && !rm->is<NoneValue>()) {
    const std::string name = rounding_mode_member(*rm, b.range_of("rounding_mode"));
    auto it = kRoundingModes.find(name);
    auto allowed = math_options(opname).roundings;
    if (it == kRoundingModes.end() || std::find(allowed.begin(), allowed.end(), it->second) == allowed.end())
      error(ErrorKind::Type, b.range_of("rounding_mode"),
            fmt::format("Rounding mode {} is not supported for {}", name, opname));
    flags.rounding = it->second;
  }
  if (!dtype) return flags;  // a folded constant: the options are read, and have no effect
  if (flags.flush_to_zero && dtype != DType::Float32)
    error(ErrorKind::Type, b.range_of("flush_to_zero"), "Flush to zero can only be used for float32 type");
  if ((flags.rounding == ir::Rounding::Full || flags.rounding == ir::Rounding::Approx) && dtype != DType::Float32)
    error(ErrorKind::Type, b.range_of("rounding_mode"), "Rounding modes FULL and APPROX can only be used for float32 type");
  if (flags.rounding != ir::Rounding::Default && !is_float(*dtype))
    error(ErrorKind::Type, b.range_of("rounding_mode"), "Rounding mode can only be used for unrestricted float types");
  return flags;
}

// Whether every value of `from` is one of `to` (a directed rounding then changes nothing).
bool KernelLowering::holds_every_value(DType to, DType from) {
  using D = DType;
  const bool wide = to == D::Float64 || to == D::Float32;
  switch (from) {
    case D::Float16: case D::BFloat16: return wide;  // f16/bf16 -> f32 -> f64
    case D::Float32: return to == D::Float64;
    case D::TFloat32: return wide;
    case D::Float8E4M3FN: case D::Float8E5M2:  // 2 or 3 mantissa bits, exponents inside f16's
      return wide || to == D::TFloat32 || to == D::Float16 || to == D::BFloat16;
    case D::Float8E8M0FNU:  // powers of two from 2**-127: formats with 8 exponent bits or more
      return wide || to == D::TFloat32 || to == D::BFloat16;
    default: return false;
  }
}

// The rounding modes cuTile's table _FTOF_ROUNDING_ROWS (spec b.7) allows from `from` to `to`,
// in its order (RN, RZ, RM, RP, RA); the bytecode versions it also records are not checked.
std::vector<std::string> KernelLowering::float_conversion_modes(DType from, DType to) {
  using D = DType;
  const bool from_wide = from == D::Float64 || from == D::Float32 || from == D::TFloat32;
  const bool from_e8m0 = from == D::Float8E8M0FNU;
  std::vector<std::string> modes;
  if (to != D::Float8E8M0FNU) modes.push_back("RN");
  if (to == D::Float64 || to == D::Float32 || to == D::TFloat32 || to == D::Float16 || to == D::BFloat16 ||
      to == D::Float8E8M0FNU)
    modes.push_back("RZ");
  const bool directed = to == D::Float64 || (to == D::Float32 && !from_e8m0) ||
                        (to == D::Float16 && !from_wide && !from_e8m0);
  if (directed) modes.push_back("RM");
  if (directed || to == D::Float8E8M0FNU) modes.push_back("RP");
  const bool ties_away = to == D::Float64 ||
                         ((to == D::Float32 || to == D::TFloat32) && from != D::Float64 && !from_e8m0) ||
                         (to == D::Float16 && !from_wide && !from_e8m0);
  if (ties_away) modes.push_back("RA");
  return modes;
}

// astype's rounding_mode= between float dtypes: refused as cuTile refuses it (TileTypeError,
// its words), then the rounding the conversion needs, Default where the mode cannot change a
// value (the same dtype, a wider one, RN). `name` "RN" also checks a plain astype.
ir::Rounding KernelLowering::conversion_rounding(const std::string& name, DType from, DType to, SourceRange range) const {
  if (from == to) return ir::Rounding::Default;  // cuTile returns the tile itself
  const std::vector<std::string> allowed = float_conversion_modes(from, to);
  if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
    error(ErrorKind::Type, range,
          fmt::format("rounding_mode=RoundingMode.{} is not supported for conversion from {} to {}, supported "
                      "rounding modes for this conversion are (RoundingMode.{})",
                      name, dtype_name(from), dtype_name(to), fmt::join(allowed, ", RoundingMode.")));
  // float32 -> tfloat32 drops 13 mantissa bits: to nearest even (RN, the default), ties away
  // (RA) or toward zero (RZ), as cuTile's test_astype_rounding_mode_f32_tf32 checks.
  if (from == DType::Float32 && to == DType::TFloat32) return name == "RN" ? ir::Rounding::Default : kRoundingModes.at(name);
  // Into float8_e8m0fnu (powers of two) only RZ and RP exist: the runtime's converter takes both.
  if (to == DType::Float8E8M0FNU) return kRoundingModes.at(name);
  if (name == "RN" || holds_every_value(to, from)) return ir::Rounding::Default;
  if (!is_float(from) || !is_float(to))
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("astype(rounding_mode={}) from {} to {} is not supported yet by tile2cu", name,
                      dtype_name(from), dtype_name(to)));
  return kRoundingModes.at(name);
}

// A conversion without rounding_mode= is RN, which cuTile's table has into every float but
// float8_e8m0fnu; into that one only floats convert (cuTile's own compiler fails on integers).
void KernelLowering::check_plain_conversion(DType from, DType to, SourceRange range) const {
  if (to != DType::Float8E8M0FNU || from == to) return;
  if (!is_float(from) && !is_restricted(from))
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("astype from {} to float8_e8m0fnu is not supported by tile2cu; convert a float with "
                      "rounding_mode=RoundingMode.RZ or RoundingMode.RP",
                      dtype_name(from)));
  conversion_rounding("RN", from, to, range);
}

ir::Rounding KernelLowering::conversion_rounding(const Value& mode, DType from, DType to, SourceRange range) const {
  return conversion_rounding(rounding_mode_member(mode, range), from, to, range);
}

}  // namespace tile2cu::sema
