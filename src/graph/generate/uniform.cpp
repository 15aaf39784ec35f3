// Uniform random edges: both endpoints uniform in [0, 2^scale), from the top bits of one number
// each (the top bits of the mix are as good as any).
#include "courier/core/random.hpp"
#include "edge_generators.hpp"

namespace courier::graph::detail {

void uniform_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out) {
  const std::uint64_t key = stream_key(options.seed, kUniformStream);
  const int shift = 64 - options.scale;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t counter = 2 * (first + k);
    out[k] = {counter_random(key, counter) >> shift, counter_random(key, counter + 1) >> shift};
  }
}

}  // namespace courier::graph::detail
