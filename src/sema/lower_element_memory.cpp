// Element-indexed memory: ct.gather, ct.scatter and the ct.atomic_* family (spec c.2.3, c.2.6).
// Each becomes one Gather / Scatter / Atomic op whose operands are already broadcast to the access
// shape S (or left scalar) and cast to the array dtype, so the emitter only prints them.
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

// An operand that broadcasts to the access shape: a scalar stays one, a tile is stretched to it.
ir::ValueId KernelLowering::to_access_shape(ir::ValueId v, const ir::Shape& shape, SourceRange range) {
  const ir::TileType t = type_of(v);
  if (t.is_scalar()) return v;
  if (broadcast_shape(t.shape, shape, range) != shape)
    error(ErrorKind::Type, range,
          fmt::format("Shape {} does not broadcast to the index shape {}", ir::shape_string(t.shape),
                      ir::shape_string(shape)));
  return broadcast(v, shape, range);
}

Value KernelLowering::element_memory(const std::string& op, CallArgs& args, SourceRange range) {
  const AtomicInfo* atomic = nullptr;
  for (const AtomicInfo& a : kAtomics)
    if (op == a.name) atomic = &a;
  std::vector<std::string> positional{"array", "indices"};
  std::vector<std::string> keywords{"check_bounds"};
  if (op == "gather") keywords.insert(keywords.end(), {"mask", "padding_value", "latency"});
  if (op == "scatter") {
    positional.push_back("value");
    keywords.insert(keywords.end(), {"mask", "latency"});
  }
  if (atomic) {
    if (atomic->kind == ir::AtomicKind::Cas) positional.insert(positional.end(), {"expected", "desired"});
    else positional.push_back("update");
    keywords.insert(keywords.end(), {"memory_order", "memory_scope"});
  }
  Bound b(*this, op, args, positional, keywords, positional.size(), range);
  auto* av = b.at("array").as<ArrayValue>();
  if (!av)
    error(ErrorKind::Type, b.range_of("array"),
          fmt::format("Invalid argument #1 of {}(): Expected an array, but given value is {}", op, describe(b.at("array"))));
  ir::ArrayParam& a = fn_.arrays[av->param];
  ElementIndices ix = element_indices(b.at("indices"), a, op, b.range_of("indices"));

  ir::Op o = make_op(op == "gather" ? ir::OpKind::Gather : op == "scatter" ? ir::OpKind::Scatter : ir::OpKind::Atomic,
                     ix.ids);
  o.param = av->param;
  if (const Value* cb = b.get("check_bounds")) o.check_bounds = const_bool(*cb, b.range_of("check_bounds"), b.what("check_bounds"));
  if (const Value* lat = b.get("latency"); lat && !lat->is<NoneValue>()) {
    int64_t l = const_int(*lat, b.range_of("latency"), b.what("latency"));
    if (l < 1 || l > 10) error(ErrorKind::Value, b.range_of("latency"), fmt::format("latency must be between 1 and 10, got {}", l));
  }
  // An operand of the array's dtype: literals adopt it, tiles must cast losslessly (exactly for
  // the bitwise atomics).
  auto array_typed = [&](const std::string& name, bool exact) {
    const Value& v = b.at(name);
    auto dt = value_dtype(v);
    if (!dt) error(ErrorKind::Type, b.range_of(name), fmt::format("{}() expects a tile or a scalar for \"{}\", got {}", op, name, describe(v)));
    if (!v.is_loose() && (exact ? *dt != a.dtype : !implicitly_castable(*dt, a.dtype)))
      error(ErrorKind::Type, b.range_of(name),
            fmt::format("Invalid argument \"{}\" of {}(): {} {} {} the array's dtype {}", name, op,
                        exact ? "its dtype" : "cannot implicitly cast", dtype_name(*dt),
                        exact ? "must equal" : "to", dtype_name(a.dtype)));
    if (v.is_loose() && dtype_category(*dt) > dtype_category(a.dtype))
      error(ErrorKind::Type, b.range_of(name), fmt::format("cannot use {} as {}", describe(v), dtype_name(a.dtype)));
    return to_access_shape(to_runtime_as(v, a.dtype, b.range_of(name)), ix.shape, b.range_of(name));
  };
  auto mask = [&]() {
    const Value* m = b.get("mask");
    if (!m || m->is<NoneValue>()) return constant(true, DType::Bool);
    auto dt = value_dtype(*m);
    if (!dt || *dt != DType::Bool)
      error(ErrorKind::Type, b.range_of("mask"), fmt::format("Invalid argument \"mask\" of {}(): Expected a boolean tile, got {}", op, describe(*m)));
    return to_access_shape(to_runtime_as(*m, DType::Bool, b.range_of("mask")), ix.shape, b.range_of("mask"));
  };

  if (op == "gather") {
    o.operands.push_back(mask());
    if (!b.get("padding_value")) o.operands.push_back(constant(static_cast<__int128>(0), a.dtype));
    else o.operands.push_back(array_typed("padding_value", false));
    return make(Runtime{emit1(std::move(o), {a.dtype, ix.shape})});
  }
  a.written = true;
  if (op == "scatter") {
    o.operands.push_back(array_typed("value", false));
    o.operands.push_back(mask());
    emit(std::move(o), {});
    return make(NoneValue{});
  }

  if (std::find(atomic->dtypes.begin(), atomic->dtypes.end(), a.dtype) == atomic->dtypes.end())
    error(ErrorKind::Type, b.range_of("array"),
          fmt::format("{}() does not support arrays of {} (supported: {})", op, dtype_name(a.dtype), dtype_list(atomic->dtypes)));
  o.atomic = atomic->kind;
  if (const Value* mo = b.get("memory_order")) {
    auto* e = mo->as<EnumValue>();
    if (!e || e->cls->builtin != EnumKind::MemoryOrder)
      error(ErrorKind::Type, b.range_of("memory_order"), fmt::format("Invalid argument \"memory_order\" of {}(): Expected a ct.MemoryOrder, got {}", op, describe(*mo)));
    o.memory_order = static_cast<ir::MemoryOrder>(e->member);
    if (o.memory_order == ir::MemoryOrder::Weak)
      error(ErrorKind::Type, b.range_of("memory_order"),
            fmt::format("Invalid argument \"memory_order\" of {}(): an atomic needs RELAXED, ACQUIRE, RELEASE or ACQ_REL, not WEAK", op));
  }
  if (const Value* ms = b.get("memory_scope")) {
    auto* e = ms->as<EnumValue>();
    if (!e || e->cls->builtin != EnumKind::MemoryScope)
      error(ErrorKind::Type, b.range_of("memory_scope"), fmt::format("Invalid argument \"memory_scope\" of {}(): Expected a ct.MemoryScope, got {}", op, describe(*ms)));
    o.memory_scope = static_cast<ir::MemoryScope>(e->member);
    if (o.memory_scope == ir::MemoryScope::None)
      error(ErrorKind::Type, b.range_of("memory_scope"),
            fmt::format("Invalid argument \"memory_scope\" of {}(): an atomic needs BLOCK, DEVICE or SYS, not NONE", op));
    if (o.memory_scope == ir::MemoryScope::Cluster)
      error(ErrorKind::UnsupportedFeature, b.range_of("memory_scope"),
            fmt::format("{}() with memory_scope=CLUSTER is not supported yet by tile2cu (tile2cu launches no clusters)", op));
  }
  bool half = a.dtype == DType::Float16 || a.dtype == DType::BFloat16;
  if (half && o.memory_scope == ir::MemoryScope::Sys)
    error(ErrorKind::UnsupportedFeature, b.range_of("memory_scope"),
          fmt::format("{}() on a {} array with memory_scope=SYS is not supported yet by tile2cu", op, dtype_name(a.dtype)));
  if (atomic->kind == ir::AtomicKind::Cas) {
    o.operands.push_back(array_typed("expected", false));
    o.operands.push_back(array_typed("desired", false));
  } else {
    o.operands.push_back(array_typed("update", atomic->exact_update));
  }
  return make(Runtime{emit1(std::move(o), {a.dtype, ix.shape})});
}

}  // namespace tile2cu::sema
