// Tile IR: SSA values with tile types, operations at tile granularity, and structured
// control flow (for / if / while regions that yield values, as in MLIR's scf dialect).
// Sema builds it; passes rewrite it; the emitter prints it as CUDA C++. It has a stable
// text form (printer.hpp) and a verifier (verifier.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/dtype.hpp"
#include "support/source.hpp"

namespace tile2cu::ir {

using Shape = std::vector<int64_t>;
std::string shape_string(const Shape& shape);  // "(64, 128)", "()"
// The product of the dims, saturating at INT64_MAX instead of wrapping ((2**32, 2**32) is not 0).
int64_t shape_elements(const Shape& shape);
// The largest tile tile2cu accepts, in elements, whatever its dtype: cuTile sets no bound, but
// the generated code unrolls a tile's elements in each thread, and nvcc's time grows with them
// (docs/reliability.md). 256x256 accumulators and 32K-element rows fit.
inline constexpr int64_t kMaxTileElements = int64_t{1} << 16;

// Every runtime value is a tile; a scalar is a tile of rank 0.
struct TileType {
  DType dtype = DType::Int32;
  Shape shape;
  bool is_scalar() const { return shape.empty(); }
  bool operator==(const TileType&) const = default;
};
std::string type_string(const TileType& t);  // "tile<f32, (64, 128)>", "f32"

// A kernel parameter that is an array: dtype and rank fixed by the signature, shape and
// strides known at run time except where the signature makes them static.
struct ArrayParam {
  std::string name;
  DType dtype;
  int rank;
  std::vector<std::optional<int64_t>> static_dims;  // size rank
  bool aligned16 = false;      // base pointer 16-byte aligned (a signature fact)
  bool contiguous = false;     // last-dim stride is 1 (a signature fact)
  bool written = false;        // some store targets it (const otherwise, in the launcher)
  // Lists of arrays (spec a.3, h.14). A list parameter has is_list set and describes its items;
  // `lst[i]` adds an entry with list_of = the list's index, defined by a ListItem op, which the
  // array ops then name like any other array.
  bool is_list = false;
  int list_of = -1;
  // Array.slice (spec b.1): a view of the entry `slice_of`, narrowed along one axis, defined by
  // an ArraySlice op. Same dtype, rank and strides; no copy.
  int slice_of = -1;
  // A run-time choice between arrays (an array variable an if or a loop rebinds): one of the
  // entries `select_of`, picked by an ArraySelect op's int32 operand. Its facts are those every
  // candidate has; a store through it may write any of them.
  std::vector<int> select_of;
  // Strides the signature makes compile-time constants (`strides(10, ?)`): empty, or size rank.
  std::vector<std::optional<int64_t>> static_strides;
};

struct ScalarParam {
  std::string name;
  DType dtype;
};

using ValueId = int;
constexpr ValueId kNoValue = -1;

enum class OpKind {
  Constant,     // splat of a literal: attr literal; result type decides shape
  BlockId,      // attr axis
  NumBlocks,    // attr axis
  ScalarParam,  // attr param: index into Function::scalars
  ArrayDim,     // attr param, attr dim: runtime extent of an array parameter
  ArrayStride,  // attr param, attr dim
  Binary,       // attr binary; operands of identical type (sema inserts casts/broadcasts)
  Compare,      // attr compare; result bool
  Unary,        // attr unary + math flags
  Convert,      // astype: operand dtype -> result dtype, same shape
  Select,       // where(cond, x, y), identical shapes
  Broadcast,    // a scalar splats; otherwise same rank, dims of 1 stretch to the result shape
  Reshape,      // same elements, new shape (row-major)
  Arange,       // operands start, step (scalars of the result dtype)
  Reduce,       // attr binary (add, mul, maximum, minimum) over attr axes; arg: the index instead.
                // With one region: a user combiner over N operands of one shape (ct.reduce of a
                // tuple of tiles), N results; region args a_0..a_N-1, b_0..b_N-1, ends in a Yield
                // of N values; attr identities, one per operand
  Scan,         // inclusive prefix along attr axis, attr reverse; attr binary (add, mul) or a
                // combiner region and identities over N operands as for Reduce
  Permute,      // result axis i is operand axis order[i]
  Cat,          // two tiles joined along attr axis
  Extract,      // operands: tile, grid index (one int32 per axis); the sub-tile of the result shape
  Insert,       // operands: tile, value, grid index...; the tile with that sub-tile replaced
  Bitcast,      // same shape, same bit width, new dtype
  Reinterpret,  // pack_to_bytes / unpack_from_bytes: the same bytes as a rank-1 tile of another dtype
  Load,         // attr array param; operands: tile index (one per axis); attrs shape/order/padding
  Store,        // attr array param; operands: tile index..., value
  // Element-indexed memory (spec c.2.3, c.2.6). Operands start with one element index per
  // array axis, each a scalar or a tile of the access shape S (any integer dtype); attrs
  // array param, check_bounds. A scalar access (S = ()) is a block-uniform side effect.
  // With attr raw_offset (Array.get_raw_memory) they start instead with one element offset
  // from the array's data pointer: shape, strides and bounds play no part.
  Gather,       // operands: indices..., mask (bool), padding (array dtype); result: shape S
  Scatter,      // operands: indices..., value (array dtype), mask (bool)
  Atomic,       // attrs atomic, memory_order, memory_scope; operands: indices..., update
                // (cas: expected, desired), and with raw_offset a mask (bool); result: the
                // old values, shape S (masked-off lanes: cas's expected, others 0)
  For,          // operands: lower, upper, step, inits...; region 0 args: iv, carried...
  If,           // operands: cond; regions: then, else; results via Yield
  While,        // operands: inits...; region 0 (cond, args carried, ends in Condition),
                // region 1 (body, args carried, ends in Yield)
  Yield,        // operands: values a region hands back
  Condition,    // operand: the loop condition (terminates a While's cond region)
  Break,        // operands: carried values at the break (innermost loop)
  Continue,     // operands: carried values at the continue
  Return,       // early exit from the kernel (block-uniform)
  ListItem,     // attr param: the item's entry in Function::arrays; operand: the index (int32)
  ListLength,   // attr param: a list parameter; result: its length (int32)
  ArraySlice,   // attr param: the view's entry in Function::arrays (its slice_of is the array it
                // narrows); attr axis; operands start, stop (signed-integer scalars)
  ArraySelect,  // attr param: the entry defined (its select_of lists the candidates, all earlier
                // entries of one dtype and rank); operand: the candidate's index (int32 scalar)
  Print,        // operands: values to print; attr text: 2n+1 strings, literal segments around
                // the n printf conversions ("x = ", "%f", "\n"); one line per block
  Assert,       // operand: bool tile or scalar; attr text[0]: the message printed when false
  Mma,          // operands x [..., M, K], y [..., K, N], acc [..., M, N] (batch dims equal);
                // result: acc's type. x and y share a dtype (int8 with uint8 excepted).
  GemmLoop,     // a recognised `for k: a = load(A); b = load(B); acc = mma(a, b, acc)` loop
                // (passes/gemm_loop.hpp). Operands: k_begin, k_end, A's index (rank A; its K
                // entry is k_begin), B's index (rank B), acc init. Attrs: param (A), param_b (B),
                // tile_shape (A's), tile_shape_b (B's), stages, hopper_stages, order ((1, 0)
                // when B is loaded transposed, else empty). Result: acc after the loop.
  AttentionLoop,  // a recognised flash-attention loop (passes/attention_loop.hpp). Operands:
                // j_begin, j_end, q (BM x D), K's index (rank K, tile order; its j entry is
                // j_begin), V's index (rank V), m, l, acc inits. Attrs: param (K), param_b (V),
                // tile_shape (K's, (.., D, BN)), tile_shape_b (V's), order (K's), stages, unary
                // (exp2 or exp). Region 0: the score function, args (s f32, row i32, col i32, j),
                // ends in Yield of the new s. Results: m, l, acc after the loop.
};

enum class BinaryKind { Add, Sub, Mul, Div, FloorDiv, Mod, CeilDiv, Pow, Min, Max, BitAnd, BitOr, BitXor, Shl, Shr, Atan2 };
enum class CompareKind { Eq, Ne, Lt, Le, Gt, Ge };
enum class UnaryKind { Neg, Not, BitNot, Abs, Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Sin, Cos, Tan, Sinh, Cosh, Tanh, Floor, Ceil, IsNan };
enum class AtomicKind { Add, Max, Min, And, Or, Xor, Xchg, Cas };
enum class MemoryOrder { Weak, Relaxed, Acquire, Release, AcqRel };  // ct.MemoryOrder's order
enum class MemoryScope { None, Block, Cluster, Device, Sys };       // ct.MemoryScope's order
enum class PaddingMode { Undetermined, Zero, NegZero, Nan, PosInf, NegInf };
// Rounding / accuracy choices of cuTile's RoundingMode that change generated code.
enum class Rounding { Default, RN, RZ, RM, RP, Full, Approx, RA };  // RA: nearest, ties away (astype only)

const char* op_kind_name(OpKind k);
// Ops that only compute a value from their operands and attributes (no memory, no regions, no
// effect): constants, scalar and element-wise arithmetic, kernel parameters and array extents.
bool is_value_arithmetic(OpKind k);
const char* binary_kind_name(BinaryKind k);
const char* compare_kind_name(CompareKind k);
const char* unary_kind_name(UnaryKind k);
const char* padding_mode_name(PaddingMode m);
const char* atomic_kind_name(AtomicKind k);
const char* memory_order_name(MemoryOrder o);
const char* memory_scope_name(MemoryScope s);
const char* rounding_name(Rounding r);

using Literal = std::variant<__int128, double, bool>;

struct Block;

struct Op {
  OpKind kind;
  std::vector<ValueId> operands;
  std::vector<ValueId> results;
  std::vector<Block> regions;
  // Attributes; which ones an op uses is listed at OpKind.
  Literal literal = __int128(0);
  std::vector<Literal> identities;  // Reduce/Scan with a combiner: one per operand
  int axis = 0;
  int param = -1;
  int dim = 0;
  BinaryKind binary = BinaryKind::Add;
  CompareKind compare = CompareKind::Eq;
  UnaryKind unary = UnaryKind::Neg;
  Rounding rounding = Rounding::Default;
  bool flush_to_zero = false;
  bool propagate_nan = false;
  bool arg = false;             // Reduce: argmax / argmin (int32 index of the winner)
  bool reverse = false;         // Scan: from the last element to the first
  std::vector<int> axes;        // Reduce: the source axes folded away
  PaddingMode padding = PaddingMode::Undetermined;
  Shape tile_shape;             // Load/Store: the tile shape in tile space
  std::vector<int> order;       // Load/Store: tile axis k walks array axis order[k]
  std::vector<std::string> text;  // Print: segments and conversions; Assert: the message
  bool check_bounds = true;     // Gather/Scatter/Atomic: false = caller promises in bounds
  bool raw_offset = false;      // Gather/Scatter/Atomic: addressed by one element offset (see OpKind)
  bool hoisted = false;         // moved in front of the loop it was written in (passes/loop_invariants)
  AtomicKind atomic = AtomicKind::Add;
  MemoryOrder memory_order = MemoryOrder::AcqRel;
  MemoryScope memory_scope = MemoryScope::Device;
  int param_b = -1;             // GemmLoop: B's array param (AttentionLoop: V's)
  Shape tile_shape_b;           // GemmLoop: B's tile shape
  int stages = 0;               // GemmLoop: shared-memory pipeline depth (mma.sync, any arch)
  int hopper_stages = 0;        // GemmLoop: pipeline depth of the sm_90a wgmma loop, 0 if none
  // Where this op came from: the Python statement's first line, for comments and #line.
  SourceRange loc;
  int loc_file = -1;  // -1: `loc` is in the kernel's file; k: in Function::imported_files[k]
};

// Whether two ops carry the same attributes (every field above but operands, results, regions,
// the `hoisted` mark and the source location). A new attribute must be added there too.
bool same_attributes(const Op& a, const Op& b);

struct Block {
  std::vector<ValueId> args;
  std::vector<Op> ops;
};

struct ValueInfo {
  TileType type;
  std::string name;  // the Python variable it was bound to, when there is one
};

struct Function {
  std::string kernel_name;        // the Python kernel
  std::string spec_name;          // this specialization's name
  std::string signature;          // every parameter's constraint, constants included
  std::vector<ArrayParam> arrays;
  std::vector<ScalarParam> scalars;
  // Kernel parameters in declaration order, Constants omitted: (is_array, index).
  std::vector<std::pair<bool, int>> param_order;
  std::vector<ValueInfo> values;
  Block body;
  std::shared_ptr<const SourceFile> file;
  // Modules the kernel's helpers were imported from, for ops whose loc lies in one of them.
  std::vector<std::shared_ptr<const SourceFile>> imported_files;
  int occupancy = 0;  // @ct.kernel(occupancy=...) hint, 0 when absent

  ValueId new_value(TileType type, std::string name = {}) {
    values.push_back({std::move(type), std::move(name)});
    return static_cast<ValueId>(values.size() - 1);
  }
  const TileType& type(ValueId v) const { return values.at(v).type; }
  // The file an op's loc refers to.
  const SourceFile* file_of(const Op& op) const {
    return op.loc_file < 0 ? file.get() : imported_files.at(static_cast<size_t>(op.loc_file)).get();
  }
  // "line 34" in the kernel's file, "line 12 of tile_order.py" in an imported one.
  std::string place_of(const Op& op) const;
};

struct Module {
  std::vector<Function> functions;  // one per specialization
};

// Calls f on every op of `block` and, depth first, of the regions nested in it, in program order.
void for_each_op(const Block& block, const std::function<void(const Op&)>& f);

// Per entry of fn.arrays: whether some op reads, writes, measures or narrows it (the ListItem or
// ArraySlice op that defines an entry does not count). The emitter declares only these.
std::vector<bool> referenced_arrays(const Function& fn);

}  // namespace tile2cu::ir
