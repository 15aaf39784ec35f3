#pragma once
// Options that an engine or an algorithm declares for itself (OptionSpec), and the values a run
// gives them (Options). The CLI makes one --NAME per declared name; a C++ program or a binding
// sets them by name. Adding an engine or an algorithm with options of its own touches only its
// own files.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "courier/graph/types.hpp"

namespace courier::harness {

struct OptionSpec {
  enum class Kind {
    value,     // --NAME VALUE
    flag,      // --NAME sets "true"
    flag_off,  // --no-NAME sets "false"
  };
  std::string name{};    // as the command line spells it, without dashes: "source", "policy"
  std::string help{};    // one line; the CLI prefixes who uses the option
  std::string fallback{};  // the value when none is given, as text; empty: unset
  Kind kind = Kind::value;
  std::vector<std::string> choices{};  // accepted values, when a closed set
  // Throws InputError naming the option and what it accepts; empty: choices (if any) decide.
  std::function<void(const std::string&)> check{};
  char letter = 0;  // a one-letter alias (-s), or 0
  // Former names the CLI still accepts (without dashes), so that users' scripts keep working.
  std::vector<std::string> aliases{};
  // For an algorithm's option: the engines whose kernels read it; empty: every engine that runs
  // the algorithm. Given to another engine, the run is refused (an inert option is an error).
  std::vector<std::string> engines{};
};

// Checks `value` against `spec` (choices, then check); throws InputError naming --NAME.
void check_option(const OptionSpec& spec, const std::string& value);

// Checks for OptionSpec::check: a whole number, or a real, from `low` to `high` (InputError naming
// --NAME and the range).
std::function<void(const std::string&)> whole_number(std::string name, std::uint64_t low = 0,
                                                     std::uint64_t high = UINT64_MAX);
std::function<void(const std::string&)> real_number(std::string name, double low, double high);

// Option values by name, as text; typed reads parse and name the option in their errors.
class Options {
 public:
  void set(std::string name, std::string value) { values_[std::move(name)] = std::move(value); }
  bool has(std::string_view name) const { return values_.find(name) != values_.end(); }
  // InputError when the option has no value (a declared option always has one after resolve()).
  const std::string& text(std::string_view name) const;
  double real(std::string_view name) const;
  std::uint64_t count(std::string_view name) const;  // a non-negative integer
  bool flag(std::string_view name) const;            // "true" or "false"
  // A vertex id, or graph::kNoVertex when the option is unset.
  graph::vertex_t vertex(std::string_view name) const;
  const std::map<std::string, std::string, std::less<>>& all() const { return values_; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace courier::harness
