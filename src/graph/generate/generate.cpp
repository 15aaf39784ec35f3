#include "courier/graph/generate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/parallel.hpp"
#include "courier/core/progress.hpp"
#include "edge_generators.hpp"

namespace courier::graph {

namespace {

bool is_lattice(const GeneratorOptions& options) {
  return options.kind == Generator::path || options.kind == Generator::grid;
}

void check_options(const GeneratorOptions& options) {
  if (is_lattice(options)) {
    const std::uint64_t rows = options.kind == Generator::path ? 1 : options.rows;
    if (rows == 0 || options.columns == 0 || options.columns > kMaxLatticeVertices / rows)
      throw InputError(fmt::format("a lattice of {} x {} vertices: pick 1 to 2^40 vertices", rows, options.columns));
    return;
  }
  if (options.scale < kMinGeneratorScale || options.scale > kMaxGeneratorScale)
    throw InputError(fmt::format("generator scale {} is outside {}..{}; pick a scale in that range",
                                 options.scale, kMinGeneratorScale, kMaxGeneratorScale));
  if (options.edge_factor < 1 || options.edge_factor > kMaxEdgeFactor)
    throw InputError(fmt::format("generator edge factor {} is outside 1..{}", options.edge_factor,
                                 kMaxEdgeFactor));
  if (options.kind == Generator::kronecker && !rmat_probabilities_valid(options.a, options.b, options.c))
    throw InputError(
        fmt::format("R-MAT probabilities a={} b={} c={}: each must be in [0, 1] and their sum at most 1 "
                    "(d = 1 - a - b - c)",
                    options.a, options.b, options.c));
}

// Edges first, first + 1, ... of the generated graph into `out` (and their weights).
void draw(const GeneratorOptions& options, edge_t first, std::span<Edge> out, std::span<std::uint32_t> weights) {
  if (is_lattice(options)) {
    detail::lattice_edges(options, first, out);
    if (options.weights) detail::lattice_weights(options, first, weights);
    return;
  }
  if (options.kind == Generator::kronecker)
    detail::kronecker_edges(options, first, out);
  else
    detail::uniform_edges(options, first, out);
  if (options.weights) detail::random_weights(options, first, weights);
}

}  // namespace

edge_t generated_edge_count(const GeneratorOptions& options) {
  check_options(options);
  if (is_lattice(options)) return 2 * detail::lattice_edge_count(options);
  return static_cast<edge_t>(options.edge_factor) << options.scale;
}

vertex_t generated_vertex_count(const GeneratorOptions& options) {
  check_options(options);
  if (is_lattice(options)) return detail::lattice_rows(options) * options.columns;
  return vertex_t{1} << options.scale;
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
  list.num_vertices = generated_vertex_count(options);
  list.edges.resize(last - first);
  std::vector<std::uint32_t> weights(options.weights ? last - first : 0);
  Progress progress("generating " + generator_spec(options), last - first, 16u << 20, "edges");
  // Chunks are independent: edge first + i is the same whichever thread draws it. A thread's
  // share is drawn in blocks, each counted when done, so progress moves on a terminal.
  constexpr std::uint64_t block = 1u << 20;
  parallel_for(last - first, options.threads, [&](std::uint64_t share_begin, std::uint64_t share_end, unsigned) {
    for (std::uint64_t begin = share_begin; begin < share_end; begin += block) {
      const std::uint64_t end = std::min(share_end, begin + block);
      // No weights: an empty span, not an offset from the empty vector's null data().
      draw(
          options, first + begin, std::span<Edge>(list.edges.data() + begin, end - begin),
          options.weights ? std::span<std::uint32_t>(weights.data() + begin, end - begin) : std::span<std::uint32_t>());
      progress.add(end - begin);
    }
  });
  if (options.weights) list.weights = std::move(weights);
  return list;
}

}  // namespace courier::graph
