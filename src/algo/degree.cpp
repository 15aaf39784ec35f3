// Degree counting: the simplest vertex program, one sum-reduce of per-proxy edge counts.
#include "courier/algo/degree.hpp"

#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

std::vector<std::uint64_t> out_degrees(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  Field<std::uint64_t, sync::Sum> degree(g, 0, {At::source, At::master});
  engine.for_each_vertex(g.proxies(), [&](local_t v) {
    if (g.out().degree(v) != 0) degree.set(v, g.out().degree(v));
  });
  engine.sync(degree);
  return {degree.values().begin(), degree.values().begin() + g.masters()};
}

}  // namespace courier::algo
