// Element-indexed memory: ct.gather, ct.scatter and the ct.atomic_* family (spec c.2.3, c.2.6),
// and the same accesses by element offset through Array.get_raw_memory(). Each becomes one
// Gather / Scatter / Atomic op whose operands are already broadcast to the access shape S (or
// left scalar) and cast to the array dtype, so the emitter only prints them.
#include <fmt/format.h>

#include "sema/bound_args.hpp"
#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

struct AtomicInfo {
  const char* name;
  ir::AtomicKind kind;
  std::vector<DType> dtypes;  // array dtypes it supports
  bool exact_update;          // update dtype must equal the array dtype (bitwise ops)
};

const std::vector<DType> kInts = {DType::Int32, DType::Int64, DType::UInt32, DType::UInt64};
const std::vector<DType> kExchangeable = {DType::Int32, DType::Int64, DType::UInt32, DType::UInt64,
                                          DType::Float32, DType::Float64};
const std::vector<DType> kAddable = {DType::Int32,   DType::Int64,   DType::UInt32,  DType::UInt64,
                                     DType::Float32, DType::Float64, DType::Float16, DType::BFloat16};

const AtomicInfo kAtomics[] = {
    {"atomic_add", ir::AtomicKind::Add, kAddable, false},  {"atomic_max", ir::AtomicKind::Max, kInts, false},
    {"atomic_min", ir::AtomicKind::Min, kInts, false},     {"atomic_and", ir::AtomicKind::And, kInts, true},
    {"atomic_or", ir::AtomicKind::Or, kInts, true},        {"atomic_xor", ir::AtomicKind::Xor, kInts, true},
    {"atomic_xchg", ir::AtomicKind::Xchg, kExchangeable, false},
    {"atomic_cas", ir::AtomicKind::Cas, kExchangeable, false},
};

// ct.MemoryOrder's member names, in ir::MemoryOrder's order.
const char* const kMemoryOrderNames[] = {"WEAK", "RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL"};

// Whether numpy's broadcasting stretches `from` to exactly `to`.
bool broadcasts_to(const ir::Shape& from, const ir::Shape& to) {
  if (from.size() > to.size()) return false;
  for (size_t k = 1; k <= from.size(); ++k) {
    int64_t f = from[from.size() - k], t = to[to.size() - k];
    if (f != t && f != 1) return false;
  }
  return true;
}

