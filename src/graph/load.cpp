#include "courier/graph/load.hpp"

#include "courier/graph/transform.hpp"

namespace courier::graph {

bool is_generator_spec(const std::string& graph) {
  GeneratorOptions ignored;
  return parse_generator_spec(graph, ignored);
}

EdgeList apply_transforms(EdgeList edges, const LoadOptions& options) {
  if (options.symmetrize) edges = symmetrize(edges);
  if (options.drop_self_loops) edges = remove_self_loops(edges);
  if (options.dedupe) edges = remove_duplicate_edges(edges);
  return edges;
}

EdgeList load_edge_list(const std::string& graph, const LoadOptions& options) {
  GeneratorOptions generator;
  generator.seed = options.seed;
  generator.weights = options.weights;
  generator.threads = options.threads;
  ReadOptions read = options.read;
  read.symmetrize = false;  // one place does the transforms, in one order
  EdgeList edges = options.memory                           ? to_edge_list(*options.memory)
                   : parse_generator_spec(graph, generator) ? generate(generator)
                                                            : read_edge_list(graph, read);
  return apply_transforms(std::move(edges), options);
}

Csr load_graph(const std::string& graph, const LoadOptions& options) {
  const bool transforms = options.symmetrize || options.drop_self_loops || options.dedupe;
  if (options.memory && !transforms) return *options.memory;
  if (!transforms && !options.memory && !is_generator_spec(graph) && format_from_path(graph) == Format::csr)
    return read_csr(graph, options.read);
  Csr csr = build_csr(load_edge_list(graph, options));
  // Symmetrized here, so known symmetric; dropping self loops and duplicates keeps it so. (A symmetric
  // source transformed otherwise is not re-examined: unknown, which is always safe.)
  csr.set_symmetric(options.symmetrize);
  return csr;
}

}  // namespace courier::graph
