#include "courier/engines/vertex.hpp"

#include <fmt/format.h>

#include <optional>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"
#include "courier/core/timer.hpp"
#include "courier/harness/fault_injection.hpp"
#include "courier/sync/stack.hpp"
#include "courier/vertex/gather.hpp"
#include "courier/vertex/run.hpp"
#include "local_stacks.hpp"

namespace courier::engines {

namespace {

using harness::Algorithm;
using harness::Launch;
using harness::RunSpec;

// What a rank learned while loading: its partition, and the request its kernel will get.
struct Loaded {
  dist::DistributedGraph graph;
  harness::Request request;
};

// This rank's partition, built on `threads` threads (build_threads), loaded in parts, and the
// source (computed collectively). Every error here is the same on every rank (dist::LoadError).
Loaded load_rank(const Algorithm& algorithm, const VertexKernel& kernel, const RunSpec& spec, sync::Stack& stack,
                 unsigned threads) {
  dist::DistributedLoadOptions d;
  d.policy = dist::parse_policy(spec.options.text("policy"));
  d.load = spec.load;
  d.simple_undirected = algorithm.needs.simple_undirected;
  d.with_in_edges =
      algorithm.needs.in_edges && (!algorithm.needs.in_edges_if || algorithm.needs.in_edges_if(spec.options));
  d.threads = threads;
  d.before_step = harness::failure_hook(stack.channel().rank());
  Loaded loaded{dist::load_distributed(spec.graph, d, stack.collective()), {spec.options, graph::kNoVertex}};
  const graph::vertex_t n = loaded.graph.graph.global_vertices();
  if (algorithm.needs.source) {
    const graph::vertex_t asked = spec.options.vertex("source");
    if (asked == graph::kNoVertex) {
      loaded.request.source = loaded.graph.largest_out_degree;
    } else if (asked >= n) {
      throw dist::LoadError(fmt::format("--source {} is not a vertex: the graph has vertices 0..{}", asked,
                                        n == 0 ? 0 : n - 1));
    } else {
      loaded.request.source = asked;
    }
  }
  if (kernel.integer_weights && loaded.graph.weight_type != graph::WeightType::u32)
    throw dist::LoadError(fmt::format("the vertex engine's {} needs uint32 edge weights (generate with --weights, or "
                                      "use --engine seq)",
                                      algorithm.name));
  return loaded;
}

// Every rank: the kernel on this rank's engine; the values gathered to rank 0 (empty elsewhere).
struct RankOutcome {
  harness::Output output;
  vertex::RunStats stats;
  double gather_seconds = 0;  // of the run's time: the values to rank 0, a phase of its own
};

RankOutcome run_rank(const VertexKernel& kernel, const Loaded& loaded, sync::Channel& channel, unsigned threads,
                     const PlacementOptions& placement) {
  RankOutcome outcome;
  outcome.stats = vertex::run(
      loaded.graph.graph, channel, threads,
      [&](vertex::Engine& e) {
        harness::maybe_fail(channel.rank(), "run");
        outcome.output = kernel.run(e, loaded.request);
        Timer gather;
        std::visit(
            [&](auto& mine) {
              using T = typename std::decay_t<decltype(mine)>::value_type;
              mine = vertex::gather_masters<T>(e, std::move(mine));
            },
            outcome.output.values);
        outcome.gather_seconds = gather.lap();
      },
      placement);
  return outcome;
}

// Rank 0's outcome and its partition's facts, as the run reports them.
harness::EngineRun finish(RankOutcome root, const Loaded& loaded, const RunSpec& spec, harness::RunTimes times,
                          bool progress_thread, const std::string& ranks_text, std::uint64_t peak_resident) {
  harness::EngineRun run;
  run.output = std::move(root.output);
  run.request = loaded.request;
  run.vertices = loaded.graph.graph.global_vertices();
  run.edges = loaded.graph.loaded_edges;
  run.run_seconds = times.run;
  run.phases = {{"load", "load", loaded.graph.load_seconds},
                {"partition", "partition", loaded.graph.partition_seconds},
                {"gather", "gather", times.gather}};
  auto stats = std::make_shared<VertexStats>();
  stats->run = std::move(root.stats);
  stats->quality = loaded.graph.quality;
  stats->load_seconds = loaded.graph.load_seconds;
  stats->partition_seconds = loaded.graph.partition_seconds;
  stats->partition_note = loaded.graph.note;
  stats->bytes = loaded.graph.bytes;
  stats->edges = loaded.graph.loaded_edges;
  stats->peak_resident_bytes = peak_resident;
  stats->channel = spec.options.text("channel");
  stats->progress_thread = progress_thread;
  const std::string& progress = spec.options.text("comm-progress");
  const std::string channel =
      stats->channel != "lci" ? stats->channel
      : progress != "auto"    ? "lci (progress " + progress + ")"
                              : std::string("lci (progress auto: ") + (progress_thread ? "thread" : "explicit") + ")";
  run.description = fmt::format("vertex engine, {} x {} threads, policy {}, channel {}", ranks_text, spec.threads,
                                spec.options.text("policy"), channel);
  run.stats = std::move(stats);
  return run;
}

sync::StackSpec stack_spec(const RunSpec& spec) {
  return {.channel = spec.options.text("channel"),
          .progress = sync::parse_progress_mode(spec.options.text("comm-progress")),
          .threads_per_rank = spec.threads};
}

class VertexEngine final : public harness::EngineFor<VertexKernel> {
 public:
  std::string_view name() const override { return "vertex"; }
  std::string_view about() const override {
    return "the distributed vertex-program engine (Gluon): partitioned graph, master/mirror sync";
  }
  bool distributed() const override { return true; }

