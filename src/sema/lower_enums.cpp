// Enums: ct's own option enums and those a module defines (`class Color(enum.Enum)`). cuTile
// has one enum type for both, whose members are compile-time constants; so has tile2cu
// (EnumValue). ==, !=, .name, .value and Color(value) all fold at compile time.
#include <fmt/format.h>

#include <cmath>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

namespace {

std::shared_ptr<const EnumClassInfo> make_builtin_enum(EnumKind kind, const char* name,
                                                       std::vector<std::pair<const char*, const char*>> members) {
  auto info = std::make_shared<EnumClassInfo>();
  info->name = name;
  info->builtin = kind;
  for (const auto& [member, value] : members) {
    info->by_name[member] = static_cast<int>(info->members.size());
    info->members.push_back({member, make(StrValue{value})});
  }
  return info;
}

// A Python number, for comparing constants of different kinds (1 == 1.0 == True).
std::optional<double> number_of(const Value& v) {
  if (auto* i = v.as<LooseInt>()) return static_cast<double>(i->value);
  if (auto* f = v.as<LooseFloat>()) return f->value;
  if (auto* b = v.as<LooseBool>()) return b->value ? 1.0 : 0.0;
  return std::nullopt;
}

}  // namespace

// The members in ir order (ir::PaddingMode, ...), with the values cuTile gives them.
std::shared_ptr<const EnumClassInfo> builtin_enum(EnumKind kind) {
  static const std::vector<std::shared_ptr<const EnumClassInfo>> kEnums = {
      make_builtin_enum(EnumKind::PaddingMode, "PaddingMode",
                        {{"UNDETERMINED", "undetermined"}, {"ZERO", "zero"}, {"NEG_ZERO", "neg_zero"},
                         {"NAN", "nan"}, {"POS_INF", "pos_inf"}, {"NEG_INF", "neg_inf"}}),
      make_builtin_enum(EnumKind::RoundingMode, "RoundingMode",
                        {{"RN", "nearest_even"}, {"RZ", "zero"}, {"RM", "negative_inf"},
                         {"RP", "positive_inf"}, {"RA", "nearest_away"}, {"FULL", "full"},
                         {"APPROX", "approx"}, {"RZI", "nearest_int_to_zero"}}),
      make_builtin_enum(EnumKind::MemoryOrder, "MemoryOrder",
                        {{"WEAK", "weak"}, {"RELAXED", "relaxed"}, {"ACQUIRE", "acquire"},
                         {"RELEASE", "release"}, {"ACQ_REL", "acq_rel"}}),
      make_builtin_enum(EnumKind::MemoryScope, "MemoryScope",
                        {{"NONE", "none"}, {"BLOCK", "block"}, {"CLUSTER", "cluster"},
                         {"DEVICE", "device"}, {"SYS", "sys"}}),
  };
  return kEnums.at(static_cast<size_t>(kind));
}

Value enum_member(const std::shared_ptr<const EnumClassInfo>& cls, int member) {
  if (cls->int_enum) {
    const Value& v = cls->members.at(member).value;
    return make(LooseInt{v.as<LooseInt>()->value, cls, member});
  }
  return make(EnumValue{cls, member});
}

bool constants_equal(const Value& a, const Value& b) {
  auto x = number_of(a), y = number_of(b);
  if (x || y) {
    if (!x || !y) return false;
    auto* i = a.as<LooseInt>();
    auto* j = b.as<LooseInt>();
    if (i && j) return i->value == j->value;  // exact beyond 2^53
    return *x == *y;
  }
  if (auto* s = a.as<StrValue>()) return b.is<StrValue>() && b.as<StrValue>()->value == s->value;
  if (a.is<NoneValue>()) return b.is<NoneValue>();
  if (auto* e = a.as<EnumValue>()) {
    auto* f = b.as<EnumValue>();
    return f && f->cls == e->cls && f->member == e->member;
  }
  if (auto* d = a.as<DTypeValue>()) return b.is<DTypeValue>() && b.as<DTypeValue>()->dtype == d->dtype;
  if (auto* t = a.as<TupleValue>()) {
    auto* u = b.as<TupleValue>();
    if (!u || u->items.size() != t->items.size()) return false;
    for (size_t i = 0; i < t->items.size(); ++i)
      if (!constants_equal(t->items[i], u->items[i])) return false;
    return true;
  }
  return false;
}

