// Bound: a call's arguments matched to parameter names, as Python would, with cuTile-style
// errors for missing, unexpected and repeated arguments. Shared by the files that lower ct.*.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

// The positional-only parameters (before `/`) of cuTile's functions. cuTile names these by
// position in messages ("Invalid argument #1 of permute()"), the others by name; matching on
// the parameter's name too keeps a method of the same name (TiledView.load's index) named.
inline bool is_positional_only(const std::string& fn, const std::string& param) {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"num_tiles", {"array"}}, {"load", {"array"}}, {"store", {"array"}},
      {"load_advanced_indexing", {"array", "indices"}},
      {"store_advanced_indexing", {"array", "indices", "tile"}},
      {"gather", {"array", "indices"}}, {"scatter", {"array", "indices", "value"}},
      {"atomic_cas", {"array", "indices", "expected", "desired"}},
      {"atomic_xchg", {"array", "indices", "update"}}, {"atomic_add", {"array", "indices", "update"}},
      {"atomic_max", {"array", "indices", "update"}}, {"atomic_min", {"array", "indices", "update"}},
      {"atomic_and", {"array", "indices", "update"}}, {"atomic_or", {"array", "indices", "update"}},
      {"atomic_xor", {"array", "indices", "update"}}, {"arange", {"size"}}, {"astile", {"value"}},
      {"mma", {"x", "y"}}, {"mma_scaled", {"x", "x_scale", "y", "y_scale"}}, {"matmul", {"x", "y"}},
      {"expand_dims", {"x"}}, {"cat", {"tiles"}}, {"broadcast_to", {"x"}}, {"reshape", {"x"}},
      {"permute", {"x"}}, {"transpose", {"x"}}, {"astype", {"x", "dtype"}}, {"bitcast", {"x"}},
      {"pack_to_bytes", {"x"}}, {"unpack_from_bytes", {"x"}}, {"sum", {"x"}}, {"max", {"x"}},
      {"min", {"x"}}, {"prod", {"x"}}, {"argmax", {"x"}}, {"argmin", {"x"}}, {"reduce", {"x"}},
      {"cumsum", {"x"}}, {"cumprod", {"x"}}, {"scan", {"x"}}, {"extract", {"x"}}, {"insert", {"x"}},
      {"where", {"cond", "x", "y"}}, {"assert_", {"cond"}},
  };
  auto it = table.find(fn);
  return it != table.end() && std::find(it->second.begin(), it->second.end(), param) != it->second.end();
}

// Arguments matched to parameter names, as Python would.
class Bound {
 public:
  Bound(KernelLowering& k, const std::string& fn, CallArgs& args,
        const std::vector<std::string>& positional, const std::vector<std::string>& keyword_only,
        size_t required, SourceRange range)
      : k_(k), fn_(fn), range_(range), positional_(positional) {
    if (args.positional.size() > positional.size())
      k.error(ErrorKind::Type, range,
              fmt::format("{}() takes at most {} positional arguments but {} were given", fn,
                          positional.size(), args.positional.size()));
    for (size_t i = 0; i < args.positional.size(); ++i) {
      values_[positional[i]] = args.positional[i];
      ranges_[positional[i]] = args.positional_ranges[i];
    }
    for (size_t i = 0; i < args.keywords.size(); ++i) {
      const auto& [name, v] = args.keywords[i];
      bool known = std::find(positional.begin(), positional.end(), name) != positional.end() ||
                   std::find(keyword_only.begin(), keyword_only.end(), name) != keyword_only.end();
      if (!known)
        k.error(ErrorKind::Type, args.keyword_ranges[i],
                fmt::format("{}() got an unexpected keyword argument '{}'", fn, name));
      if (values_.count(name))
        k.error(ErrorKind::Type, args.keyword_ranges[i],
                fmt::format("{}() got multiple values for argument '{}'", fn, name));
      values_[name] = v;
      ranges_[name] = args.keyword_ranges[i];
    }
    for (size_t i = 0; i < required; ++i)
      if (!values_.count(positional[i]))
        k.error(ErrorKind::Type, range,
                fmt::format("{}() missing required argument '{}'", fn, positional[i]));
  }

  const Value* get(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  const Value& at(const std::string& name) const {
    if (auto* v = get(name)) return *v;
    k_.error(ErrorKind::Type, range_, fmt::format("{}() missing required argument '{}'", fn_, name));
  }
  SourceRange range_of(const std::string& name) const {
    auto it = ranges_.find(name);
    return it == ranges_.end() ? range_ : it->second;
  }
  std::string what(const std::string& name) const {
    if (is_positional_only(fn_, name)) {
      auto at = std::find(positional_.begin(), positional_.end(), name);
      if (at != positional_.end()) return fmt::format("argument #{} of {}()", at - positional_.begin() + 1, fn_);
    }
    return fmt::format("argument \"{}\" of {}()", name, fn_);
  }

 private:
  KernelLowering& k_;
  std::string fn_;
  SourceRange range_;
  std::vector<std::string> positional_;
  std::map<std::string, Value> values_;
  std::map<std::string, SourceRange> ranges_;
};

}  // namespace tile2cu::sema