  std::vector<harness::OptionSpec> options() const override {
    return {
        {.name = "policy",
         .help = "partition policy (oec, iec, cvc, hash)",
         .fallback = "oec",
         .choices = {"oec", "iec", "cvc", "hash"}},
        {.name = "channel",
         .help = "how the sync layer communicates (lci, mpi-probe, mpi-rma)",
         .fallback = "lci",
         .choices = {"lci", "mpi-probe", "mpi-rma"},
         .aliases = {"comm"}},
        {.name = "comm-progress",
         .help = "--channel lci: who drives each rank's communication runtime: auto (a progress thread only when "
                 "ranks on the node x --threads leave a hardware thread spare), thread (always a progress "
                 "thread), explicit (the threads that wait for messages)",
         .fallback = "auto",
         .check = [](const std::string& value) { sync::parse_progress_mode(value); }},
        {.name = "pin",
         .help = "do not pin each rank's threads to processing units",
         .fallback = "true",
         .kind = harness::OptionSpec::Kind::flag_off},
    };
  }

  void check(const Algorithm&, const RunSpec& spec, const Launch& launch) const override {
    const std::string& channel = spec.options.text("channel");
    if (!launch.under_mpi() && channel != "lci")
      throw InputError(
          fmt::format("--channel {} needs MPI: run courier under mpirun (without a launcher, ranks are "
                      "threads of one process and talk through --channel lci)",
                      channel));
    const std::string& progress = spec.options.text("comm-progress");
    if (progress != "auto" && channel != "lci")
      throw InputError(fmt::format("--comm-progress {} is for --channel lci (the {} channel makes its own progress)",
                                   progress, channel));
  }

