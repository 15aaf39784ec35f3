#include "vertex_engine.hpp"

#include <mutex>
#include <optional>

#include <fmt/format.h>

#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/degree.hpp"
#include "courier/algo/kcore.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/algo/triangles.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
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
#include "fault_injection.hpp"
#include "local_ranks.hpp"
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
  }
  return out;
}

bool vertex_engine_runs(const std::string& algorithm) {
  for (const char* name : {"bfs", "sssp", "cc", "pagerank", "tc", "kcore", "degree"})
    if (algorithm == name) return true;
  return false;
}

nlohmann::json to_json(const engine::RunStats& stats, const dist::PartitionQuality& quality) {
  nlohmann::json per_round = nlohmann::json::array();
  for (const engine::RoundStats& round : stats.rounds)
    per_round.push_back({{"active", round.active},
                         {"compute_seconds", round.compute_seconds},
                         {"sync_seconds", round.sync_seconds},
                         {"messages", round.messages},
                         {"bytes", round.bytes},
                         {"buffer_bytes_peak", round.buffer_bytes_peak}});
  return {{"rounds", stats.rounds.size()},
          {"per_round", std::move(per_round)},
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
      graph, channel, threads,
      [&](engine::Engine& e) {
        maybe_fail(channel.rank(), "run");
        outcome.result = run_algorithm(algorithm, e, options, facts);
      },
      placement);
  return outcome;
}

// Before any rank starts: what every rank would refuse alike.
void check_layer(const std::string& algorithm, const VertexEngineOptions& engine_options, bool under_mpi) {
  if (!vertex_engine_runs(algorithm))
    throw InputError(fmt::format("the vertex engine has no '{}' yet: use --engine seq", algorithm));
  if (!under_mpi && engine_options.comm != "lci")
    throw InputError(fmt::format("--comm {} needs MPI: run courier under mpirun (without a launcher, ranks are "
                                 "threads of one process and talk through --comm lci)",
                                 engine_options.comm));
  if (engine_options.ranks < 1) throw InputError("--ranks must be at least 1");
  sync::parse_progress_mode(engine_options.progress);  // a bad value is an InputError naming the choices
  if (engine_options.progress != "auto" && engine_options.comm != "lci")
    throw InputError(fmt::format("--progress {} is for --comm lci (the {} layer makes its own progress)",
                                 engine_options.progress, engine_options.comm));
}

// This rank's partition, loaded in parts, and what the algorithm needs to know about the whole
// graph (computed collectively). Every error here is the same on every rank (dist::LoadError).
struct Loaded {
  dist::DistributedGraph graph;
  RunFacts facts;
};

Loaded load_rank(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                 const RunOptions& options, const VertexEngineOptions& engine_options, sync::Channel& channel) {
  dist::DistributedLoadOptions d;
  d.policy = engine_options.policy;
  d.load = load;
  // Triangles and cores are defined on the undirected simple graph, as the references take it.
  d.simple_undirected = algorithm == "tc" || algorithm == "kcore";
  d.with_in_edges = algorithm == "bfs" || algorithm == "cc" || algorithm == "pagerank";  // pull needs them
  d.before_step = failure_hook(channel.rank());
  const dist::Collective collective{channel.rank(), channel.ranks(), [&channel](std::vector<dist::Bytes> outgoing) {
                                      return sync::exchange_all(channel, std::move(outgoing));
                                    }};
  Loaded loaded{dist::load_distributed(graph, d, collective), {}};
  const graph::vertex_t n = loaded.graph.graph.global_vertices();
  if (algorithm == "bfs" || algorithm == "sssp") {
    if (options.source == graph::kNoVertex) {
      loaded.facts.source = loaded.graph.largest_out_degree;
    } else if (options.source >= n) {
      throw dist::LoadError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", options.source,
                                        n == 0 ? 0 : n - 1));
    } else {
      loaded.facts.source = options.source;
    }
  }
  if (algorithm == "sssp" && loaded.graph.weight_type != graph::WeightType::u32)
    throw dist::LoadError("the vertex engine's sssp needs uint32 edge weights (generate with --weights, or use --engine seq)");
  return loaded;
}

