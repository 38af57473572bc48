// A name a loop rebinds to another compile-time value (an array, a dtype, a function) is not
// carried from one iteration to the next: tile2cu lowers the body once, with the value the name
// has on entry. Reading it in the body before rebinding it would silently read the entry value
// in later iterations too, so that is refused at the read (after the loop the name is poisoned
// by finish_loop_scope, as before).
#include <fmt/format.h>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

void KernelLowering::watch_loop_names(const Env& before, const std::set<std::string>& assigned,
                                      const std::vector<std::string>& carried) {
  LoopNameWatch w{frame_id_, {}, {}, {}};
  for (const auto& n : assigned) {
    auto it = before.find(n);
    if (it == before.end() || it->second.is<PoisonValue>()) continue;
    if (std::find(carried.begin(), carried.end(), n) != carried.end()) continue;
    if (it->second.is<TiledViewValue>()) continue;  // check_array_unchanged refuses any rebinding
    w.entry.emplace(n, it->second);
  }
  loop_watches_.push_back(std::move(w));
}

void KernelLowering::note_name_read(const std::string& name, const Value& v, SourceRange range) {
  for (LoopNameWatch& w : loop_watches_) {
    if (w.frame != frame_id_) continue;
    auto it = w.entry.find(name);
    if (it != w.entry.end() && !w.read_first.count(name) && same_value(it->second, v)) w.read_first.emplace(name, range);
  }
}

void KernelLowering::note_back_edge() {
  if (loop_watches_.empty() || loop_watches_.back().frame != frame_id_) return;
  LoopNameWatch& w = loop_watches_.back();
  for (const auto& [name, entry] : w.entry) {
    auto it = env_.find(name);
    if (it != env_.end() && !it->second.is<PoisonValue>() && !same_value(it->second, entry)) w.changed.emplace(name, it->second);
  }
}

void KernelLowering::close_loop_watch() {
  LoopNameWatch w = std::move(loop_watches_.back());
  loop_watches_.pop_back();
  for (const auto& [name, range] : w.read_first) {
    auto changed = w.changed.find(name);
    if (changed == w.changed.end()) continue;
    const Value& entry = w.entry.at(name);
    if (entry.is<ArrayValue>() && changed->second.is<ArrayValue>())
      error(ErrorKind::UnsupportedFeature, range,
            fmt::format("Variable {} is read here before the loop rebinds it: it names array {} on entry to the "
                        "loop and array {} after an iteration, and choosing an array at run time is not supported "
                        "yet by tile2cu",
                        name, fn_.arrays[entry.as<ArrayValue>()->param].name,
                        fn_.arrays[changed->second.as<ArrayValue>()->param].name));
    error(ErrorKind::Type, range,
          fmt::format("Variable {} is not a tile or scalar and cannot change inside a loop ({} on entry, {} after an "
                      "iteration; it is read here before the loop rebinds it)",
                      name, describe(entry), describe(changed->second)));
  }
}

}  // namespace tile2cu::sema