  harness::EngineRun run(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const override {
    const VertexKernel& kernel = *algorithm.kernel<VertexKernel>(name());
    return launch.under_mpi() ? run_mpi(algorithm, kernel, spec, launch) : run_local(algorithm, kernel, spec);
  }

 private:
  static harness::EngineRun run_local(const Algorithm& algorithm, const VertexKernel& kernel, const RunSpec& spec) {
    harness::EngineRun run;
    run_local_stacks(spec.ranks, spec.threads, stack_spec(spec), [&](sync::Stack& stack) {
      const Loaded loaded = load_rank(algorithm, kernel, spec, stack, build_threads(spec.threads, spec.ranks));
      // Ranks are threads of this process: each takes its own slice of the PUs.
      const rank_t rank = stack.channel().rank();
      const PlacementOptions placement{spec.options.flag("pin"), rank, stack.channel().ranks()};
      Timer timer;
      RankOutcome mine = run_rank(kernel, loaded, stack.channel(), spec.threads, placement);
      const harness::RunTimes times = harness::RunTimes::slowest(stack.channel(), timer.lap(), mine.gather_seconds);
      if (rank == 0)
        run = finish(std::move(mine), loaded, spec, times, stack.progress_thread(),
                     fmt::format("{} ranks", spec.ranks), peak_resident_bytes());  // the ranks' process
    });
    return run;
  }

  static harness::EngineRun run_mpi([[maybe_unused]] const Algorithm& algorithm,
                                    [[maybe_unused]] const VertexKernel& kernel, [[maybe_unused]] const RunSpec& spec,
                                    [[maybe_unused]] const Launch& launch) {
#ifdef COURIER_HAVE_MPI
    std::unique_ptr<sync::Stack> stack = sync::Stack::open(stack_spec(spec), MPI_COMM_WORLD);
    std::optional<Loaded> loaded;
    // An agreed LoadError passes on (the stack closes on every rank as it unwinds); anything else
    // on one rank ends the run at once.
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(), [&] {
      loaded.emplace(load_rank(algorithm, kernel, spec, *stack, build_threads(spec.threads, 1)));
    });
    if (stack->channel().rank() != launch.rank() || stack->channel().ranks() != launch.ranks())
      throw Error(fmt::format("the {} channel numbers ranks unlike MPI_COMM_WORLD", spec.options.text("channel")));
    // The others wait for this rank in the channel's exchanges: a failure here ends the run at once.
    RankOutcome outcome;
    harness::RunTimes times;
    harness::ending_the_run_on_failure(launch.rank(), launch.ranks(), [&] {
      Timer timer;
      outcome = run_rank(kernel, *loaded, stack->channel(), spec.threads, {.pin = spec.options.flag("pin")});
      times = harness::RunTimes::slowest(stack->channel(), timer.lap(), outcome.gather_seconds);
    });
    const bool progress_thread = stack->progress_thread();
    const std::uint64_t peak_resident = stack->collective().sum(peak_resident_bytes());
    stack->close();
    return finish(std::move(outcome), *loaded, spec, times, progress_thread,
                  fmt::format("{} ranks (MPI)", launch.ranks()), peak_resident);
#else
    throw InputError("courier was built without MPI: run the vertex engine without a launcher, with --ranks");
#endif
  }
};

}  // namespace

namespace {

double per_edge(std::uint64_t bytes, std::uint64_t edges) {
  return edges == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(edges);
}

// Bytes and bytes per edge of each structure (issue 16): the partitions' summed over ranks, the
// channel's buffers on the busiest rank, and the run's peak resident memory summed over ranks.
nlohmann::json memory_json(const VertexStats& s) {
  nlohmann::json json = nlohmann::json::object();
  const std::pair<const char*, std::uint64_t> parts[] = {{"csr", s.bytes.csr},
                                                         {"in_edges", s.bytes.in_edges},
                                                         {"proxies", s.bytes.proxies},
                                                         {"maps", s.bytes.maps},
                                                         {"buffers", s.run.buffer_bytes_peak},
                                                         {"graph", s.bytes.total()},
                                                         {"peak_resident", s.peak_resident_bytes}};
  for (const auto& [name, bytes] : parts) {
    json[std::string(name) + "_bytes"] = bytes;
    json[std::string(name) + "_bytes_per_edge"] = per_edge(bytes, s.edges);
  }
  json["edges"] = s.edges;
  return json;
}

}  // namespace

nlohmann::json VertexStats::to_json() const {
  nlohmann::json per_round = nlohmann::json::array();
  for (const vertex::RoundStats& round : run.rounds)
    per_round.push_back({{"active", round.active},
                         {"levels", round.levels},
                         {"visited", round.visited},
                         {"scanned_words", round.scanned_words},
                         {"compute_seconds", round.compute_seconds},
                         {"sync_seconds", round.sync_seconds},
                         {"messages", round.messages},
                         {"bytes", round.bytes},
                         {"buffer_bytes_peak", round.buffer_bytes_peak},
                         {"direction", round.pulled ? "pull" : "push"}});
  nlohmann::json json = {{"rounds", run.rounds.size()},
                         {"levels", run.levels},
                         {"scanned_words", run.scanned_words},
                         {"per_round", std::move(per_round)},
                         {"compute_seconds", run.compute_seconds},
                         {"sync_seconds", run.sync_seconds},
                         {"total_seconds", run.total_seconds},
                         {"messages", run.messages},
                         {"bytes", run.bytes},
                         {"reduces", run.reduces},
                         {"broadcasts", run.broadcasts},
                         {"buffer_bytes_peak", run.buffer_bytes_peak},
                         {"setup_seconds", run.setup_seconds},
                         {"replication", quality.replication},
                         {"edge_imbalance", quality.edge_imbalance},
                         {"load_seconds", load_seconds},
                         {"partition_seconds", partition_seconds}};
  json["memory"] = memory_json(*this);
  if (!partition_note.empty()) json["partition_note"] = partition_note;
  json["channel"] = channel;
  if (channel == "lci") json["progress_thread"] = progress_thread;
  return json;
}

std::string VertexStats::describe(bool verbose) const {
  std::string text = fmt::format(
      "Engine:     {} rounds{}, compute {:.6f} s, communication {:.6f} s, {} messages, {} bytes\n"
      "Buffers:    peak {} bytes on the busiest rank, channel set-up {:.6f} s\n"
      "Partition:  replication {:.3f} proxies per vertex, edge imbalance {:.3f}\n",
      run.rounds.size(),
      run.levels > run.rounds.size() ? fmt::format(" ({} levels, some run by one rank alone)", run.levels) : "",
      run.compute_seconds, run.sync_seconds, run.messages, run.bytes, run.buffer_bytes_peak, run.setup_seconds,
      quality.replication, quality.edge_imbalance);
  if (!verbose) return text;
  if (!partition_note.empty()) text += fmt::format("            {}\n", partition_note);
  text += fmt::format(
      "Memory:     peak {} resident over all ranks ({:.1f} bytes per edge); per edge: CSR {:.2f}, in-edges {:.2f}, "
      "proxies {:.2f}, maps {:.2f}, buffers {:.2f} (busiest rank)\n",
      format_bytes(peak_resident_bytes), per_edge(peak_resident_bytes, edges), per_edge(bytes.csr, edges),
      per_edge(bytes.in_edges, edges), per_edge(bytes.proxies, edges), per_edge(bytes.maps, edges),
      per_edge(run.buffer_bytes_peak, edges));
  // Times and buffers the largest of any rank, messages and bytes of all.
  text +=
      fmt::format("Rounds:     {:>5} {:>12} {:>11} {:>11} {:>9} {:>12} {:>12} {:>8} {:>12} {:>5}\n", "round", "active",
                  "compute s", "comm s", "messages", "bytes", "buffer peak", "levels", "words scanned", "dir");
  for (std::size_t i = 0; i < run.rounds.size(); ++i) {
    const vertex::RoundStats& r = run.rounds[i];
    text += fmt::format("            {:>5} {:>12} {:>11.6f} {:>11.6f} {:>9} {:>12} {:>12} {:>8} {:>12} {:>5}\n", i,
                        r.active, r.compute_seconds, r.sync_seconds, r.messages, r.bytes, r.buffer_bytes_peak, r.levels,
                        r.scanned_words, r.pulled ? "pull" : "push");
  }
  return text;
}

std::shared_ptr<const harness::Engine> vertex_engine() { return std::make_shared<VertexEngine>(); }

}  // namespace courier::engines