Value KernelLowering::enum_class_attribute(const EnumClassValue& e, const std::string& attr,
                                           SourceRange range) const {
  auto it = e.cls->by_name.find(attr);
  if (it == e.cls->by_name.end())
    error(ErrorKind::Type, range, fmt::format("'{}' object has no attribute '{}'", e.cls->name, attr));
  return enum_member(e.cls, it->second);
}

// `.name` and `.value` of a member (an IntEnum's members are ints that remember theirs).
std::optional<Value> KernelLowering::enum_member_attribute(const Value& v, const std::string& attr,
                                                           SourceRange range) const {
  std::shared_ptr<const EnumClassInfo> cls;
  int member = -1;
  if (auto* e = v.as<EnumValue>()) {
    cls = e->cls;
    member = e->member;
  } else if (auto* i = v.as<LooseInt>(); i && i->int_enum) {
    cls = i->int_enum;
    member = i->member;
  } else {
    return std::nullopt;
  }
  if (attr == "name") return make(StrValue{cls->member_name(member)});
  if (attr == "value") {
    if (cls->int_enum) return make(LooseInt{v.as<LooseInt>()->value});
    return cls->members.at(member).value;
  }
  error(ErrorKind::Type, range,
        fmt::format("No such attribute '{}' for object of type <enum constant {}.{}>", attr,
                    cls->name, cls->member_name(member)));
}

// Color(1): the member whose value is 1 (cuTile: a constant argument, TileValueError if none).
Value KernelLowering::construct_enum(const EnumClassValue& e, const CallArgs& args, SourceRange range) {
  if (args.positional.size() != 1 || !args.keywords.empty())
    error(ErrorKind::Type, range, "Enum constructor takes exactly one positional argument");
  const Value& v = args.positional[0];
  if (!is_constant(v) || v.is<Runtime>())
    error(ErrorKind::Type, args.positional_ranges[0], "Enum constructor argument must be a constant");
  if (auto* m = v.as<EnumValue>(); m && m->cls == e.cls) return v;  // Color(Color.RED)
  for (size_t i = 0; i < e.cls->members.size(); ++i)
    if (constants_equal(e.cls->members[i].value, v)) return enum_member(e.cls, static_cast<int>(i));
  error(ErrorKind::Value, range, fmt::format("{} is not a valid {}", python_repr(v), e.cls->name));
}

// Members compare by identity: equal only to themselves, never to a value of another type;
// ordering them is an error, as in Python.
Value KernelLowering::compare_enums(ast::CompareOp op, const Value& lhs, const Value& rhs,
                                    SourceRange range) const {
  auto* a = lhs.as<EnumValue>();
  auto* b = rhs.as<EnumValue>();
  auto is_int_enum = [](const Value& v) { return v.is<LooseInt>() && v.as<LooseInt>()->int_enum; };
  // A member of an IntEnum is an int and an enum member: against another enum's member it
  // is a member of another class, so never equal.
  if ((a && is_int_enum(rhs)) || (b && is_int_enum(lhs))) {
    if (op == ast::CompareOp::Eq || op == ast::CompareOp::NotEq) return make(LooseBool{op == ast::CompareOp::NotEq});
  }
  if (op != ast::CompareOp::Eq && op != ast::CompareOp::NotEq) {
    if (a && b && a->cls == b->cls)
      error(ErrorKind::Type, range,
            fmt::format("'{}' not supported between instances of '{}' and '{}'",
                        ast::compare_op_token(op), a->cls->name, b->cls->name));
    error(ErrorKind::Type, range,
          fmt::format("Unsupported operand types for {}: {} and {}", ast::compare_op_token(op),
                      describe(lhs), describe(rhs)));
  }
  if (!a || !b)
    error(ErrorKind::Type, range,
          fmt::format("Unsupported operand types for {}: {} and {}", ast::compare_op_token(op),
                      describe(lhs), describe(rhs)));
  bool same = a->cls == b->cls && a->member == b->member;
  return make(LooseBool{op == ast::CompareOp::Eq ? same : !same});
}

}  // namespace tile2cu::sema
