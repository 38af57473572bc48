// The private machinery of sema: one `KernelLowering` per specialization. Split over
// lower_stmt.cpp (statements, control flow, helpers, kernel entry), lower_expr.cpp (names,
// attributes, subscripts, calls), lower_operators.cpp (operators, promotion, conversions) and
// lower_builtins.cpp (the ct.* functions).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sema/sema.hpp"
#include "support/diagnostic.hpp"

namespace tile2cu::sema {

using Env = std::map<std::string, Value>;
// Statements nested in bodies: (body, index of the statement) per level, outermost first.
using YieldPath = std::vector<std::pair<const ast::Body*, size_t>>;

// How a statement list ended: fell through, or left by break / continue / return.
enum class Flow { Normal, Break, Continue, Return };

struct CallArgs {
  std::vector<Value> positional;
  std::vector<SourceRange> positional_ranges;
  std::vector<std::pair<std::string, Value>> keywords;
  std::vector<SourceRange> keyword_ranges;
};

class Bound;

// The keywords a math op takes and the rounding modes it accepts (spec c.15).
struct MathOptions {
  std::vector<std::string> keywords;
  std::vector<ir::Rounding> roundings;
};
MathOptions math_options(const std::string& op);
// "reduction" or "scan" while the combiner of a ct.reduce / ct.scan is lowered, else nullptr.
const char* combiner_body_kind();

// The options one call gave; every combination of them has a runtime function.
struct MathFlags {
  ir::Rounding rounding = ir::Rounding::Default;
  bool flush_to_zero = false;
  bool propagate_nan = false;
};

class KernelLowering {
 public:
  // Names carried through a loop, flattened to their leaves (carried_values.cpp): a tile or
  // scalar is one leaf; a tuple or dataclass instance has its items' leaves, depth first.
  struct CarriedNames {
    std::vector<std::string> names;
    std::vector<Value> structures;      // each name's value on entry
    std::vector<size_t> first_leaf;     // names[i]'s leaves: [first_leaf[i], first_leaf[i + 1])
    std::vector<Value> initial;         // the leaves on entry
    std::vector<ir::ValueId> initial_ids;
    std::vector<ir::TileType> types;
    std::vector<std::string> leaf_names;
    std::vector<bool> invariant;        // a constant on entry that no back edge (end of body, continue) has changed
    // What the breaks so far passed: the one constant all of them passed, or `break_varies`.
    std::vector<std::optional<Value>> break_constant;
    std::vector<bool> break_varies;
    std::vector<Env> break_names;       // the names at each break, for names first bound in the loop
    std::vector<ir::ValueId> body_args; // the body's block arguments: a back edge passing one changed nothing
    // An array name the loop rebinds: carried as `selector`, an int32 name holding its index
    // into `candidates` (the entry array first, then each array a loop exit left it naming);
    // after the loop an ArraySelect picks the array. Only arrays defined before the loop (entries
    // below `arrays_before`) can be chosen after it; `unusable` when an exit named another.
    struct ArrayCarry {
      std::string name, selector;
      std::vector<int> candidates;
      size_t arrays_before = 0;
      bool unusable = false;
    };
    std::vector<ArrayCarry> arrays;
    bool carries(const std::string& n) const { return std::find(names.begin(), names.end(), n) != names.end(); }
  };
  // The hidden carried name that holds array name `n`'s index (see CarriedNames::ArrayCarry).
  // The env key cannot clash with a Python name; its IR values are named n_path, as an if's are.
  static std::string array_selector_name(const std::string& n) { return "<array " + n + ">"; }
  static std::string array_of_selector(const std::string& key) {
    return key.size() > 8 && key.rfind("<array ", 0) == 0 ? key.substr(7, key.size() - 8) : "";
  }
  struct LoopContext { CarriedNames* carried; bool is_for; };
  KernelLowering(const ModuleScope& scope, const KernelSignature& sig);
  ir::Function run();