std::string dtype_list(const std::vector<DType>& dts) {
  std::vector<std::string> names;
  for (DType d : dts) names.push_back(dtype_name(d));
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

bool is_element_memory_op(const std::string& op) {
  if (op == "gather" || op == "scatter") return true;
  for (const AtomicInfo& a : kAtomics)
    if (op == a.name) return true;
  return false;
}

// The element indices of an access: one integer scalar or tile per array axis, broadcast to
// their common shape, which becomes the access shape.
KernelLowering::ElementIndices KernelLowering::element_indices(const Value& arg, const ir::ArrayParam& a,
                                                               const std::string& fn, SourceRange range) {
  std::vector<Value> items;
  if (auto* t = arg.as<TupleValue>()) items = t->items;
  else items.push_back(arg);
  if (static_cast<int>(items.size()) != a.rank)
    error(ErrorKind::Type, range,
          fmt::format("Invalid argument \"indices\" of {}(): expected {} indices (one per axis of the array), got {}",
                      fn, a.rank, items.size()));
  ElementIndices out;
  for (size_t k = 0; k < items.size(); ++k) {
    const Value& item = items[k];
    auto dt = value_dtype(item);
    if (!dt || item.is<LooseFloat>() || item.is<LooseBool>() || (!item.is_loose() && !is_integer(*dt)))
      error(ErrorKind::Type, range,
            fmt::format("Invalid argument \"indices\" of {}(): index #{} must be an integer scalar or tile, got {}", fn,
                        k, describe(item)));
    out.ids.push_back(to_runtime_as(item, item.is_loose() ? DType::Int32 : *dt, range));
    out.shape = broadcast_shape(out.shape, type_of(out.ids.back()).shape, range);
  }
  for (ir::ValueId& id : out.ids)
    if (!type_of(id).is_scalar()) id = broadcast(id, out.shape, range);
  return out;
}

// An operand that broadcasts to the access shape: a scalar stays one, a tile is stretched to it
// (never the other way: the indices fix the shape). `what` names it as cuTile does ("Value").
ir::ValueId KernelLowering::to_access_shape(ir::ValueId v, const ir::Shape& shape, const std::string& what,
                                            SourceRange range) {
  const ir::TileType t = type_of(v);
  if (t.is_scalar()) return v;
  if (!broadcasts_to(t.shape, shape))
    error(ErrorKind::Type, range,
          fmt::format("{} shape {} is not broadcastable to the index shape {}", what, ir::shape_string(t.shape),
                      ir::shape_string(shape)));
  return broadcast(v, shape, range);
}

// The element offset of a raw-memory access (Array.get_raw_memory): one integer scalar or tile
// counting elements from the array's data pointer; its shape is the access shape.
KernelLowering::ElementIndices KernelLowering::raw_offset_index(const Value& arg, const std::string& fn,
                                                                SourceRange range) {
  auto dt = value_dtype(arg);
  if (!dt || arg.is<LooseFloat>() || arg.is<LooseBool>() || (!arg.is_loose() && !is_integer(*dt)))
    error(ErrorKind::Type, range,
          fmt::format("Invalid argument \"offset\" of {}(): expected an integer scalar or tile, got {}", fn,
                      describe(arg)));
  ElementIndices out;
  out.ids.push_back(to_runtime(arg, range));
  out.shape = type_of(out.ids.back()).shape;
  return out;
}

Value KernelLowering::element_memory(const std::string& op, CallArgs& args, SourceRange range) {
  const bool atomic = op != "gather" && op != "scatter";
  std::vector<std::string> positional{"array", "indices"};
  std::vector<std::string> keywords{"check_bounds"};
  if (op == "gather") keywords.insert(keywords.end(), {"mask", "padding_value", "latency"});
  if (op == "scatter") {
    positional.push_back("value");
    keywords.insert(keywords.end(), {"mask", "latency"});
  }
  if (atomic) {
    if (op == "atomic_cas") positional.insert(positional.end(), {"expected", "desired"});
    else positional.push_back("update");
    keywords.insert(keywords.end(), {"memory_order", "memory_scope"});
  }
  Bound b(*this, op, args, positional, keywords, positional.size(), range);
  auto* av = b.at("array").as<ArrayValue>();
  if (!av)
    error(ErrorKind::Type, b.range_of("array"),
          fmt::format("Invalid argument #1 of {}(): Expected an array, but given value is {}", op, describe(b.at("array"))));
  ElementIndices ix = element_indices(b.at("indices"), fn_.arrays[av->param], op, b.range_of("indices"));
  return element_access(op, op, av->param, ix, false, b);
}

// mem.dtype, and mem.load_offset & co. as bound methods (called through method_call).
Value KernelLowering::raw_memory_attribute(const RawMemoryValue& m, const std::string& attr, SourceRange range) {
  if (attr == "dtype") return make(DTypeValue{fn_.arrays[m.param].dtype});
  static const char* kMethods[] = {"load_offset",        "store_offset",      "atomic_cas_offset",
                                   "atomic_xchg_offset", "atomic_add_offset", "atomic_max_offset",
                                   "atomic_min_offset",  "atomic_and_offset", "atomic_or_offset",
                                   "atomic_xor_offset"};
  for (const char* name : kMethods)
    if (attr == name) return make(MethodValue{std::make_shared<const Value>(make(m)), attr});
  error(ErrorKind::Type, range, fmt::format("RawArrayMemory has no attribute '{}'", attr));
}

// mem.load_offset / store_offset / atomic_*_offset: gather, scatter and the atomics at element
// offsets from the array's data pointer, with no bounds (cuTile's RawArrayMemory). The operands
// after the offset are positional-only; every method takes a mask.
Value KernelLowering::raw_memory_access(int param, const std::string& method, CallArgs& args, SourceRange range) {
  std::string op;
  if (method == "load_offset") op = "gather";
  else if (method == "store_offset") op = "scatter";
  else if (method.starts_with("atomic_") && method.ends_with("_offset")) op = method.substr(0, method.size() - 7);
  if (op.empty() || !is_element_memory_op(op))
    error(ErrorKind::Type, range, fmt::format("RawArrayMemory has no attribute '{}'", method));
  std::vector<std::string> positional{"offset"};
  std::vector<std::string> keywords{"mask"};
  if (op == "gather") keywords.insert(keywords.end(), {"padding_value", "latency"});
  else if (op == "scatter") {
    positional.push_back("value");
    keywords.push_back("latency");
  } else {
    if (op == "atomic_cas") positional.insert(positional.end(), {"expected", "desired"});
    else positional.push_back("update");
    keywords.insert(keywords.end(), {"memory_order", "memory_scope"});
  }
  for (size_t k = 0; k < args.keywords.size(); ++k)
    if (std::find(positional.begin(), positional.end(), args.keywords[k].first) != positional.end())
      error(ErrorKind::Type, args.keyword_ranges[k],
            fmt::format("{}() got a positional-only argument '{}' passed as a keyword", method, args.keywords[k].first));
  Bound b(*this, method, args, positional, keywords, positional.size(), range);
  ElementIndices ix = raw_offset_index(b.at("offset"), method, b.range_of("offset"));
  return element_access(op, method, param, ix, true, b);
}

// The op shared by ct.gather/scatter/atomic_* and the raw-memory methods, once the indices
// (or the offset) are known: `op` says which, `fn` is the name the user called.
Value KernelLowering::element_access(const std::string& op, const std::string& fn, int param, const ElementIndices& ix,
                                     bool raw_offset, const Bound& b) {
  const AtomicInfo* atomic = nullptr;
  for (const AtomicInfo& a : kAtomics)
    if (op == a.name) atomic = &a;
  ir::ArrayParam& a = fn_.arrays[param];

  ir::Op o = make_op(op == "gather" ? ir::OpKind::Gather : op == "scatter" ? ir::OpKind::Scatter : ir::OpKind::Atomic,
                     ix.ids);
  o.param = param;
  o.raw_offset = raw_offset;
  if (const Value* cb = b.get("check_bounds")) o.check_bounds = const_bool(*cb, b.range_of("check_bounds"), b.what("check_bounds"));
  if (const Value* lat = b.get("latency"); lat && !lat->is<NoneValue>()) {
    int64_t l = const_int(*lat, b.range_of("latency"), b.what("latency"));
    if (l < 1 || l > 10) error(ErrorKind::Value, b.range_of("latency"), fmt::format("latency must be between 1 and 10, got {}", l));
  }
  // An operand of the array's dtype: literals adopt it, tiles must cast losslessly (exactly for
  // the bitwise atomics).
  auto array_typed = [&](const std::string& name, const std::string& what, bool exact) {
    const Value& v = b.at(name);
    auto dt = value_dtype(v);
    if (!dt) error(ErrorKind::Type, b.range_of(name), fmt::format("{}() expects a tile or a scalar for \"{}\", got {}", fn, name, describe(v)));
    if (!v.is_loose() && exact && *dt != a.dtype)
      error(ErrorKind::Type, b.range_of(name),
            fmt::format("Bitwise atomic read-modify-write operations require the update dtype ({}) to exactly "
                        "match the target dtype ({})", dtype_name(*dt), dtype_name(a.dtype)));
    if (!v.is_loose() && !implicitly_castable(*dt, a.dtype))
      error(ErrorKind::Type, b.range_of(name),
            fmt::format("Invalid argument \"{}\" of {}(): cannot implicitly cast {} to the array's dtype {}", name, fn,
                        dtype_name(*dt), dtype_name(a.dtype)));
    if (v.is_loose() && dtype_category(*dt) > dtype_category(a.dtype))
      error(ErrorKind::Type, b.range_of(name), fmt::format("cannot use {} as {}", describe(v), dtype_name(a.dtype)));
    return to_access_shape(to_runtime_as(v, a.dtype, b.range_of(name)), ix.shape, what, b.range_of(name));
  };
  auto mask = [&]() {
    const Value* m = b.get("mask");
    if (!m || m->is<NoneValue>()) return constant(true, DType::Bool);
    auto dt = value_dtype(*m);
    // A constant True / False masks every lane alike (cuTile's test_gather_with_scalar_mask).
    if (!dt || *dt != DType::Bool || (m->is_loose() && !m->is<LooseBool>()))
      error(ErrorKind::Type, b.range_of("mask"),
            fmt::format("Invalid argument \"mask\" of {}(): Expected a boolean tile, got {}", fn, describe(*m)));
    return to_access_shape(to_runtime_as(*m, DType::Bool, b.range_of("mask")), ix.shape, "Custom mask", b.range_of("mask"));
  };

  if (op == "gather") {
    o.operands.push_back(mask());
    if (!b.get("padding_value")) o.operands.push_back(constant(static_cast<__int128>(0), a.dtype));
    else o.operands.push_back(array_typed("padding_value", "Padding", false));
    return make(Runtime{emit1(std::move(o), {a.dtype, ix.shape})});
  }
  a.written = true;
  if (op == "scatter") {
    o.operands.push_back(array_typed("value", "Value", false));
    o.operands.push_back(mask());
    emit(std::move(o), {});
    return make(NoneValue{});
  }

  // cuTile's op names in the memory order and scope messages (its tests match them).
  const char* cutile_op = atomic->kind == ir::AtomicKind::Cas ? "tile_atomic_cas" : "tile_atomic_rmw";
  if (std::find(atomic->dtypes.begin(), atomic->dtypes.end(), a.dtype) == atomic->dtypes.end())
    error(ErrorKind::Type, b.range_of("array"),  // the whole call for a raw-memory method
          fmt::format("Unsupported array dtype: {} ({}() supports {})", dtype_name(a.dtype), fn, dtype_list(atomic->dtypes)));
  o.atomic = atomic->kind;
  if (const Value* mo = b.get("memory_order")) {
    auto* e = mo->as<EnumValue>();
    if (!e || e->cls->builtin != EnumKind::MemoryOrder)
      error(ErrorKind::Type, b.range_of("memory_order"), fmt::format("Invalid argument \"memory_order\" of {}(): Expected a ct.MemoryOrder, got {}", fn, describe(*mo)));
    o.memory_order = static_cast<ir::MemoryOrder>(e->member);
    if (o.memory_order == ir::MemoryOrder::Weak)
      error(ErrorKind::Type, b.range_of("memory_order"),
            fmt::format("Invalid memory order for {}. Got MemoryOrder.WEAK, expected one of MemoryOrder.RELAXED, "
                        "MemoryOrder.ACQUIRE, MemoryOrder.RELEASE, MemoryOrder.ACQ_REL", cutile_op));
  }
  if (const Value* ms = b.get("memory_scope")) {
    auto* e = ms->as<EnumValue>();
    if (!e || e->cls->builtin != EnumKind::MemoryScope)
      error(ErrorKind::Type, b.range_of("memory_scope"), fmt::format("Invalid argument \"memory_scope\" of {}(): Expected a ct.MemoryScope, got {}", fn, describe(*ms)));
    o.memory_scope = static_cast<ir::MemoryScope>(e->member);
    if (o.memory_scope == ir::MemoryScope::None)
      error(ErrorKind::Type, b.range_of("memory_scope"),
            fmt::format("{} with {} memory ordering requires a memory scope (BLOCK, DEVICE or SYS), not NONE", cutile_op,
                        kMemoryOrderNames[static_cast<int>(o.memory_order)]));
    if (o.memory_scope == ir::MemoryScope::Cluster)
      error(ErrorKind::UnsupportedFeature, b.range_of("memory_scope"),
            fmt::format("{}() with memory_scope=CLUSTER is not supported yet by tile2cu (tile2cu launches no clusters)", fn));
  }
  bool half = a.dtype == DType::Float16 || a.dtype == DType::BFloat16;
  if (half && o.memory_scope == ir::MemoryScope::Sys)
    error(ErrorKind::UnsupportedFeature, b.range_of("memory_scope"),
          fmt::format("{}() on a {} array with memory_scope=SYS is not supported yet by tile2cu", fn, dtype_name(a.dtype)));
  if (atomic->kind == ir::AtomicKind::Cas) {
    o.operands.push_back(array_typed("expected", "Expected value", false));
    o.operands.push_back(array_typed("desired", "Desired value", false));
  } else {
    o.operands.push_back(array_typed("update", "Update", atomic->exact_update));
  }
  if (raw_offset) o.operands.push_back(mask());
  return make(Runtime{emit1(std::move(o), {a.dtype, ix.shape})});
}

}  // namespace tile2cu::sema
