// The C++ name of every Python name in generated code: one rule for locals, parameters,
// kernels and specializations (docs/naming.md).
#pragma once

#include <string>
#include <string_view>

#include "ir/ir.hpp"

namespace tile2cu {

// A Python identifier's C++ spelling. Names that are fine stay as they are; a name that C++,
// the toolkit's headers or the emitter own gets the tag `_py` (`int` -> `int_py`, `NULL` ->
// `NULL_py`, `a_data` -> `a_data_py`); a name whose underscores C++ reserves or the emitter's
// suffixes would double has them counted in the tag (`_x` -> `x_py1x0`, `__init__` ->
// `init_py2x2`). Injective, and no result is a keyword, a macro, a name the headers or the runtime
// declare, or a name in the emitter's own space (`kThreads`, `Layout_128`, `<param>_data`, ...).
std::string cpp_name(std::string_view python_name);

// Whether `name` is a C++ keyword, or a macro or name that the headers a generated file includes
// define or declare (cpp_reserved_names.inc), or a fixed name of the emitter's.
bool is_reserved_cpp_name(std::string_view name);

// Whether a name the emitter composes from C++ names (`x_tile`, `x_2`) may be declared as it
// is: no underscore that C++ reserves, not reserved, not in the emitter's space. cpp_name spells
// one that may not.
bool cpp_name_is_free(std::string_view name);

// `fn` with every name the emitter prints (parameters, values, kernel, specialization) in its
// C++ spelling.
ir::Function with_cpp_names(const ir::Function& fn);

}  // namespace tile2cu