  // ---- shared by the lowering files ----
  [[noreturn]] void error(ErrorKind kind, SourceRange range, const std::string& message) const;
  std::shared_ptr<const SourceFile> current_file() const;
  // Appends `op` to the innermost block, marked with the file it was made in (Op::loc_file).
  void append_op(ir::Op op);
  [[noreturn]] void unsupported(SourceRange range, const std::string& what) const;
  // Stops with a TileRecursionError before the stack runs out (deep helper recursion with
  // deeply nested expressions in it would overflow it first).
  void guard_stack(SourceRange range) const;
  // An error at `range` of `file` in the function at inlining depth `depth` (0: the kernel),
  // with the call frames that lead there.
  [[noreturn]] void error_at(ErrorKind kind, size_t depth, std::shared_ptr<const SourceFile> file, SourceRange range,
                             const std::string& message) const;
  // The file's lowering budget (budget.hpp, lower_budget.cpp): every statement and expression
  // evaluated spends a step, every IR operation appended an op. Spent, it stops with an error at
  // the outermost ct.static_iter being unrolled, else at `range`.
  void spend_step(SourceRange range);
  void spend_op();

  // IR building
  std::vector<ir::ValueId> emit(ir::Op op, const std::vector<ir::TileType>& result_types,
                                const std::string& name = {});
  ir::ValueId emit1(ir::Op op, const ir::TileType& type, const std::string& name = {});
  ir::Op make_op(ir::OpKind kind, std::vector<ir::ValueId> operands = {}) const;
  const ir::TileType& type_of(ir::ValueId v) const { return fn_.type(v); }

  // Expressions (lower_expr.cpp)
  Value eval(const ast::ExprPtr& e);
  Value eval_name(const std::string& name, SourceRange range);
  Value attribute(const Value& base, const std::string& attr, SourceRange range);
  bool calls_sub_byte_dtype(const ast::Call& call);
  double round_to_e8m0(double x, SourceRange range) const;
  Value binary(ast::BinaryOp op, const Value& lhs, const Value& rhs, SourceRange range);
  Value python_sum(CallArgs& args, SourceRange range);  // sum() inside static_eval
  Value global_value(const Global& global, const std::string& name, SourceRange range);
  Value parameter_value(const std::string& name, const Constraint& c, SourceRange range);
  Value divmod_pair(CallArgs& args, SourceRange range, const std::string& what);
  Value compare(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range);
  Value unary(ast::UnaryOp op, const Value& v, SourceRange range);
  bool truth(const Value& v, SourceRange range, bool* is_constant);
  Value call(const Value& callee, CallArgs args, SourceRange range);
  Value call_function(const FunctionValue& fn, CallArgs args, SourceRange range);
  Value subscript(const Value& base, const ast::ExprPtr& index, SourceRange range);
  // Compile-time dicts (lower_dicts.cpp): displays, d[k], d.get/keys/values/items, `in`, ==,
  // and `f(**d)`'s keywords.
  Value dict_display(const ast::DictExpr& display);
  void dict_insert(DictValue& d, Value key, Value value, SourceRange key_range) const;
  Value dict_item(const DictValue& d, const Value& key, SourceRange key_range) const;
  Value dict_attribute(const Value& base, const std::string& attr, SourceRange range) const;
  Value dict_method(const DictValue& d, const std::string& name, CallArgs& args, SourceRange range);
  std::optional<Value> dict_compare(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range);
  void keywords_from_dict(const Value& v, SourceRange range, CallArgs& args) const;
  // A tuple made of `items`; refuses one of more than 4096 values in all (nested tuples
  // counted) or nested more than 1000 deep: `t = (t, t)` repeated grows exponentially, and
  // every use of a tuple copies it.
  Value make_tuple(std::vector<Value> items, SourceRange range) const;

  // Conversions between sema values and IR values
  ir::ValueId to_runtime(const Value& v, SourceRange range);                  // default dtype
  ir::ValueId to_runtime_as(const Value& v, DType dtype, SourceRange range);   // cast losslessly or literal
  ir::ValueId convert(ir::ValueId v, DType dtype);
  ir::ValueId broadcast(ir::ValueId v, const ir::Shape& shape, SourceRange range);
  ir::Shape broadcast_shape(const ir::Shape& a, const ir::Shape& b, SourceRange range) const;
  ir::ValueId constant(const ir::Literal& lit, DType dtype, const ir::Shape& shape = {});
  std::optional<DType> value_dtype(const Value& v) const;  // nullopt for non-numeric
  ir::Shape value_shape(const Value& v) const;
  std::string describe(const Value& v) const;  // "Tile[float32,(64,)]", "int constant 3"
  // cuTile's spelling of a value's type, for messages that quote cuTile's ("given value has type
  // Array[float32,(?,?):(?,?)]"); describe() where cuTile has no spelling tile2cu can match.
  std::string cutile_type(const Value& v) const;
  DType default_dtype(const Value& loose, SourceRange range) const;

