// What a Python name or expression stands for while a kernel is specialized. Most of a
// kernel is decided here at compile time (constants, dtypes, shapes, tuples, helpers);
// only `Runtime` values become Tile IR.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "frontend/ast.hpp"
#include "ir/ir.hpp"

namespace tile2cu::sema {

struct ModuleScope;
struct Value;
struct CallArgs;

// Python literals stay loosely typed until they meet a typed operand (spec b.3).
struct LooseInt { __int128 value; };
struct LooseFloat { double value; };
struct LooseBool { bool value; };
struct NoneValue {};
struct StrValue { std::string value; };
struct Runtime { ir::ValueId id; };            // a tile or scalar computed on the GPU
struct ArrayValue { int param; };              // an array kernel parameter (or a list's item)
struct ListValue { int param; };               // a list-of-arrays kernel parameter
struct TupleValue { std::vector<Value> items; };
struct DTypeValue { DType dtype; };
enum class EnumKind { PaddingMode, RoundingMode, MemoryOrder, MemoryScope };
struct EnumValue { EnumKind kind; int value; std::string name; };
struct EnumClassValue { EnumKind kind; };      // ct.PaddingMode itself
struct ModuleValue { std::string path; };      // "cuda.tile", "math", "numpy", a user module
// A helper; nested defs and lambdas also carry the enclosing names as they were at the
// definition (spec a.4: captured values are frozen there).
struct FunctionValue {
  const ast::FunctionDef* def;
  const ModuleScope* scope;
  std::shared_ptr<const std::map<std::string, Value>> closure = nullptr;
};
struct BuiltinValue { std::string name; };     // "ct.load", "range", "math.sqrt", "ct.Constant"
struct MethodValue { std::shared_ptr<const Value> self; std::string name; };  // t.astype, ...
// An f-string's value (spec a.5): literal text around replacement fields. As in cuTile it
// stays unformatted until printed, where constant fields fold into the text and tiles and
// scalars become printf conversions; so it is no constant string (ct.assert_ refuses it).
struct FormattedStrValue {
  std::vector<std::string> texts;  // texts[i] precedes fields[i]; the last one ends the string
  struct Field {
    std::shared_ptr<const Value> value;  // a tile, scalar or numeric constant
    std::optional<std::string> spec;     // its literal format spec, e.g. ".3f"
    SourceRange range;
  };
  std::vector<Field> fields;
};
// `helper(args)` where helper is an @contextlib.contextmanager generator: the call runs
// nothing; a `with` enters it, once (spec a.5).
struct ContextManagerValue {
  FunctionValue helper;
  std::shared_ptr<const CallArgs> args;
  SourceRange call_range;
  std::shared_ptr<bool> entered;  // shared by the copies of one manager
};
// A name whose type depends on the path taken: fine until someone reads it.
struct PoisonValue { std::string message; };

struct Value {
  using Kind = std::variant<LooseInt, LooseFloat, LooseBool, NoneValue, StrValue, Runtime,
                            ArrayValue, ListValue, TupleValue, DTypeValue, EnumValue, EnumClassValue,
                            ModuleValue, FunctionValue, BuiltinValue, MethodValue, FormattedStrValue,
                            ContextManagerValue, PoisonValue>;
  Kind kind;
  template <class T> const T* as() const { return std::get_if<T>(&kind); }
  template <class T> bool is() const { return std::holds_alternative<T>(kind); }
  bool is_loose() const { return is<LooseInt>() || is<LooseFloat>() || is<LooseBool>(); }
};

inline Value make(Value::Kind k) { return Value{std::move(k)}; }

// Module-level names, evaluated once per file. A global that could not be evaluated keeps
// its error, raised only when a kernel reads it (host code at module level is normal).
struct Global {
  Value value;
  std::shared_ptr<const std::exception_ptr> error;  // set when evaluation failed
  SourceRange range;
};

struct KernelInfo {
  const ast::FunctionDef* def;
  const ast::Call* options = nullptr;  // @ct.kernel(...) keywords, checked when specialized
};

struct ModuleScope {
  std::shared_ptr<const ast::Module> module;
  std::map<std::string, Global> globals;
  std::map<std::string, KernelInfo> kernels;
  std::vector<std::string> kernel_order;  // as written in the file
  // Functions decorated @contextlib.contextmanager: calling one makes a ContextManagerValue.
  std::set<const ast::FunctionDef*> context_managers;
};

}  // namespace tile2cu::sema
