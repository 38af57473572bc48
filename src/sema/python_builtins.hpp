// Python's builtins that tile code cannot use. Real cuTile knows them as builtins and refuses
// the call ("eval() is not supported in device code", 'Creating instances of type "dict" is
// not supported in device code'), instead of reporting an undefined name.
#pragma once

#include <string_view>

namespace tile2cu::sema {

enum class PythonBuiltin { None, Function, Type };

// Whether `name` is one of Python's builtin functions or types (exceptions left out) that the
// tile language does not support; the supported ones (range, len, min, ...) are not listed.
PythonBuiltin unsupported_python_builtin(std::string_view name);

}  // namespace tile2cu::sema