  // Python's ints are unbounded; tile2cu folds them exactly within +-2**100 and refuses larger
  // ones where they are made (literals, arithmetic, int(), math.floor) (lower_operators.cpp).
  Value loose_int(__int128 v, SourceRange range) const;
  // Python's int() of a float: NaN and infinities raise, as in Python.
  __int128 int_of_float(double x, SourceRange range) const;

  // Compile-time helpers for builtins. const_int refuses a value outside int64.
  int64_t const_int(const Value& v, SourceRange range, const std::string& what) const;
  bool const_bool(const Value& v, SourceRange range, const std::string& what) const;
  std::vector<int64_t> const_int_tuple(const Value& v, SourceRange range, const std::string& what) const;
  DType const_dtype(const Value& v, SourceRange range, const std::string& what) const;
  ir::Shape tile_shape_arg(const Value& v, SourceRange range, const std::string& fn) const;
  // Refuses a tile of more than ir::kMaxTileElements elements.
  void check_tile_size(const ir::Shape& shape, SourceRange range) const;
  Value builtin_call(const std::string& name, CallArgs& args, SourceRange range);
  Value method_call(const Value& self, const std::string& name, CallArgs& args, SourceRange range);
  Value reduction(const std::string& op, CallArgs& args, SourceRange range);
  // rounding_mode= / flush_to_zero= / propagate_nan= of `opname`, checked against the dtype of
  // its result (none for a folded constant) (lower_math_options.cpp).
  MathFlags math_flags(const Bound& b, const std::string& opname, std::optional<DType> dtype) const;
  // The member name of a ct.RoundingMode value ("RZ"); anything else is a TileTypeError.
  std::string rounding_mode_member(const Value& mode, SourceRange range) const;
  // astype's rounding_mode= from `from` to `to` (lower_math_options.cpp).
  ir::Rounding conversion_rounding(const Value& mode, DType from, DType to, SourceRange range) const;
  ir::Rounding conversion_rounding(const std::string& mode, DType from, DType to, SourceRange range) const;
  static std::vector<std::string> float_conversion_modes(DType from, DType to);
  static bool holds_every_value(DType to, DType from);
  void check_plain_conversion(DType from, DType to, SourceRange range) const;
  // ct.reduce with a function, cumsum, cumprod, scan (lower_combiners.cpp)
  Value combining_op(const std::string& op, CallArgs& args, SourceRange range);
  // The combiner of N operands of these dtypes: 2N scalar args, N yielded. `tuple`: the operands
  // came as a tuple, so the combiner hands back a tuple.
  ir::Block combiner_region(const Value& func, const std::vector<DType>& dtypes, bool tuple, SourceRange range,
                            const std::string& fn);
  Value operator_function(const std::string& name, CallArgs& args, SourceRange range);  // operator.add, ...
  ir::Literal identity_literal(const Value& v, DType dtype, SourceRange range, const std::string& what) const;
  // ct.astile: a scalar or a nested tuple of scalars as a tile (lower_astile.cpp).
  Value astile(CallArgs& args, SourceRange range);
  // permute, transpose, cat, extract, insert, bitcast, pack_to_bytes, unpack_from_bytes (lower_shape_ops.cpp)
  static bool is_shape_op(const std::string& op);
  Value shape_op(const std::string& op, CallArgs& args, SourceRange range);

  // Meta-programming (lower_meta.cpp): static_eval / static_assert / ensure_constant / static_iter.
  // meta_call returns nullopt when `name` is not handled there.
  std::optional<Value> meta_call(const std::string& name, const ast::Call& call, SourceRange range);
  Value static_eval(const ast::ExprPtr& e, SourceRange range, const char* what);
  // The Python number a strictly typed scalar constant (ct.float32(5.0)) holds, or nullopt.
  std::optional<Value> loose_of_typed_constant(const Value& v) const;
  Flow exec_static_iter(const ast::For& f, const ast::Call& call, SourceRange range);
  // A for loop of a function that ct.static_eval / static_assert evaluates runs as Python runs it.
  Flow exec_compile_time_for(const ast::For& f, SourceRange range);
  bool is_constant(const Value& v) const;
  void check_static_op(const ir::Op& op) const;  // inside static_eval: pure arithmetic only

