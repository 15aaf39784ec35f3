#include "courier/harness/registry.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "courier/core/error.hpp"

namespace courier::harness {

namespace {

bool names(const Algorithm& algorithm, std::string_view name) {
  return algorithm.name == name || std::ranges::find(algorithm.aliases, name) != algorithm.aliases.end();
}

}  // namespace

void Registry::add(std::shared_ptr<const Engine> engine) {
  for (const auto& known : engines_)
    if (known->name() == engine->name()) throw Error(fmt::format("registry: a second engine '{}'", engine->name()));
  engines_.push_back(std::move(engine));
}

void Registry::add(Algorithm algorithm) {
  for (const Algorithm& known : algorithms_) {
    if (names(known, algorithm.name)) throw Error(fmt::format("registry: a second algorithm '{}'", algorithm.name));
    for (const std::string& alias : algorithm.aliases)
      if (names(known, alias)) throw Error(fmt::format("registry: '{}' names two algorithms", alias));
  }
  algorithms_.push_back(std::move(algorithm));
}

const Algorithm& Registry::algorithm(std::string_view name) const {
  for (const Algorithm& algorithm : algorithms_)
    if (names(algorithm, name)) return algorithm;
  throw InputError(fmt::format("no algorithm '{}': choose one of {}", name, fmt::join(algorithm_names(), ", ")));
}

const Engine& Registry::engine(std::string_view name) const {
  for (const auto& engine : engines_)
    if (engine->name() == name) return *engine;
  throw InputError(fmt::format("no engine '{}': choose one of {}", name, fmt::join(engine_names(), ", ")));
}

std::vector<std::string> Registry::algorithm_names() const {
  std::vector<std::string> all;
  for (const Algorithm& algorithm : algorithms_) {
    all.push_back(algorithm.name);
    all.insert(all.end(), algorithm.aliases.begin(), algorithm.aliases.end());
  }
  return all;
}

std::vector<std::string> Registry::engine_names() const {
  std::vector<std::string> all;
  for (const auto& engine : engines_) all.emplace_back(engine->name());
  return all;
}

std::vector<Registry::Declared> Registry::options() const {
  std::vector<Declared> all;
  const auto declare = [&all](const OptionSpec& spec, const std::string& user) {
    const auto same = std::ranges::find_if(all, [&](const Declared& d) { return d.spec.name == spec.name; });
    if (same == all.end())
      all.push_back({spec, {user}});
    else
      same->users.push_back(user);
  };
  for (const auto& engine : engines_)
    for (const OptionSpec& spec : engine->options()) declare(spec, std::string(engine->name()));
  for (const Algorithm& algorithm : algorithms_)
    for (const OptionSpec& spec : algorithm.options)
      declare(spec, spec.engines.empty() ? algorithm.name
                                         : fmt::format("{} ({})", algorithm.name, fmt::join(spec.engines, ", ")));
  return all;
}

std::string Registry::matrix() const {
  std::size_t width = 9;
  for (const Algorithm& algorithm : algorithms_) width = std::max(width, algorithm.name.size());
  std::string table = fmt::format("{:<{}}", "algorithm", width);
  for (const auto& engine : engines_) table += fmt::format("  {:^8}", engine->name());
  table += "\n";
  for (const Algorithm& algorithm : algorithms_) {
    table += fmt::format("{:<{}}", algorithm.name, width);
    for (const auto& engine : engines_) table += fmt::format("  {:^8}", engine->runs(algorithm) ? "yes" : "-");
    table += "  " + algorithm.about;
    if (!algorithm.aliases.empty()) table += fmt::format(" (also: {})", fmt::join(algorithm.aliases, ", "));
    table += "\n";
  }
  return table;
}

}  // namespace courier::harness
