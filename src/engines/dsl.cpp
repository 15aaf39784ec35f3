// The dsl engine: the vertex engine's loading, partitioning and channels, a partition shaped as the
// program needs, and a generated program run on every rank.
#include "courier/engines/dsl.hpp"

#include <fmt/format.h>

#include <optional>

#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/partition.hpp"
#include "courier/engines/vertex.hpp"
#include "courier/harness/fault_injection.hpp"
#include "courier/sync/stack.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/vertex/run.hpp"
#include "local_stacks.hpp"

namespace courier::engines {

namespace {

using dsl::rt::Generation;
using dsl::rt::Layout;
using harness::Algorithm;
using harness::Launch;
using harness::RunSpec;

struct Loaded {
  dist::DistributedGraph graph;
  harness::Request request;
  Layout layout = Layout::out;
  bool own_in_edges = false;  // each rank's edges turned around too (split pulls, bottom-up steps)
};

Generation generation_of(const RunSpec& spec) {
  return spec.options.text("generation") == "naive" ? Generation::naive : Generation::optimised;
}

// This rank's partition, with its masters' rows as the program needs them, built on `threads`
// threads (build_threads), and the source.
Loaded load_rank(const Algorithm& algorithm, const DslKernel& kernel, const RunSpec& spec, sync::Stack& stack,
                 unsigned threads) {
  const Layout layout = kernel.needs.layout(generation_of(spec));
  const bool own_in_edges = kernel.needs.own_in_edges(generation_of(spec));
  dist::DistributedLoadOptions d;
  d.policy = layout == Layout::in ? dist::Policy::iec : dist::Policy::oec;
  d.load = spec.load;
  d.simple_undirected = algorithm.needs.simple_undirected;
  d.with_in_edges = layout == Layout::in || own_in_edges;
  d.threads = threads;
  d.before_step = harness::failure_hook(stack.channel().rank());
  Loaded loaded{dist::load_distributed(spec.graph, d, stack.collective()),
                {spec.options, graph::kNoVertex},
                layout,
                own_in_edges};
  if (layout == Layout::both) {
    // Every master's in-edges too: each edge copied to its destination's rank.
    Timer timer;
    loaded.graph.graph = dsl::rt::with_both_rows(loaded.graph.graph, stack.collective());
    loaded.graph.quality = dist::quality(loaded.graph.graph, stack.collective());
    loaded.graph.partition_seconds += stack.channel().max_all(timer.lap());
  }
  const graph::vertex_t n = loaded.graph.graph.global_vertices();
  if (algorithm.needs.source) {
    const graph::vertex_t asked = spec.options.vertex("source");
    if (asked == graph::kNoVertex) {
      loaded.request.source = loaded.graph.largest_out_degree;
    } else if (asked >= n) {
      throw dist::LoadError(
          fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", asked, n == 0 ? 0 : n - 1));
    } else {
      loaded.request.source = asked;
    }
  }
  if (kernel.integer_weights && loaded.graph.weight_type != graph::WeightType::u32)
    throw dist::LoadError(
        fmt::format("the dsl engine's {} needs uint32 edge weights (generate with --weights, or use --engine seq)",
                    algorithm.name));
  return loaded;
}

struct RankOutcome {
  harness::Output output;
  vertex::RunStats stats;
  dsl::rt::Phases phases;
  double gather_seconds = 0;  // of the run's time: the values to rank 0, a phase of its own
};

RankOutcome run_rank(const DslKernel& kernel, const Loaded& loaded, Generation generation, sync::Channel& channel,
                     unsigned threads, const PlacementOptions& placement) {
  RankOutcome outcome;
  outcome.stats = vertex::run(
      loaded.graph.graph, channel, threads,
      [&](vertex::Engine& e) {
        harness::maybe_fail(channel.rank(), "run");
        dsl::rt::Graph g(e, loaded.layout, generation);
        outcome.output = kernel.run(g, loaded.request);
        Timer gather;
        std::visit(
            [&](auto& mine) {
              using T = typename std::decay_t<decltype(mine)>::value_type;
              mine = vertex::gather_masters<T>(e, std::move(mine));
            },
            outcome.output.values);
        outcome.gather_seconds = gather.lap();
        // The phases of the slowest rank in each, and the counts of rank 0.
        outcome.phases = g.profile();
        dsl::rt::Phases& p = outcome.phases;
        for (double* seconds : {&p.compute_seconds, &p.reduction_seconds, &p.local_read_seconds,
                                &p.remote_read_seconds, &p.traversal_seconds, &p.agreement_seconds})
          *seconds = e.max_all(*seconds);
        // Accesses and queued entries of all ranks.
        for (std::uint64_t* count : {&p.queued, &p.local_gets, &p.remote_gets, &p.edge_searches, &p.accumulates})
          *count = e.sum_all(*count);
      },
      placement);
  return outcome;
}

harness::EngineRun finish(RankOutcome root, const Loaded& loaded, const RunSpec& spec, harness::RunTimes times,
                          bool progress_thread, const std::string& ranks_text) {
  harness::EngineRun run;
  run.output = std::move(root.output);
  run.request = loaded.request;
  run.vertices = loaded.graph.graph.global_vertices();
  run.edges = loaded.graph.loaded_edges;
  run.run_seconds = times.run;
  run.phases = {{"load", "load", loaded.graph.load_seconds},
                {"partition", "partition", loaded.graph.partition_seconds},
                {"gather", "gather", times.gather}};
  auto stats = std::make_shared<DslStats>();
  stats->run = std::move(root.stats);
  stats->phases = root.phases;
  stats->quality = loaded.graph.quality;
  stats->load_seconds = loaded.graph.load_seconds;
  stats->partition_seconds = loaded.graph.partition_seconds;
  stats->channel = spec.options.text("channel");
  stats->generation = generation_of(spec);
  stats->layout = loaded.layout;
  stats->progress_thread = progress_thread;
  run.description =
      fmt::format("dsl engine ({} generation), {} x {} threads, masters' {} edges{}, channel {}",
                  dsl::rt::to_string(stats->generation), ranks_text, spec.threads, dsl::rt::to_string(loaded.layout),
                  loaded.own_in_edges ? " (and each rank's in-edges)" : "", stats->channel);
  run.stats = std::move(stats);
  return run;
}

sync::StackSpec stack_spec(const RunSpec& spec) {
  return {.channel = spec.options.text("channel"),
          .progress = sync::parse_progress_mode(spec.options.text("comm-progress")),
          .threads_per_rank = spec.threads};
}

class DslEngine final : public harness::EngineFor<DslKernel> {
 public:
  std::string_view name() const override { return "dsl"; }
  std::string_view about() const override {
    return "programs in the graph language (dsl/programs), compiled by courierc, on the distributed vertex engine";
  }
  bool distributed() const override { return true; }

  std::vector<harness::OptionSpec> options() const override {
    std::vector<harness::OptionSpec> options;
    for (harness::OptionSpec& o : vertex_->options())
      if (o.name != "policy") options.push_back(std::move(o));  // the program decides the partition
    options.push_back({.name = "generation",
                       .help = "which code courierc generated to run: optimised (paper 004's transformations) or "
                               "naive (StarPlat's original distributed backend)",
                       .fallback = "optimised",
                       .choices = {"optimised", "naive"}});
    return options;
  }

  void check(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const override {
    vertex_->check(algorithm, spec, launch);  // the same channels, alike
  }

  harness::EngineRun run(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const override {
    const DslKernel& kernel = *algorithm.kernel<DslKernel>(name());
    return launch.under_mpi() ? run_mpi(algorithm, kernel, spec, launch) : run_local(algorithm, kernel, spec);
  }

 private:
  static harness::EngineRun run_local(const Algorithm& algorithm, const DslKernel& kernel, const RunSpec& spec) {
    harness::EngineRun run;
    run_local_stacks(spec.ranks, spec.threads, stack_spec(spec), [&](sync::Stack& stack) {
      const Loaded loaded = load_rank(algorithm, kernel, spec, stack, build_threads(spec.threads, spec.ranks));
      const rank_t rank = stack.channel().rank();
      const PlacementOptions placement{spec.options.flag("pin"), rank, stack.channel().ranks()};
      Timer timer;
      RankOutcome mine = run_rank(kernel, loaded, generation_of(spec), stack.channel(), spec.threads, placement);
      const harness::RunTimes times = harness::RunTimes::slowest(stack.channel(), timer.lap(), mine.gather_seconds);
      if (rank == 0)
        run = finish(std::move(mine), loaded, spec, times, stack.progress_thread(),
                     fmt::format("{} ranks", spec.ranks));
    });
    return run;
  }

  static harness::EngineRun run_mpi([[maybe_unused]] const Algorithm& algorithm,
                                    [[maybe_unused]] const DslKernel& kernel, [[maybe_unused]] const RunSpec& spec,
                                    [[maybe_unused]] const Launch& launch) {
#ifdef COURIER_HAVE_MPI
    std::unique_ptr<sync::Stack> stack = sync::Stack::open(stack_spec(spec), MPI_COMM_WORLD);
    std::optional<Loaded> loaded;
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(), [&] {
      loaded.emplace(load_rank(algorithm, kernel, spec, *stack, build_threads(spec.threads, 1)));
    });
    if (stack->channel().rank() != launch.rank() || stack->channel().ranks() != launch.ranks())
      throw Error(fmt::format("the {} channel numbers ranks unlike MPI_COMM_WORLD", spec.options.text("channel")));
    RankOutcome outcome;
    harness::RunTimes times;
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(), [&] {
      Timer timer;
      outcome = run_rank(kernel, *loaded, generation_of(spec), stack->channel(), spec.threads,
                         {.pin = spec.options.flag("pin")});
      times = harness::RunTimes::slowest(stack->channel(), timer.lap(), outcome.gather_seconds);
    });
    const bool progress_thread = stack->progress_thread();
    stack->close();
    return finish(std::move(outcome), *loaded, spec, times, progress_thread,
                  fmt::format("{} ranks (MPI)", launch.ranks()));
#else
    throw InputError("courier was built without MPI: run the dsl engine without a launcher, with --ranks");
#endif
  }

  std::shared_ptr<const harness::Engine> vertex_ = vertex_engine();
};

}  // namespace

nlohmann::json DslStats::to_json() const {
  nlohmann::json json = {{"generation", dsl::rt::to_string(generation)},
                         {"layout", dsl::rt::to_string(layout)},
                         {"rounds", run.rounds.size()},
                         {"messages", run.messages},
                         {"bytes", run.bytes},
                         {"total_seconds", run.total_seconds},
                         {"compute_seconds", phases.compute_seconds},
                         {"reduction_seconds", phases.reduction_seconds},
                         {"local_read_seconds", phases.local_read_seconds},
                         {"remote_read_seconds", phases.remote_read_seconds},
                         {"traversal_seconds", phases.traversal_seconds},
                         {"agreement_seconds", phases.agreement_seconds},
                         {"local_gets", phases.local_gets},
                         {"remote_gets", phases.remote_gets},
                         {"edge_searches", phases.edge_searches},
                         {"accumulates", phases.accumulates},
                         {"pulses", phases.pulses},
                         {"bottom_up_rounds", phases.bottom_up},
                         {"reductions", phases.reductions},
                         {"remote_reads", phases.remote_reads},
                         {"queued_entries", phases.queued},
                         {"buffer_bytes_peak", run.buffer_bytes_peak},
                         {"replication", quality.replication},
                         {"edge_imbalance", quality.edge_imbalance},
                         {"load_seconds", load_seconds},
                         {"partition_seconds", partition_seconds}};
  json["channel"] = channel;
  if (channel == "lci") json["progress_thread"] = progress_thread;
  return json;
}

std::string DslStats::describe(bool verbose) const {
  std::string text = fmt::format(
      "Engine:     {} generation, {} rounds, {} pulses ({} bottom-up), {} messages, {} bytes\n"
      "Phases:     compute {:.6f} s, reductions {:.6f} s ({} synchronised, {} queued entries, {} accumulates), "
      "local reads {:.6f} s ({} gets), remote reads {:.6f} s ({} refreshes or epochs, {} gets), traversal {:.6f} s "
      "({} edge searches), agreement {:.6f} s\n"
      "Partition:  masters' {} edges, replication {:.3f} proxies per vertex, edge imbalance {:.3f}\n",
      dsl::rt::to_string(generation), run.rounds.size(), phases.pulses, phases.bottom_up, run.messages, run.bytes,
      phases.compute_seconds, phases.reduction_seconds, phases.reductions, phases.queued, phases.accumulates,
      phases.local_read_seconds,
      phases.local_gets, phases.remote_read_seconds, phases.remote_reads, phases.remote_gets, phases.traversal_seconds,
      phases.edge_searches, phases.agreement_seconds, dsl::rt::to_string(layout), quality.replication,
      quality.edge_imbalance);
  if (!verbose) return text;
  text += fmt::format("Rounds:     {:>5} {:>12} {:>9} {:>12}\n", "round", "active", "messages", "bytes");
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    const vertex::RoundStats& r = run.rounds[i];
    text += fmt::format("            {:>5} {:>12} {:>9} {:>12}\n", i, r.active, r.messages, r.bytes);
  }
  return text;
}

std::shared_ptr<const harness::Engine> dsl_engine() { return std::make_shared<DslEngine>(); }

}  // namespace courier::engines
