#include "vertex_engine.hpp"

#include <mutex>

#include <fmt/format.h>

#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/degree.hpp"
#include "courier/algo/kcore.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/algo/triangles.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/engine/gather.hpp"
#include "courier/engine/run.hpp"
#include "courier/graph/transform.hpp"
#include "courier/sync/lci_channel.hpp"
#include "sequential_engine.hpp"
#include "summary.hpp"

namespace courier::cli {

namespace {

template <class T>
std::vector<std::uint64_t> widen(const std::vector<T>& values) {
  return std::vector<std::uint64_t>(values.begin(), values.end());
}

// One rank's share of the work: the algorithm on this rank's engine, the result on rank 0.
struct RankResult {
  VertexValues values;
  RunFacts facts;
};

RankResult run_algorithm(const std::string& algorithm, engine::Engine& e, const RunOptions& options, RunFacts facts) {
  RankResult out;
  out.facts = facts;
  if (algorithm == "bfs") {
    out.values = engine::gather_masters<std::uint64_t>(e, algo::bfs(e, {.source = facts.source}));
  } else if (algorithm == "sssp") {
    out.values = engine::gather_masters<std::uint64_t>(e, algo::sssp(e, {.source = facts.source, .delta = 32}));
  } else if (algorithm == "cc") {
    out.values = widen(engine::gather_masters<graph::vertex_t>(e, algo::cc_union_find(e)));
  } else if (algorithm == "pagerank") {
    algo::PagerankResult pr = algo::pagerank(e, {options.damping, options.tolerance, options.max_iterations});
    out.facts.iterations = pr.iterations;
    out.facts.converged = pr.converged;
    out.facts.last_change = pr.last_change;
    out.values = engine::gather_masters<double>(e, pr.rank);
  } else if (algorithm == "tc") {
    algo::TriangleResult tc = algo::triangles(e);
    out.facts.triangles = tc.total;
    out.values = engine::gather_masters<std::uint64_t>(e, tc.per_vertex);
  } else if (algorithm == "kcore") {
    out.values = widen(engine::gather_masters<std::uint32_t>(e, algo::kcore(e)));
  } else if (algorithm == "degree") {
    out.values = engine::gather_masters<std::uint64_t>(e, algo::out_degrees(e));
  } else {
    throw InputError(fmt::format("the vertex engine has no '{}' yet: use --engine seq", algorithm));
  }
  return out;
}

nlohmann::json to_json(const engine::RunStats& stats, const dist::PartitionQuality& quality) {
  return {{"rounds", stats.rounds.size()},
          {"compute_seconds", stats.compute_seconds},
          {"sync_seconds", stats.sync_seconds},
          {"total_seconds", stats.total_seconds},
          {"messages", stats.messages},
          {"bytes", stats.bytes},
          {"reduces", stats.reduces},
          {"broadcasts", stats.broadcasts},
          {"replication", quality.replication},
          {"edge_imbalance", quality.edge_imbalance}};
}

}  // namespace

VertexRun run_vertex(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                     const VertexEngineOptions& engine_options) {
  if (engine_options.comm != "lci")
    throw InputError(fmt::format("--comm {} needs MPI: run courier under mpirun (without a launcher, ranks are "
                                 "threads of one process and talk through --comm lci)",
                                 engine_options.comm));
  if (engine_options.ranks < 1) throw InputError("--ranks must be at least 1");
  RunFacts facts;
  if (algorithm == "bfs" || algorithm == "sssp") facts.source = resolve_source(graph, options);
  if (algorithm == "sssp" && graph.weight_type() != graph::WeightType::u32)
    throw InputError("the vertex engine's sssp needs uint32 edge weights (generate with --weights, or use --engine seq)");

  Timer timer;
  // Triangles and cores are defined on the undirected simple graph, as the references take it.
  const bool undirected = algorithm == "tc" || algorithm == "kcore";
  const graph::EdgeList edges = graph::to_edge_list(undirected ? graph::simple_undirected(graph) : graph);
  const bool in_edges = algorithm == "bfs" || algorithm == "cc" || algorithm == "pagerank";  // pull needs them
  const auto parts = dist::partition_in_memory(edges, engine_options.policy, engine_options.ranks, in_edges);
  VertexRun run;
  run.partition_seconds = timer.lap();

  RankResult root;
  engine::RunStats root_stats;
  comm::run_local(engine_options.ranks, [&](comm::Runtime& runtime) {
    sync::LciChannel channel(runtime);
    RankResult mine;
    const engine::RunStats stats =
        engine::run(parts[runtime.rank()], channel, engine_options.threads,
                    [&](engine::Engine& e) { mine = run_algorithm(algorithm, e, options, facts); });
    if (runtime.rank() == 0) {
      root = std::move(mine);
      root_stats = stats;
    }
  });
  run.run_seconds = timer.lap();
  run.result = summarise(algorithm, std::move(root.values), root.facts, options, graph.num_edges());
  run.stats = to_json(root_stats, dist::quality(parts));
  return run;
}

}  // namespace courier::cli
