// Edge weights uniform in [1, 255], edge i's a pure function of (seed, i) like the edge itself.
#include "courier/core/random.hpp"
#include "edge_generators.hpp"

namespace courier::graph::detail {

void random_weights(const GeneratorOptions& options, edge_t first, std::span<std::uint32_t> out) {
  const std::uint64_t key = stream_key(options.seed, kWeightStream);
  for (std::size_t k = 0; k < out.size(); ++k)
    out[k] = 1 + static_cast<std::uint32_t>(random_below(counter_random(key, first + k), 255));
}

}  // namespace courier::graph::detail
