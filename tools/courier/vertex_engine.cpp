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
#include "courier/sync/exchange.hpp"
#include "courier/sync/lci_channel.hpp"
#ifdef COURIER_HAVE_MPI
#include "courier/net/mpi_device.hpp"
#include "courier/sync/mpi_channel.hpp"
#endif
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
          {"buffer_bytes_peak", stats.buffer_bytes_peak},
          {"setup_seconds", stats.setup_seconds},
          {"replication", quality.replication},
          {"edge_imbalance", quality.edge_imbalance}};
}


// What every rank does once it has its partition and a channel: the algorithm, and the result
// and statistics on rank 0.
struct RankOutcome {
  RankResult result;
  engine::RunStats stats;
};

RankOutcome run_rank(const std::string& algorithm, const dist::LocalGraph& graph, sync::Channel& channel,
                     unsigned threads, const RunOptions& options, const RunFacts& facts,
                     const PlacementOptions& placement) {
  RankOutcome outcome;
  outcome.stats = engine::run(
      graph, channel, threads, [&](engine::Engine& e) { outcome.result = run_algorithm(algorithm, e, options, facts); },
      placement);
  return outcome;
}

// The checks and the edge list every launch path starts from.
struct Prepared {
  graph::EdgeList edges;
  bool in_edges = false;
  RunFacts facts;
};

Prepared prepare(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                 const VertexEngineOptions& engine_options, bool under_mpi) {
  if (!under_mpi && engine_options.comm != "lci")
    throw InputError(fmt::format("--comm {} needs MPI: run courier under mpirun (without a launcher, ranks are "
                                 "threads of one process and talk through --comm lci)",
                                 engine_options.comm));
  if (engine_options.ranks < 1) throw InputError("--ranks must be at least 1");
  Prepared prepared;
  if (algorithm == "bfs" || algorithm == "sssp") prepared.facts.source = resolve_source(graph, options);
  if (algorithm == "sssp" && graph.weight_type() != graph::WeightType::u32)
    throw InputError("the vertex engine's sssp needs uint32 edge weights (generate with --weights, or use --engine seq)");
  // Triangles and cores are defined on the undirected simple graph, as the references take it.
  const bool undirected = algorithm == "tc" || algorithm == "kcore";
  prepared.edges = graph::to_edge_list(undirected ? graph::simple_undirected(graph) : graph);
  prepared.in_edges = algorithm == "bfs" || algorithm == "cc" || algorithm == "pagerank";  // pull needs them
  return prepared;
}

VertexRun finish(const std::string& algorithm, RankOutcome root, const dist::PartitionQuality& quality,
                 const RunOptions& options, std::uint64_t edges) {
  VertexRun run;
  run.result = summarise(algorithm, std::move(root.result.values), root.result.facts, options, edges);
  run.stats = to_json(root.stats, quality);
  return run;
}

// This rank's edges, with their weights.
graph::EdgeList edges_of_rank(const graph::EdgeList& all, const dist::PartitionPlan& plan, dist::rank_t rank) {
  graph::EdgeList mine;
  mine.num_vertices = all.num_vertices;
  std::vector<graph::edge_t> picked;
  for (graph::edge_t i = 0; i < all.edges.size(); ++i)
    if (plan.edge_owner(all.edges[i].src, all.edges[i].dst) == rank) picked.push_back(i);
  mine.edges.reserve(picked.size());
  for (graph::edge_t i : picked) mine.edges.push_back(all.edges[i]);
  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<W, std::monostate>) {
          W weights;
          weights.reserve(picked.size());
          for (graph::edge_t i : picked) weights.push_back(w[i]);
          mine.weights = std::move(weights);
        }
      },
      all.weights);
  return mine;
}

}  // namespace

VertexRun run_vertex(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                     const VertexEngineOptions& engine_options) {
  Timer timer;
  const Prepared prepared = prepare(algorithm, graph, options, engine_options, false);
  const auto parts =
      dist::partition_in_memory(prepared.edges, engine_options.policy, engine_options.ranks, prepared.in_edges);
  const double partition_seconds = timer.lap();

  RankOutcome root;
  comm::run_local(engine_options.ranks, [&](comm::Runtime& runtime) {
    sync::LciChannel channel(runtime);
    // Ranks are threads of this process: each takes its own slice of the PUs.
    const PlacementOptions placement{engine_options.pin, runtime.rank(), runtime.size()};
    RankOutcome mine = run_rank(algorithm, parts[runtime.rank()], channel, engine_options.threads, options,
                                prepared.facts, placement);
    if (runtime.rank() == 0) root = std::move(mine);
  });
  VertexRun run = finish(algorithm, std::move(root), dist::quality(parts), options, graph.num_edges());
  run.partition_seconds = partition_seconds;
  run.run_seconds = timer.lap();
  return run;
}

#ifdef COURIER_HAVE_MPI
VertexRun run_vertex_mpi(const std::string& algorithm, const graph::Csr& graph, const RunOptions& options,
                         const VertexEngineOptions& engine_options, const MpiSession& mpi) {
  Timer timer;
  const Prepared prepared = prepare(algorithm, graph, options, engine_options, true);
  std::vector<graph::edge_t> degree(prepared.edges.num_vertices, 0);
  for (const graph::Edge& e : prepared.edges.edges)
    ++degree[engine_options.policy == dist::Policy::iec ? e.dst : e.src];
  const dist::PartitionPlan plan(engine_options.policy, mpi.ranks(), degree);
  dist::LocalGraph local(plan, mpi.rank(), edges_of_rank(prepared.edges, plan, mpi.rank()), prepared.in_edges);

  // The layer: Courier's runtime on the mpi transport, or one of the MPI baselines.
  std::unique_ptr<comm::Runtime> runtime;
  std::unique_ptr<sync::Channel> channel;
  if (engine_options.comm == "lci") {
    runtime = std::make_unique<comm::Runtime>(net::make_mpi_device(), sync::LciChannel::runtime_options());
    channel = std::make_unique<sync::LciChannel>(*runtime);
  } else {
    channel = sync::make_mpi_channel(engine_options.comm, MPI_COMM_WORLD);
  }
  sync::connect_mirrors(local, *channel);
  dist::PartitionQuality quality;
  quality.replication = static_cast<double>(channel->sum_all(std::uint64_t{local.proxies()})) /
                        static_cast<double>(std::max<graph::vertex_t>(1, plan.vertices()));
  const double mean_edges = static_cast<double>(channel->sum_all(std::uint64_t{local.edges()})) / mpi.ranks();
  quality.edge_imbalance =
      mean_edges == 0 ? 1.0 : channel->max_all(static_cast<double>(local.edges())) / mean_edges;
  const double partition_seconds = channel->max_all(timer.lap());

  RankOutcome outcome = run_rank(algorithm, local, *channel, engine_options.threads, options, prepared.facts,
                                 {.pin = engine_options.pin});
  channel.reset();  // before the runtime under it
  if (runtime) runtime->shutdown();
  VertexRun run = finish(algorithm, std::move(outcome), quality, options, graph.num_edges());
  run.partition_seconds = partition_seconds;
  run.run_seconds = timer.lap();
  return run;
}
#endif

}  // namespace courier::cli