  // Debugging (lower_debug.cpp): ct.print / print / ct.printf / ct.assert_; nullopt otherwise.
  std::optional<Value> debug_call(const std::string& name, CallArgs& args, SourceRange range);

  // Enums (lower_enums.cpp): members of ct's enums and of the module's own
  Value enum_class_attribute(const EnumClassValue& e, const std::string& attr, SourceRange range) const;
  std::optional<Value> enum_member_attribute(const Value& v, const std::string& attr, SourceRange range) const;
  Value construct_enum(const EnumClassValue& e, const CallArgs& args, SourceRange range);
  Value compare_enums(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range) const;

  // Frozen dataclasses (lower_dataclasses.cpp)
  Value construct_dataclass(const ClassValue& c, const CallArgs& args, SourceRange range);
  Value dataclass_attribute(const Value& self, const std::string& attr, SourceRange range);
  Value class_attribute(const ClassValue& c, const std::string& attr, SourceRange range) const;
  Value dataclass_replace(const CallArgs& args, SourceRange range);
  // The user's method `name` called on a dataclass instance; nullopt when `self` is none or
  // its class has no such method.
  std::optional<Value> call_dunder(const Value& self, const char* name, std::vector<Value> args, SourceRange range);
  std::optional<Value> compare_dataclasses(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range);
  std::optional<Value> dataclass_binary(ast::BinaryOp op, const Value& lhs, const Value& rhs, SourceRange range);

  // Lists of arrays (lower_lists.cpp)
  Value list_item(const ListValue& list, const Value& index, SourceRange index_range, SourceRange range);
  Value list_length(const ListValue& list, SourceRange range);
  // `x = xs[i]` names the item x, `seg = X.slice(...)` the view seg (lower_lists.cpp)
  void name_array_view(int param, const std::string& name);
  // Array.slice (lower_array_slice.cpp)
  Value array_slice(int source, CallArgs& args, SourceRange range);
  ir::ValueId slice_bound(const Value& v, SourceRange range, const char* what, std::optional<int64_t>* constant);
  // An array variable bound to different arrays on the paths of an if (lower_array_select.cpp):
  // whether two arrays may meet (same dtype and rank), and the ArraySelect entry that picks
  // candidates[selector], named after the variable `var`.
  bool arrays_can_meet(int a, int b) const;
  Value array_choice(ir::ValueId selector, const std::vector<int>& candidates, const std::string& var);
  // Refuses a loop that leaves `n` naming another array (or tiled view) than on entry (carried_values.cpp).
  void check_array_unchanged(const std::string& n, const Value& entry, const Value& now, SourceRange range) const;
  // Array.tiled_view and the view's attributes and methods (lower_tiled_view.cpp)
  Value make_tiled_view(int param, CallArgs& args, SourceRange range);
  Value tiled_view_attribute(const Value& view, const std::string& attr, SourceRange range);
  Value tiled_view_method(const TiledViewValue& view, const std::string& name, CallArgs& args, SourceRange range);
  // ct.Slice, ct.load_advanced_indexing / store_advanced_indexing (lower_advanced_indexing.cpp)
  Value slice_index(CallArgs& args, SourceRange range);
  Value advanced_indexing(const std::string& op, CallArgs& args, SourceRange range);
  // ct.gather / scatter / atomic_* (lower_element_memory.cpp)
  struct ElementIndices {
    std::vector<ir::ValueId> ids;  // one per array axis: a scalar or a tile of `shape`
    ir::Shape shape;               // the access shape: the indices broadcast together
  };
  Value element_memory(const std::string& op, CallArgs& args, SourceRange range);
  // x.get_raw_memory()'s dtype and methods: load_offset, store_offset, atomic_*_offset.
  // Every use of a method, called at once or kept as a value, goes through method_call to
  // raw_memory_access.
  Value raw_memory_attribute(const RawMemoryValue& m, const std::string& attr, SourceRange range);
  Value raw_memory_access(int param, const std::string& method, CallArgs& args, SourceRange range);
  ElementIndices element_indices(const Value& arg, const ir::ArrayParam& a, const std::string& fn, SourceRange range);
  ir::ValueId to_access_shape(ir::ValueId v, const ir::Shape& shape, const std::string& what, SourceRange range);
  ElementIndices raw_offset_index(const Value& arg, const std::string& fn, SourceRange range);
  Value element_access(const std::string& op, const std::string& fn, int param, const ElementIndices& ix,
                       bool raw_offset, const Bound& b);

