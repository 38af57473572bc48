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
#include "sema/budget.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu::sema {

struct ModuleScope;
struct Value;
struct CallArgs;
struct EnumClassInfo;
struct ClassInfo;

// Python literals stay loosely typed until they meet a typed operand (spec b.3). A member of
// an IntEnum is such an int too (it is one in Python, and cuTile types it so); it remembers
// its class and member for `.name`.
struct LooseInt {
  __int128 value;
  std::shared_ptr<const EnumClassInfo> int_enum = nullptr;
  int member = -1;
};
struct LooseFloat { double value; };
struct LooseBool { bool value; };
struct NoneValue {};
struct StrValue { std::string value; };
struct Runtime { ir::ValueId id; };            // a tile or scalar computed on the GPU
struct ArrayValue { int param; };              // an array kernel parameter (or a list's item)
struct ListValue { int param; };               // a list-of-arrays kernel parameter
// x.get_raw_memory(): array x's memory addressed by element offsets from its data pointer,
// ignoring shape and strides. A compile-time handle; only its methods' accesses reach the IR.
struct RawMemoryValue { int param; };
struct TupleValue { std::vector<Value> items; };
// A dict of compile-time keys to any values, in insertion order (lower_dicts.cpp): a
// `{...}` display, a helper's **kwargs. keys[i] maps to values[i].
struct DictValue { std::vector<Value> keys, values; };
struct DTypeValue { DType dtype; };
// The enums that ct functions take as options; user enums have no kind.
enum class EnumKind { PaddingMode, RoundingMode, MemoryOrder, MemoryScope };
// One representation for ct.PaddingMode.ZERO and a user's Color.RED, as cuTile has one enum
// type for both: a member is its class and its index there (EnumClassInfo::members).
struct EnumValue { std::shared_ptr<const EnumClassInfo> cls; int member; };
struct EnumClassValue { std::shared_ptr<const EnumClassInfo> cls; };   // ct.PaddingMode, Color
// A class of the kernel's module that is no enum: a dataclass (or a plain class, which tile
// code can only name). Called, it builds a DataclassValue.
struct ClassValue { std::shared_ptr<const ClassInfo> cls; };
// An instance of a frozen dataclass: a compile-time record of values, like a tuple whose
// items have names. Fields may be tiles; nothing of the record itself reaches the IR.
struct DataclassValue { std::shared_ptr<const ClassInfo> cls; std::vector<Value> fields; };
// "cuda.tile", "math", "numpy", or a module of the user's: `user` is set when its file was found
// next to the kernel and evaluated (its globals are what the module's attributes read).
struct ModuleValue { std::string path; const ModuleScope* user = nullptr; };
// A helper; nested defs and lambdas also carry the enclosing names as they were at the
// definition (spec a.4: captured values are frozen there).
// A method read from a dataclass instance carries the instance as its first argument.
struct FunctionValue {
  const ast::FunctionDef* def;
  const ModuleScope* scope;
  // A nested def or lambda: the names of its defining function, as they were at the def. While
  // that call (`frame`) runs, a call reads them as they are then (Python's late binding); once
  // it returned, as they were when it returned (the closure is replaced then).
  std::shared_ptr<const std::map<std::string, Value>> closure = nullptr;
  std::shared_ptr<const Value> bound_self = nullptr;
  // A nested def's or lambda's default arguments, evaluated at the def as Python does.
  std::shared_ptr<const std::map<std::string, Value>> defaults = nullptr;
  uint64_t frame = 0;  // the inlined call that ran the def (0: module level)
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
struct PoisonValue { std::string message; ErrorKind kind = ErrorKind::Type; };
// a.tiled_view(tile_shape, padding_mode=, traversal_steps=) (spec b.8, c.2.5): array `param`
// seen as a grid of tiles. A compile-time value: its loads, stores and atomics become the
// array's own ops (lower_tiled_view.cpp), so nothing of the view itself reaches the IR.
struct TiledViewValue {
  int param;
  ir::Shape tile_shape;  // as given: () for a view of single elements
  ir::Shape steps;       // traversal_steps: distance between tile origins, one per array axis
  ir::PaddingMode padding = ir::PaddingMode::Undetermined;
};

struct Value {
  using Kind = std::variant<LooseInt, LooseFloat, LooseBool, NoneValue, StrValue, Runtime,
                            ArrayValue, ListValue, RawMemoryValue, TupleValue, DTypeValue, EnumValue, EnumClassValue,
                            ClassValue, DataclassValue, ModuleValue, FunctionValue, BuiltinValue,
                            MethodValue, FormattedStrValue, ContextManagerValue, TiledViewValue, PoisonValue,
                            DictValue>;
  Kind kind;
  template <class T> const T* as() const { return std::get_if<T>(&kind); }
  template <class T> bool is() const { return std::holds_alternative<T>(kind); }
  bool is_loose() const { return is<LooseInt>() || is<LooseFloat>() || is<LooseBool>(); }
};

inline Value make(Value::Kind k) { return Value{std::move(k)}; }

struct EnumClassInfo {
  struct Member { std::string name; Value value; };
  std::string name;
  std::optional<EnumKind> builtin;    // the ct enums
  bool int_enum = false;              // enum.IntEnum: members are ints (LooseInt)
  std::vector<Member> members;        // in definition order; aliases are not members
  std::map<std::string, int> by_name;  // every member name and alias
  const std::string& member_name(int i) const { return members.at(i).name; }
};

// A class statement of a module, evaluated when the module is (as Python does at import).
// What makes a class unusable in tile code (not frozen, default_factory, ...) is kept and
// raised where a kernel builds an instance, which is where cuTile checks it.
struct ClassInfo {
  struct Field {
    std::string name;
    std::optional<Value> default_value;
    bool kw_only = false;
  };
  std::string name;
  const ast::ClassDef* def = nullptr;
  bool is_dataclass = false;
  bool eq = true;  // @dataclass(eq=False): == falls back to identity, which tile code lacks
  std::optional<std::pair<ErrorKind, std::string>> unusable;
  std::vector<Field> fields;  // dataclasses.fields() order: a base's fields first
  // Class-level names, own ones shadowing the base's: methods (FunctionValue), constants,
  // field defaults. A name that cannot be used holds a PoisonValue with the reason.
  std::map<std::string, Value> attributes;
  std::set<std::string> properties;
  std::shared_ptr<const ClassInfo> base;
  const Value* find(const std::string& attr) const {
    for (const ClassInfo* c = this; c; c = c->base.get())
      if (auto it = c->attributes.find(attr); it != c->attributes.end()) return &it->second;
    return nullptr;
  }
  bool is_property(const std::string& attr) const {
    for (const ClassInfo* c = this; c; c = c->base.get()) {
      if (c->properties.count(attr)) return true;
      if (c->attributes.count(attr)) return false;
    }
    return false;
  }
  int field_index(const std::string& field) const {
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i].name == field) return static_cast<int>(i);
    return -1;
  }
};

