#include "engine/graph_share.hpp"

#include "courier/graph/load.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/sync/stack.hpp"

namespace courier::bench {

BenchGraph load_bench_graph(const std::string& spec, bool dedupe) {
  BenchGraph g;
  g.spec = spec;
  graph::LoadOptions options;
  options.symmetrize = true;
  options.dedupe = dedupe;
  options.weights = true;
  g.edges = graph::load_edge_list(spec, options);
  g.out_degree.assign(g.edges.num_vertices, 0);
  for (const graph::Edge& e : g.edges.edges) ++g.out_degree[e.src];
  for (graph::vertex_t v = 0; v < g.out_degree.size(); ++v)
    if (g.out_degree[v] > g.out_degree[g.source]) g.source = v;
  return g;
}

std::unique_ptr<dist::LocalGraph> partition_share(const BenchGraph& g, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const dist::PartitionPlan plan(dist::Policy::oec, ranks, g.out_degree);
  graph::EdgeList mine;
  mine.num_vertices = g.edges.num_vertices;
  const auto& weights = std::get<std::vector<std::uint32_t>>(g.edges.weights);
  std::vector<std::uint32_t> my_weights;
  for (std::size_t i = 0; i < g.edges.edges.size(); ++i) {
    const graph::Edge& e = g.edges.edges[i];
    if (plan.edge_owner(e.src, e.dst) != rank) continue;
    mine.edges.push_back(e);
    my_weights.push_back(weights[i]);
  }
  mine.weights = std::move(my_weights);
  auto local = std::make_unique<dist::LocalGraph>(plan, rank, mine, true);
  const auto stack = sync::Stack::open({.channel = "mpi-probe"}, comm);  // any channel agrees the mirror lists
  dist::connect_mirrors(*local, stack->collective());
  return local;
}

}  // namespace courier::bench