  // Restricted floats (tfloat32, float8) take part in no arithmetic (spec b.4).
  void require_arithmetic(DType dtype, SourceRange range, const std::string& what) const;

  // Matrix multiply (lower_mma.cpp)
  struct MmaRanges { SourceRange call, x, y, acc; };
  ir::ValueId mma_operand(const Value& v, const char* fn, const char* what, SourceRange range);
  ir::ValueId mma(ir::ValueId x, ir::ValueId y, ir::ValueId acc, const MmaRanges& ranges);
  Value mma_call(const Value& x, const Value& y, const Value& acc, const Value* use_fast_acc,
                 const MmaRanges& ranges);
  Value matmul(const Value& x, const Value& y, const MmaRanges& ranges);

  // f-strings (lower_fstring.cpp): the value of f"...", and a Python format spec as the
  // printf conversion cuTile makes of it for a value of `dtype` ("{x:>8.3f}" -> "%8.3f").
  Value formatted_string(const ast::FString& f);
  std::string array_proxy_repr(int param) const;
  void append_formatted(FormattedStrValue& out, const Value& v, const std::optional<std::string>& spec,
                        SourceRange range);
  std::string printf_conversion(const std::string& spec, DType dtype, SourceRange range) const;
  // A numeric constant printed through `conversion` as the device's printf would print it.
  std::string fold_printed_constant(const Value& v, const std::string& conversion, SourceRange range) const;

  // A context manager's helper suspended at its yield while the with body runs.
  struct SuspendedManager {
    FunctionValue helper;
    Env names;       // the helper's names at the yield
    YieldPath path;  // where it stopped: the yield, under the helper's own withs on the way
    // inner[L]: the managers the helper's with at path[L] entered (one list per level but the last)
    std::vector<std::vector<SuspendedManager>> inner;
    SourceRange item_range;
    uint64_t frame;  // the helper's call: the exit resumes it
  };
  // A with body being lowered in the current function: loops_.size() at its start (a break or
  // continue leaves the bodies opened inside the innermost loop), its entered managers and the
  // body (the rest of a helper copied after an early return leaves it there).
  struct OpenWith {
    size_t loop_depth;
    std::vector<SuspendedManager> managers;
    const ast::Body* body;
  };

  // Helper inlining (lower_stmt.cpp). A frame is the caller's state while a helper's body
  // runs; a with statement leaves a context manager's frame at its yield and comes back.
  struct HelperFrame {
    const ModuleScope* scope;
    Env env;
    std::vector<LoopContext> loops;
    std::set<std::string> locals;
    std::optional<Value> return_value;
    bool in_helper;
    SourceRange stmt_range;
    std::vector<OpenWith> with_bodies;
    std::vector<std::pair<const ast::Body*, size_t>> rest;
    bool continuable;
    uint64_t frame_id;
  };
  // The callee's names at entry: its closure, its arguments bound to its parameters, defaults.
  Env bind_arguments(const FunctionValue& f, const CallArgs& args, SourceRange range);
  // `frame`: resume that call (a context manager's exit) instead of starting a new one.
  HelperFrame enter_helper(const FunctionValue& f, Env callee_env, SourceRange range,
                           bool context_manager = false, uint64_t frame = 0);
  // Leaves the helper; returns the helper's names as they are now.
  Env leave_helper(HelperFrame frame);
  static uint64_t new_frame_id();
  // A nested def or lambda evaluated here: its closure, frame and defaults (closures.cpp).
  Value make_function(const ast::FunctionDef& def);
  // `f` (def's function) passed through def's decorators, innermost first (decorators.cpp).
  Value decorated_function(const ast::FunctionDef& def, Value f);
  // `v` with the functions that the call `frame` defined (also inside tuples and dataclass
  // instances) bound to `final_env`, that call's names as it returns.
  // `shared` holds final_env's copy once one is needed.
  static Value freeze_closures(const Value& v, uint64_t frame, const Env& final_env,
                               std::shared_ptr<const Env>& shared);