// Module-level names, evaluated once per file. A global that could not be evaluated keeps
// its error, raised only when a kernel reads it (host code at module level is normal).
struct Global {
  Value value;
  std::shared_ptr<const std::exception_ptr> error;  // set when evaluation failed
  SourceRange range;
  // `X = ct.int16(4)` (or np.int16(4)): a typed constant is an IR constant, which exists only in
  // a kernel, so the global keeps the literal (`value`) and each kernel that reads it makes the
  // constant of this dtype.
  std::optional<DType> typed_as;
};

struct KernelInfo {
  const ast::FunctionDef* def;
  const ast::Call* options = nullptr;  // @ct.kernel(...) keywords, checked when specialized
  // `k2 = k.replace_hints(occupancy=4)`: keywords that replace options, applied in order.
  std::vector<const ast::Call*> hints;
};

struct ModuleScope {
  std::shared_ptr<const ast::Module> module;
  std::map<std::string, Global> globals;
  std::map<std::string, KernelInfo> kernels;
  std::vector<std::string> kernel_order;  // as written in the file
  // Functions decorated @contextlib.contextmanager: calling one makes a ContextManagerValue.
  std::set<const ast::FunctionDef*> context_managers;
  // The user's modules this one imports (kept alive here: their helpers point into them).
  std::vector<std::shared_ptr<const ModuleScope>> imports;
  // `import pkg.mod` binds `pkg`; `pkg.mod` then reads this: dotted name -> the module.
  std::map<std::string, const ModuleScope*> dotted_imports;
  // Shared by the file's module-level code, the user's modules it imports and every
  // specialization of its kernels.
  std::shared_ptr<LoweringBudget> budget;
};

}  // namespace tile2cu::sema
