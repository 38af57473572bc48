// Nested defs and lambdas in tile code: Python's rules for what they capture. A default
// argument is evaluated at the def; a captured name is read when the function is called, from
// the call that ran the def while it runs (late binding), and as it was when that call
// returned afterwards (cuTile's "frozen" captures).
#include <atomic>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

uint64_t KernelLowering::new_frame_id() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

Value KernelLowering::make_function(const ast::FunctionDef& def) {
  FunctionValue f{&def, current_scope_, std::make_shared<const Env>(env_)};
  f.frame = frame_id_;
  std::map<std::string, Value> defaults;
  for (const auto& p : def.params)
    if (p.kind == ast::Param::Kind::Normal && p.default_value) defaults[p.name] = eval(p.default_value);
  if (!defaults.empty()) f.defaults = std::make_shared<const std::map<std::string, Value>>(std::move(defaults));
  return make(std::move(f));
}

Value KernelLowering::freeze_closures(const Value& v, uint64_t frame, const Env& final_env,
                                      std::shared_ptr<const Env>& shared) {
  if (auto* f = v.as<FunctionValue>(); f && f->frame == frame && f->closure) {
    if (!shared) shared = std::make_shared<const Env>(final_env);
    FunctionValue frozen = *f;
    frozen.closure = shared;
    return make(std::move(frozen));
  }
  if (auto* t = v.as<TupleValue>()) {
    TupleValue out;
    for (const Value& item : t->items) out.items.push_back(freeze_closures(item, frame, final_env, shared));
    return make(std::move(out));
  }
  if (auto* d = v.as<DataclassValue>()) {
    DataclassValue out{d->cls, {}};
    for (const Value& field : d->fields) out.fields.push_back(freeze_closures(field, frame, final_env, shared));
    return make(std::move(out));
  }
  if (auto* d = v.as<DictValue>()) {
    DictValue out{d->keys, {}};
    for (const Value& value : d->values) out.values.push_back(freeze_closures(value, frame, final_env, shared));
    return make(std::move(out));
  }
  return v;
}

}  // namespace tile2cu::sema
