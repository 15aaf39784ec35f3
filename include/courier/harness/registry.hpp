#pragma once
// Registry: the engines and algorithms a program knows, by name. courier::builtin_registry()
// (algo/builtin.hpp) holds Courier's own; a downstream program may add its own to a copy.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "courier/harness/algorithm.hpp"
#include "courier/harness/engine.hpp"

namespace courier::harness {

class Registry {
 public:
  void add(std::shared_ptr<const Engine> engine);  // Error if the name is taken
  void add(Algorithm algorithm);                   // Error if the name or an alias is taken

  // By name or alias; InputError naming the choices.
  const Algorithm& algorithm(std::string_view name) const;
  const Engine& engine(std::string_view name) const;
  const std::vector<Algorithm>& algorithms() const { return algorithms_; }
  const std::vector<std::shared_ptr<const Engine>>& engines() const { return engines_; }
  std::vector<std::string> algorithm_names() const;  // names and aliases
  std::vector<std::string> engine_names() const;

  // Every option the engines and algorithms declare, once per name, with who declares it.
  struct Declared {
    OptionSpec spec;
    std::vector<std::string> users;  // engine and algorithm names
  };
  std::vector<Declared> options() const;

  // The algorithms x engines table (`courier list`).
  std::string matrix() const;

 private:
  std::vector<std::shared_ptr<const Engine>> engines_;
  std::vector<Algorithm> algorithms_;
};

}  // namespace courier::harness
