#include "courier/harness/option.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "courier/core/error.hpp"
#include "courier/core/parse_number.hpp"

namespace courier::harness {

void check_option(const OptionSpec& spec, const std::string& value) {
  if (!spec.choices.empty() && std::ranges::find(spec.choices, value) == spec.choices.end())
    throw InputError(fmt::format("--{} {}: choose one of {}", spec.name, value, fmt::join(spec.choices, ", ")));
  if (spec.check) spec.check(value);
}

const std::string& Options::text(std::string_view name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) throw InputError(fmt::format("--{} has no value", name));
  return found->second;
}

double Options::real(std::string_view name) const {
  double value = 0;
  const ParseStatus status = parse_floating(text(name), value);
  if (status != ParseStatus::ok)
    throw InputError(fmt::format("--{} {}: {} (write a decimal number)", name, text(name), describe(status)));
  return value;
}

std::uint64_t Options::count(std::string_view name) const {
  std::uint64_t value = 0;
  const ParseStatus status = parse_unsigned(text(name), value);
  if (status != ParseStatus::ok)
    throw InputError(fmt::format("--{} {}: {} (write a whole number, 0 or more)", name, text(name), describe(status)));
  return value;
}

bool Options::flag(std::string_view name) const {
  const std::string& value = text(name);
  if (value == "true") return true;
  if (value == "false") return false;
  throw InputError(fmt::format("--{} {}: write true or false", name, value));
}

graph::vertex_t Options::vertex(std::string_view name) const {
  if (!has(name) || text(name).empty()) return graph::kNoVertex;
  return count(name);
}

}  // namespace courier::harness
