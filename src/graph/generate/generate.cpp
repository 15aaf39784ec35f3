#include "courier/graph/generate.hpp"

#include <fmt/format.h>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/parallel.hpp"
#include "edge_generators.hpp"

namespace courier::graph {

namespace {

void check_options(const GeneratorOptions& options) {
  if (options.scale < kMinGeneratorScale || options.scale > kMaxGeneratorScale)
    throw InputError(fmt::format("generator scale {} is outside {}..{}; pick a scale in that range",
                                 options.scale, kMinGeneratorScale, kMaxGeneratorScale));
  if (options.edge_factor < 1 || options.edge_factor > kMaxEdgeFactor)
    throw InputError(fmt::format("generator edge factor {} is outside 1..{}", options.edge_factor,
                                 kMaxEdgeFactor));
}

}  // namespace

edge_t generated_edge_count(const GeneratorOptions& options) {
  check_options(options);
  return static_cast<edge_t>(options.edge_factor) << options.scale;
}

EdgeList generate(const GeneratorOptions& options) {
  return generate_range(options, 0, generated_edge_count(options));
}

EdgeList generate_range(const GeneratorOptions& options, edge_t first, edge_t last) {
  const edge_t total = generated_edge_count(options);
  if (first > last || last > total)
    throw Error(fmt::format("generate_range: [{}, {}) is not a range of the {} edges", first, last, total));
  check_memory(fmt::format("generating {} edges of {}", last - first, generator_spec(options)),
               (last - first) * (sizeof(Edge) + (options.weights ? sizeof(std::uint32_t) : 0)));
  EdgeList list;
  list.num_vertices = vertex_t{1} << options.scale;
  list.edges.resize(last - first);
  std::vector<std::uint32_t> weights(options.weights ? last - first : 0);
  // Chunks are independent: edge first + i is the same whichever thread draws it.
  parallel_for(last - first, options.threads, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    const std::span<Edge> out(list.edges.data() + begin, end - begin);
    if (options.kind == Generator::kronecker)
      detail::kronecker_edges(options, first + begin, out);
    else
      detail::uniform_edges(options, first + begin, out);
    if (options.weights)
      detail::random_weights(options, first + begin, std::span(weights.data() + begin, end - begin));
  });
  if (options.weights) list.weights = std::move(weights);
  return list;
}

}  // namespace courier::graph
