// The private machinery of sema: one `KernelLowering` per specialization. Split over
// lower_stmt.cpp (statements, control flow, helpers, kernel entry), lower_expr.cpp (names,
// attributes, subscripts, calls), lower_operators.cpp (operators, promotion, conversions) and
// lower_builtins.cpp (the ct.* functions).
#pragma once

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

// How a statement list ended: fell through, or left by break / continue / return.
enum class Flow { Normal, Break, Continue, Return };

struct CallArgs {
  std::vector<Value> positional;
  std::vector<SourceRange> positional_ranges;
  std::vector<std::pair<std::string, Value>> keywords;
  std::vector<SourceRange> keyword_ranges;
};

class KernelLowering {
 public:
  KernelLowering(const ModuleScope& scope, const KernelSignature& sig);
  ir::Function run();

  // ---- shared by the lowering files ----
  [[noreturn]] void error(ErrorKind kind, SourceRange range, const std::string& message) const;
  [[noreturn]] void unsupported(SourceRange range, const std::string& what) const;

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
  Value binary(ast::BinaryOp op, const Value& lhs, const Value& rhs, SourceRange range);
  Value compare(ast::CompareOp op, const Value& lhs, const Value& rhs, SourceRange range);
  Value unary(ast::UnaryOp op, const Value& v, SourceRange range);
  bool truth(const Value& v, SourceRange range, bool* is_constant);
  Value call(const Value& callee, CallArgs args, SourceRange range);
  Value call_function(const FunctionValue& fn, CallArgs args, SourceRange range);
  Value subscript(const Value& base, const ast::ExprPtr& index, SourceRange range);

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
  DType default_dtype(const Value& loose, SourceRange range) const;

  // Compile-time helpers for builtins
  int64_t const_int(const Value& v, SourceRange range, const std::string& what) const;
  bool const_bool(const Value& v, SourceRange range, const std::string& what) const;
  std::vector<int64_t> const_int_tuple(const Value& v, SourceRange range, const std::string& what) const;
  DType const_dtype(const Value& v, SourceRange range, const std::string& what) const;
  ir::Shape tile_shape_arg(const Value& v, SourceRange range, const std::string& fn) const;
  Value builtin_call(const std::string& name, CallArgs& args, SourceRange range);
  Value method_call(const Value& self, const std::string& name, CallArgs& args, SourceRange range);
  Value reduction(const std::string& op, CallArgs& args, SourceRange range);

  // Restricted floats (tfloat32, float8) take part in no arithmetic (spec b.4).
  void require_arithmetic(DType dtype, SourceRange range, const std::string& what) const;

  // Matrix multiply (lower_mma.cpp)
  struct MmaRanges { SourceRange call, x, y, acc; };
  ir::ValueId mma_operand(const Value& v, const char* fn, const char* what, SourceRange range);
  ir::ValueId mma(ir::ValueId x, ir::ValueId y, ir::ValueId acc, const MmaRanges& ranges);
  Value mma_call(const Value& x, const Value& y, const Value& acc, const Value* use_fast_acc,
                 const MmaRanges& ranges);
  Value matmul(const Value& x, const Value& y, const MmaRanges& ranges);

  // Statements (lower_stmt.cpp)
  Flow exec_body(const ast::Body& body);
  Flow exec(const ast::Stmt& s);
  void assign(const ast::ExprPtr& target, const Value& v, SourceRange range);
  [[noreturn]] void item_assignment(const ast::Subscript& target, SourceRange range);
  void check_syntax(const ast::FunctionDef& def) const;
  void kernel_options(const ast::Call& call);
  Flow exec_runtime_if(ir::ValueId cond, const ast::Body& then_body, const ast::Body& else_body,
                       SourceRange range);
  Flow exec_for(const ast::For& f, SourceRange range);
  Flow exec_while(const ast::While& w, SourceRange range);
  std::vector<std::string> carried_names(const ast::Body& body, SourceRange range);
  // Lowers a loop body into the current block, ending in a Yield of the carried values.
  void loop_body(const ast::Body& body, const std::vector<std::string>& carried,
                 const std::vector<ir::TileType>& types, bool is_for, SourceRange range);
  // Appends the loop op; its results now stand for the carried names.
  void close_loop(ir::Op op, const Env& before, const std::vector<std::string>& carried,
                  const std::vector<ir::TileType>& types, const std::set<std::string>& assigned,
                  SourceRange range);
  void finish_loop_scope(const Env& before, const std::vector<std::string>& carried,
                         const std::set<std::string>& assigned);
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
  struct LoopContext { std::vector<std::string> carried; bool is_for; };
  std::vector<LoopContext> loops_;
  struct CallFrame { std::string function; SourceRange call_range; std::shared_ptr<const SourceFile> file; };
  std::vector<CallFrame> call_stack_;
  std::shared_ptr<const SourceFile> file_;
  int helper_depth_ = 0;
  bool in_helper_ = false;
  std::optional<Value> return_value_;
};

// Python's rule: a name assigned anywhere in a function is local to all of it.
std::set<std::string> function_locals(const ast::FunctionDef& def);

// Spec b.5 applied to two operands that are not both loose; nullopt if refused.
std::optional<DType> promote_for_binary(std::optional<DType> a, bool a_loose,
                                        std::optional<DType> b, bool b_loose);

}  // namespace tile2cu::sema