  // A helper's return inside a while loop (loop_returns.cpp): the hidden carried names that
  // say whether the loop was left by a return, and its value.
  static constexpr const char* kLoopReturned = "<returned>";
  static constexpr const char* kLoopReturnValue = "<return value>";
  // Returns `v` from the helper: inside a loop, breaks out of it with the hidden names set.
  Flow helper_return(Value v, SourceRange range);
  // The value a loop's returns pass, as zeros of its type, to carry it from before the loop;
  // nullopt when no return passed one or they differ in type.
  std::optional<Value> return_value_stand_in(const CarriedNames& carried);
  // After a while loop whose body returns: the helper returns where the loop was left so.
  Flow after_loop_with_returns(SourceRange range);
  // A break or continue of the innermost loop: the with bodies it leaves exit, then the jump.
  Flow loop_jump(bool is_break, SourceRange range);

  // with over @contextlib.contextmanager helpers (lower_with.cpp)
  Flow exec_with(const ast::With& w, SourceRange range);
  // The way to the helper's statement that yields, after checking it is the only yield.
  YieldPath context_manager_yield(const ast::FunctionDef& def, SourceRange with_range) const;
  // Enters a with statement's items, left to right, binding their targets.
  std::vector<SuspendedManager> enter_with_items(const ast::With& w);
  // Runs the helper up to its yield; `yielded` is the value the yield passes.
  SuspendedManager enter_manager(const ContextManagerValue& cm, SourceRange item_range, Value& yielded);
  // Runs the rest of a suspended helper, after its yield (the manager's exit).
  void exit_manager(const SuspendedManager& m);
  void exit_managers(const std::vector<SuspendedManager>& managers);  // right to left
  // Exits the managers of with_bodies_[first..], innermost first: what a break, continue or
  // return leaving those with bodies runs before it jumps (cuTile, like Python, runs a
  // manager's exit on every way out of its body). The bodies stay open for the other paths.
  void exit_open_withs(size_t first);
  // The first of with_bodies_ opened inside the innermost loop (with_bodies_.size() if none).
  size_t withs_in_innermost_loop() const;

