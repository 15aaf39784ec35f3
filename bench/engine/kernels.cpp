#include "engine/kernels.hpp"

#include <cmath>

#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/core/error.hpp"
#include "courier/graph/reference.hpp"

namespace courier::bench {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: spreads every input bit
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class T>
Fingerprint masters_print(engine::Engine& engine, const std::vector<T>& values) {
  Fingerprint local;
  for (dist::local_t v = 0; v < engine.graph().masters(); ++v) {
    if constexpr (std::is_floating_point_v<T>)
      add_real(local, engine.graph().global_id(v), values[v]);
    else
      add_integer(local, engine.graph().global_id(v), static_cast<std::uint64_t>(values[v]));
  }
  return local;
}

template <class T>
Fingerprint whole_print(const std::vector<T>& values) {
  Fingerprint print;
  for (graph::vertex_t v = 0; v < values.size(); ++v) {
    if constexpr (std::is_floating_point_v<T>)
      add_real(print, v, values[v]);
    else
      add_integer(print, v, static_cast<std::uint64_t>(values[v]));
  }
  return print;
}

}  // namespace

bool Fingerprint::matches(const Fingerprint& other) const {
  return exact == other.exact &&
         std::abs(approximate - other.approximate) <= 1e-9 * std::max(std::abs(approximate), std::abs(other.approximate));
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

Fingerprint run_kernel(const std::string& kernel, engine::Engine& engine, const KernelOptions& options) {
  if (kernel == "bfs") return masters_print(engine, algo::bfs(engine, {.source = options.source}));
  if (kernel == "cc") return masters_print(engine, algo::cc_union_find(engine));
  if (kernel == "sssp") return masters_print(engine, algo::sssp(engine, {.source = options.source, .delta = options.delta}));
  if (kernel == "pagerank") {
    const algo::PagerankResult result =
        algo::pagerank(engine, {.tolerance = 0, .max_iterations = options.pagerank_iterations});
    return masters_print(engine, result.rank);
  }
  throw InputError("engine_bench: no kernel '" + kernel + "' (choose from bfs, cc, sssp, pagerank)");
}

Fingerprint run_reference(const std::string& kernel, const graph::Csr& csr, const KernelOptions& options) {
  namespace ref = graph::reference;
  if (kernel == "bfs") return whole_print(ref::bfs(csr, options.source).level);
  if (kernel == "cc") return whole_print(ref::connected_components(csr));
  if (kernel == "sssp") return whole_print(ref::sssp(csr, options.source).dist_int);
  if (kernel == "pagerank") return whole_print(ref::pagerank(csr, {0.85, 0, options.pagerank_iterations}).rank);
  throw InputError("engine_bench: no kernel '" + kernel + "' (choose from bfs, cc, sssp, pagerank)");
}

}  // namespace courier::bench
