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

// astype's rounding_mode= between float dtypes (spec b.7; cuTile's table _FTOF_ROUNDING_ROWS):
// the rounding a conversion from `from` to `to` needs, Default where the mode cannot change a
// value (the same dtype, a wider one, RN).
ir::Rounding KernelLowering::conversion_rounding(const Value& mode, DType from, DType to, SourceRange range) const {
  const std::string name = rounding_mode_member(mode, range);
  if (from == to) return ir::Rounding::Default;  // cuTile returns the tile itself
  // float32 -> tfloat32 drops 13 mantissa bits: to nearest even (RN, the default), ties away
  // (RA) or toward zero (RZ), as cuTile's test_astype_rounding_mode_f32_tf32 checks.
  if (from == DType::Float32 && to == DType::TFloat32) {
    if (name != "RN" && name != "RA" && name != "RZ")
      error(ErrorKind::Type, range,
            fmt::format("rounding_mode=RoundingMode.{} is not supported for conversion from float32 to tfloat32, "
                        "supported rounding modes for this conversion are (RoundingMode.RN, RoundingMode.RA, "
                        "RoundingMode.RZ)",
                        name));
    return name == "RN" ? ir::Rounding::Default : kRoundingModes.at(name);
  }
  const bool restricted = !is_float(from) || !is_float(to);
  if (restricted && name != "RN")
    error(ErrorKind::UnsupportedFeature, range,
          fmt::format("astype(rounding_mode={}) from {} to {} is not supported yet by tile2cu", name,
                      dtype_name(from), dtype_name(to)));
  // The modes cuTile accepts between f16, bf16, f32 and f64: RN and RZ always; RM, RP and RA
  // into f32 or f64 (no RA from f64 to f32) and from bf16 into f16.
  std::vector<std::string> allowed = {"RN", "RZ"};
  if (to == DType::Float64 || to == DType::Float32 || (to == DType::Float16 && from == DType::BFloat16)) {
    allowed.insert(allowed.end(), {"RM", "RP"});
    if (!(to == DType::Float32 && from == DType::Float64)) allowed.push_back("RA");
  }
  if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
    error(ErrorKind::Type, range,
          fmt::format("rounding_mode=RoundingMode.{} is not supported for conversion from {} to {}, supported "
                      "rounding modes for this conversion are (RoundingMode.{})",
                      name, dtype_name(from), dtype_name(to), fmt::join(allowed, ", RoundingMode.")));
  const bool exact = dtype_bits(to) > dtype_bits(from);  // f16/bf16 -> f32 -> f64
  if (name == "RN" || exact) return ir::Rounding::Default;
  return kRoundingModes.at(name);
}

}  // namespace tile2cu::sema