  // Statements (lower_stmt.cpp)
  Flow exec_body(const ast::Body& body, size_t first = 0);
  // The rest of the current helper after the statement being lowered: the statements after it
  // in each enclosing body, innermost last. A runtime if where one branch returns from a
  // helper and the other falls through lowers that rest into the falling branch (then both
  // branches return), as if the helper had been written with an else.
  bool can_continue() const;
  Flow exec_rest_of_helper(std::vector<std::pair<const ast::Body*, size_t>> frames);
  Flow exec(const ast::Stmt& s);
  void assign(const ast::ExprPtr& target, const Value& v, SourceRange range);
  [[noreturn]] void item_assignment(const ast::Subscript& target, SourceRange range);
  void check_syntax(const ast::FunctionDef& def, bool context_manager = false) const;
  void kernel_options(const ast::Call& call);
  // Refuses control flow nested deeper than the passes may recurse, or than the stack allows.
  void check_nesting(SourceRange range) const;
  Flow exec_if(const ast::If& i, size_t first);
  // Each branch lowers its statements into the region the If op opens for it.
  Flow exec_runtime_if(ir::ValueId cond, const std::function<Flow()>& then_branch,
                       const std::function<Flow()>& else_branch, SourceRange range);
  Flow exec_for(const ast::For& f, SourceRange range);
  Flow exec_while(const ast::While& w, SourceRange range);
  std::vector<std::string> carried_names(const ast::Body& body, SourceRange range);
  // Kernel parameters (tuple_parameter_constants.cpp): whether `annotation` is ct.Constant[...];
  // whether every constant in `c` (a tuple's items at any depth) has an item annotated so.
  bool annotated_constant(const ast::ExprPtr& annotation);
  bool constants_annotated(const Constraint& c, const ast::ExprPtr& annotation);
  // Lowers a loop body into the current block, ending in a Yield of the carried values.
  void loop_body(const ast::Body& body, CarriedNames& carried, bool is_for, SourceRange range);
  // Appends the loop op; its results now stand for the carried names.
  // Names a `while True` loop binds first inside it and every break leaves bound with one type:
  // each with a stand-in of that type made before the loop (zeros; never read, since the loop
  // is left only by its breaks), so that a second lowering of the loop carries them out.
  // `conflicts` gets, for a name the breaks bind with different types, cuTile's error to
  // report where it is read.
  Env names_bound_at_every_break(const Env& before, const std::set<std::string>& assigned,
                                 const CarriedNames& carried, Env* conflicts);
  // `exits_only_by_break`: `while True`, whose results are what its breaks pass.
  void close_loop(ir::Op op, const Env& before, const CarriedNames& carried, bool is_for, bool exits_only_by_break,
                  const std::set<std::string>& assigned, SourceRange range);
  void finish_loop_scope(const Env& before, const CarriedNames& carried, const std::set<std::string>& assigned);
  // Carrying names (carried_values.cpp). carry() converts the entry leaves to IR values;
  // carried_exit_values() is what a path leaving the body (its end, continue, break) passes
  // on, after checking each name kept its structure; bind_carried() rebinds the names to
  // IR values (block arguments, loop results), or to the constants no path changed.
  CarriedNames carry(const std::vector<std::string>& names, SourceRange range);
  std::vector<ir::ValueId> carried_exit_values(CarriedNames& carried, SourceRange range, bool is_break = false);
  void check_carried_type(const std::string& n, const Value& leaf, const ir::TileType& carried, SourceRange range) const;
  // Rebinds to `ids`, but a leaf with a constant in `constants` to that constant.
  void bind_carried(const CarriedNames& carried, const std::vector<ir::ValueId>& ids,
                    const std::vector<std::optional<Value>>& constants = {});
  // The constants a loop's results are: a leaf's value on every way out of the loop, when that
  // is one and the same constant (the end of the loop passes a leaf no back edge changed).
  std::vector<std::optional<Value>> loop_result_constants(const CarriedNames& carried, bool is_for,
                                                          bool exits_only_by_break) const;
  // describe(), with a tuple's items: "Tuple[float32 scalar, int constant 0]"
  std::string describe_carried(const Value& v) const;
  ir::ValueId yield_as(const std::string& name, const Value& v, const ir::TileType& type,
                       SourceRange range, const char* context);

