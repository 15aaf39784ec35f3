#include "engine/kernels.hpp"

#include <cmath>

#include "courier/algo/builtin.hpp"
#include "courier/core/error.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/graph/reference/unreached.hpp"
#include "courier/harness/run.hpp"

namespace courier::bench {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: spreads every input bit
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// values[i] belongs to vertex global(i).
template <class Global>
Fingerprint print_of(const harness::Values& values, std::size_t count, Global&& global) {
  Fingerprint print;
  std::visit(
      [&](const auto& all) {
        for (std::size_t i = 0; i < count; ++i) {
          using T = typename std::decay_t<decltype(all)>::value_type;
          if constexpr (std::is_floating_point_v<T>)
            add_real(print, global(i), all[i]);
          else if constexpr (std::is_same_v<T, std::uint32_t>)  // 32-bit levels: as widen() reads them
            add_integer(print, global(i), all[i] == harness::kNarrowUnreached ? graph::reference::kUnreached : all[i]);
          else
            add_integer(print, global(i), static_cast<std::uint64_t>(all[i]));
        }
      },
      values);
  return print;
}

}  // namespace

Kernel find_kernel(const std::string& name, const KernelOptions& options) {
  const harness::Registry& registry = courier::builtin_registry();
  harness::RunSpec spec{.algorithm = name};
  const harness::Algorithm& algorithm = registry.algorithm(name);
  for (const harness::OptionSpec& option : algorithm.options) {
    if (option.name == "delta") spec.options.set("delta", std::to_string(options.delta));
    if (option.name == "direction" && !options.direction.empty()) spec.options.set("direction", options.direction);
    if (option.name == "method" && !options.direction.empty()) spec.options.set("method", "label-propagation");
    if (option.name == "iterations") {
      spec.options.set("tolerance", "0");
      spec.options.set("iterations", std::to_string(options.pagerank_iterations));
    }
  }
  spec = harness::resolve(registry, spec);  // the other options' defaults; InputError if vertex does not run it
  return {&algorithm, {spec.options, algorithm.needs.source ? options.source : graph::kNoVertex}};
}

bool Fingerprint::matches(const Fingerprint& other) const {
  return exact == other.exact && std::abs(approximate - other.approximate) <=
                                     1e-7 * std::max(std::abs(approximate), std::abs(other.approximate));
}

void combine(Fingerprint& into, const Fingerprint& other) {
  into.exact += other.exact;
  into.approximate += other.approximate;
}

void add_integer(Fingerprint& print, graph::vertex_t global, std::uint64_t value) {
  print.exact += mix(global * 0x9E3779B97F4A7C15ull ^ mix(value));  // wraps: a sum mod 2^64
}

void add_real(Fingerprint& print, graph::vertex_t global, double value) {
  print.approximate += value * static_cast<double>(global % 7 + 1);
}

Fingerprint run_kernel(const Kernel& kernel, vertex::Engine& engine) {
  const harness::Output output = kernel.algorithm->kernel<engines::VertexKernel>("vertex")->run(engine, kernel.request);
  return print_of(output.values, engine.graph().masters(), [&](std::size_t v) {
    return engine.graph().global_id(static_cast<dist::local_t>(v));
  });
}

Fingerprint run_reference(const Kernel& kernel, const graph::Csr& csr) {
  const harness::Output output = kernel.algorithm->reference(csr, kernel.request);
  return print_of(output.values, csr.num_vertices(), [](std::size_t v) { return static_cast<graph::vertex_t>(v); });
}

}  // namespace courier::bench
