#include "sema/python_builtins.hpp"

#include <algorithm>
#include <array>

namespace tile2cu::sema {

PythonBuiltin unsupported_python_builtin(std::string_view name) {
  static constexpr std::array<std::string_view, 41> kFunctions = {
      "__import__", "aiter",   "all",      "anext",       "any",     "ascii",      "bin",
      "breakpoint", "callable", "chr",     "compile",     "delattr", "dir",        "enumerate",
      "eval",       "exec",    "filter",   "format",      "globals", "hasattr",    "hash",
      "help",       "hex",     "id",       "input",       "issubclass", "iter",    "locals",
      "map",        "next",    "oct",      "open",        "ord",     "pow",        "reversed",
      "round",      "setattr", "sorted",   "sum",         "vars",    "zip"};
  static constexpr std::array<std::string_view, 14> kTypes = {
      "bytearray", "bytes",  "classmethod", "complex", "dict",         "frozenset", "list",
      "memoryview", "object", "property",   "set",     "slice",        "staticmethod", "type"};
  if (std::find(kFunctions.begin(), kFunctions.end(), name) != kFunctions.end())
    return PythonBuiltin::Function;
  if (std::find(kTypes.begin(), kTypes.end(), name) != kTypes.end()) return PythonBuiltin::Type;
  return PythonBuiltin::None;
}

}  // namespace tile2cu::sema
