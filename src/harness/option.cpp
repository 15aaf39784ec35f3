#include "courier/harness/option.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "courier/core/error.hpp"
#include "courier/core/parse_number.hpp"

namespace courier::harness {

namespace {

std::uint64_t whole(std::string_view name, const std::string& text) {
  std::uint64_t value = 0;
  const ParseStatus status = parse_unsigned(text, value);
  if (status != ParseStatus::ok)
    throw InputError(fmt::format("--{} {}: {} (write a whole number, 0 or more)", name, text, describe(status)));
  return value;
}

double real(std::string_view name, const std::string& text) {
  double value = 0;
  const ParseStatus status = parse_floating(text, value);
  if (status != ParseStatus::ok)
    throw InputError(fmt::format("--{} {}: {} (write a decimal number)", name, text, describe(status)));
  return value;
}

}  // namespace

void check_option(const OptionSpec& spec, const std::string& value) {
  if (!spec.choices.empty() && std::ranges::find(spec.choices, value) == spec.choices.end())
    throw InputError(fmt::format("--{} {}: choose one of {}", spec.name, value, fmt::join(spec.choices, ", ")));
  if (spec.check) spec.check(value);
}

std::function<void(const std::string&)> whole_number(std::string name, std::uint64_t low, std::uint64_t high) {
  return [name, low, high](const std::string& value) {
    const std::uint64_t number = whole(name, value);
    if (number < low || number > high)
      throw InputError(fmt::format("--{} {}: write a whole number from {} to {}", name, value, low, high));
  };
}

std::function<void(const std::string&)> real_number(std::string name, double low, double high) {
  return [name, low, high](const std::string& value) {
    const double number = real(name, value);
    if (!(number >= low && number <= high))
      throw InputError(fmt::format("--{} {}: write a number from {} to {}", name, value, low, high));
  };
}

const std::string& Options::text(std::string_view name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) throw InputError(fmt::format("--{} has no value", name));
  return found->second;
}

double Options::real(std::string_view name) const { return harness::real(name, text(name)); }

std::uint64_t Options::count(std::string_view name) const { return whole(name, text(name)); }

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