// Rank 0's outcome and its partition's facts, as the run reports them.
VertexRun finish(const std::string& algorithm, RankOutcome root, const dist::DistributedGraph& graph,
                 const RunOptions& options) {
  VertexRun run;
  run.result = summarise(algorithm, std::move(root.result.values), root.result.facts, options, graph.loaded_edges);
  run.stats = to_json(root.stats, graph.quality);
  run.vertices = graph.graph.global_vertices();
  run.edges = graph.loaded_edges;
  run.load_seconds = graph.load_seconds;
  run.partition_seconds = graph.partition_seconds;
  return run;
}

}  // namespace

VertexRun run_vertex(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                     const RunOptions& options, const VertexEngineOptions& engine_options) {
  check_layer(algorithm, engine_options, false);
  VertexRun run;
  // A rank's failure that the others cannot agree on ends the process (local_ranks.hpp).
  const sync::ProgressBudget budget{.ranks_on_node = engine_options.ranks,
                                    .threads_per_rank = engine_options.threads,
                                    .ranks_in_process = engine_options.ranks};
  run_local_ranks(engine_options.ranks, [&](comm::Runtime& runtime) {
    sync::LciChannel channel(runtime, sync::LciChannel::options_for(budget));
    const Loaded loaded = load_rank(algorithm, graph, load, options, engine_options, channel);
    // Ranks are threads of this process: each takes its own slice of the PUs.
    const PlacementOptions placement{engine_options.pin, runtime.rank(), runtime.size()};
    Timer timer;
    RankOutcome mine =
        run_rank(algorithm, loaded.graph.graph, channel, engine_options.threads, options, loaded.facts, placement);
    const double run_seconds = channel.max_all(timer.lap());
    if (runtime.rank() == 0) {
      run = finish(algorithm, std::move(mine), loaded.graph, options);
      run.run_seconds = run_seconds;
      run.progress_thread = runtime.options().progress_thread;
    }
  }, sync::LciChannel::runtime_options(sync::parse_progress_mode(engine_options.progress), budget));
  return run;
}

#ifdef COURIER_HAVE_MPI
VertexRun run_vertex_mpi(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                         const RunOptions& options, const VertexEngineOptions& engine_options, const MpiSession& mpi) {
  check_layer(algorithm, engine_options, true);
  // The layer: Courier's runtime on the mpi transport, or one of the MPI baselines.
  std::unique_ptr<comm::Runtime> runtime;
  std::unique_ptr<sync::Channel> channel;
  if (engine_options.comm == "lci") {
    std::unique_ptr<net::Device> device = net::make_mpi_device();
    const sync::ProgressBudget budget = sync::process_budget(*device, engine_options.threads);
    runtime = std::make_unique<comm::Runtime>(
        std::move(device), sync::LciChannel::runtime_options(sync::parse_progress_mode(engine_options.progress), budget));
    channel = std::make_unique<sync::LciChannel>(*runtime, sync::LciChannel::options_for(budget));
  } else {
    channel = sync::make_mpi_channel(engine_options.comm, MPI_COMM_WORLD);
  }
  const auto close = [&] {
    channel.reset();  // before the runtime under it
    if (runtime) runtime->shutdown();
  };
  std::optional<Loaded> loaded;
  try {
    // An agreed LoadError passes on; anything else on one rank ends the run at once.
    ending_the_run_on_failure(mpi.rank(), mpi.ranks(), [&] {
      loaded.emplace(load_rank(algorithm, graph, load, options, engine_options, *channel));
    });
  } catch (const dist::LoadError&) {
    close();  // every rank is here: shut down together, then report
    throw;
  }
  if (channel->rank() != mpi.rank() || channel->ranks() != mpi.ranks())
    throw Error(fmt::format("the {} channel numbers ranks unlike MPI_COMM_WORLD", engine_options.comm));
  // The others wait for this rank in the layer's exchanges: a failure here ends the run at once.
  RankOutcome outcome;
  double run_seconds = 0;
  ending_the_run_on_failure(mpi.rank(), mpi.ranks(), [&] {
    Timer timer;
    outcome = run_rank(algorithm, loaded->graph.graph, *channel, engine_options.threads, options, loaded->facts,
                       {.pin = engine_options.pin});
    run_seconds = channel->max_all(timer.lap());
  });
  const bool progress_thread = runtime && runtime->options().progress_thread;
  close();
  VertexRun run = finish(algorithm, std::move(outcome), loaded->graph, options);
  run.run_seconds = run_seconds;
  run.progress_thread = progress_thread;
  return run;
}
#endif

}  // namespace courier::cli
