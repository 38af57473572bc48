// Python's float(str) and int(str) on compile-time strings, as cuTile's dtype constructors
// (ct.float32("-inf")) and the builtins float() and int() apply them to constants.
#pragma once

#include <optional>
#include <string_view>

namespace tile2cu::sema {

// float(s): optional sign, decimal digits (underscores between digits), a fraction and an
// exponent, or inf / infinity / nan in any case, with surrounding whitespace. nullopt where
// Python raises ValueError.
std::optional<double> python_float_of_string(std::string_view s);

// int(s) in base 10: optional sign and decimal digits (underscores between digits), with
// surrounding whitespace; nullopt where Python raises ValueError or past +-2**100.
std::optional<__int128> python_int_of_string(std::string_view s);

}  // namespace tile2cu::sema