  const ModuleScope& scope_;
  const ModuleScope* current_scope_ = nullptr;  // the module of the function being inlined
  const KernelSignature& sig_;
  ir::Function fn_;
  Env env_;
  std::set<std::string> locals_;  // names the current function assigns: local everywhere in it
  std::vector<ir::Block*> blocks_;
  SourceRange stmt_range_;       // the statement being lowered, for op locations
  std::vector<LoopContext> loops_;
  // The with bodies being lowered in the current function, outermost first.
  std::vector<OpenWith> with_bodies_;
  struct CallFrame { std::string function; SourceRange call_range; std::shared_ptr<const SourceFile> file; };
  std::vector<CallFrame> call_stack_;
  std::shared_ptr<const SourceFile> file_;
  int helper_depth_ = 0;
  // The inlined call being lowered, for nested defs' late binding: unique in the process, so
  // a module-level lambda (made by another KernelLowering) never reads a kernel's names.
  uint64_t frame_id_ = 0;
  // Names a loop rebinds that are not carried (arrays, dtypes, functions): the body was lowered
  // with their values on entry, so one read before the body rebinds it would read the entry
  // value in every iteration. watch_loop_names() notes such reads and the back edges that pass
  // another value; close_loop_watch() refuses a name that has both (loop_name_watch.cpp).
  struct LoopNameWatch {
    uint64_t frame;                                  // the function the loop is in
    std::map<std::string, Value> entry;
    std::map<std::string, SourceRange> read_first;   // read while holding its entry value
    std::map<std::string, Value> changed;            // the other value a back edge passed
  };
  std::vector<LoopNameWatch> loop_watches_;
  void watch_loop_names(const Env& before, const std::set<std::string>& assigned, const std::vector<std::string>& carried);
  void note_name_read(const std::string& name, const Value& v, SourceRange range);
  void note_back_edge();
  void close_loop_watch();
  long inlined_calls_ = 0;  // in this specialization, for kMaxInlinedCalls
  long rest_copies_ = 0;    // helper code lowered again after early returns, for kMaxRestCopies
  bool in_helper_ = false;
  std::optional<Value> return_value_;
  std::vector<std::pair<const ast::Body*, size_t>> rest_;  // see exec_rest_of_helper
  bool continuable_ = false;  // a plain helper (not a context manager's) is being inlined
  std::set<int> auto_named_views_;     // list items and slices still named xs_item<k>, X_slice<k>
  std::shared_ptr<LoweringBudget> budget_;
  // The ct.static_iter loops being unrolled, outermost first: where a spent budget is reported.
  struct Unrolling {
    std::shared_ptr<const SourceFile> file;
    SourceRange range;
    size_t depth;  // call_stack_.size() there
  };
  std::vector<Unrolling> unrolling_;
  int static_eval_depth_ = 0;          // > 0 while evaluating a static_eval-like argument
  // The first tile past tile2cu's size limit (but within cuTile's 2**24 elements): reported once
  // the kernel is lowered, so the kernel's own type errors come first, as in cuTile.
  mutable std::optional<CompileError> oversized_tile_;
  // An error about the value static_eval makes, not about evaluating it (a dataclass cuTile
  // refuses in tile code): it leaves static_eval as it is, not as a TileStaticEvalError.
  bool error_of_the_value_ = false;
  SourceRange static_eval_range_;
  const char* static_eval_what_ = "static_eval";
  // Tiles that are splats of a scalar (every Broadcast of a scalar): broadcasting one splats
  // the scalar again instead of moving elements between threads, and element-wise math on
  // splats is done on the scalars (emit()).
  std::map<ir::ValueId, ir::ValueId> splats_;
};

// Python's str() and repr() of a compile-time value (messages, print); "<value>" for others.
std::string python_str(const Value& v);
std::string python_repr(const Value& v);

// Python's == on compile-time constants (1 == 1.0; enum members by identity).
bool constants_equal(const Value& a, const Value& b);
// The index of `key` among a dict's keys, by Python's key equality (lower_dicts.cpp).
std::optional<size_t> dict_find(const DictValue& d, const Value& key);

// ct.PaddingMode & co.; a member of an enum class as a value (an int for an IntEnum).
std::shared_ptr<const EnumClassInfo> builtin_enum(EnumKind kind);
Value enum_member(const std::shared_ptr<const EnumClassInfo>& cls, int member);

// A module-level class statement evaluated (module_classes.cpp): an EnumClassValue or a
// ClassValue. `module_level` evaluates decorators, bases and class-level values.
Value define_class(KernelLowering& module_level, const ast::ClassDef& def, const ModuleScope* scope);

// Whether a return statement is in `body`, nested control flow included (loop_returns.cpp).
bool body_returns(const ast::Body& body);

// `@functools.wraps(f)` (or `@wraps(f)`): a decorator that returns the function it decorates.
bool is_wraps_decorator(const ast::ExprPtr& decorator);

// Whether ct.<op> is one of element_memory's.
bool is_element_memory_op(const std::string& op);

// The same compile-time value, or the same IR value (carried_values.cpp).
bool same_value(const Value& a, const Value& b);
// A tuple or a dataclass instance: carried through control flow as its leaves.
bool is_record(const Value& v);
// A nested def or lambda with captured names or defaults: out of a run-time if, the captured
// tiles and scalars are merged as a record's leaves (cuTile's frozen captures).
bool is_closure_record(const Value& v);
// Whether `b` keeps `a`'s structure: records of the same length and class, tiles and scalars
// where `a` has them, the same compile-time values elsewhere.
bool same_structure(const Value& a, const Value& b);
// A value's tiles and scalars, depth first, with names for their IR values after `name`
// (state_0, acc_total); and a record rebuilt with new ones.
std::vector<Value> record_leaves(const Value& v, const std::string& name = {},
                                 std::vector<std::string>* leaf_names = nullptr);
Value rebuild_record(const Value& structure, const std::vector<Value>& leaves);

// Python's rule: a name assigned anywhere in a function is local to all of it.
std::set<std::string> function_locals(const ast::FunctionDef& def);

// Spec b.5 applied to two operands that are not both loose; nullopt if refused.
std::optional<DType> promote_for_binary(std::optional<DType> a, bool a_loose,
                                        std::optional<DType> b, bool b_loose);

}  // namespace tile2cu::sema
