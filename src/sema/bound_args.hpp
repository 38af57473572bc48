// Arguments of a builtin call matched to its parameter names, as Python would: shared by the
// lower_*.cpp files that implement ct.* functions.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sema/lowering.hpp"

namespace tile2cu::sema {

// Arguments matched to parameter names, as Python would.
class Bound {
 public:
  Bound(KernelLowering& k, const std::string& fn, CallArgs& args,
        const std::vector<std::string>& positional, const std::vector<std::string>& keyword_only,
        size_t required, SourceRange range)
      : k_(k), fn_(fn), range_(range) {
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
    return fmt::format("argument \"{}\" of {}()", name, fn_);
  }

 private:
  KernelLowering& k_;
  std::string fn_;
  SourceRange range_;
  std::map<std::string, Value> values_;
  std::map<std::string, SourceRange> ranges_;
};

}  // namespace tile2cu::sema
