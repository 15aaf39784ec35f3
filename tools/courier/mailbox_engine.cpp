#include "mailbox_engine.hpp"

#include <algorithm>
#include <charconv>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "courier/algo/mailbox_cc.hpp"
#include "courier/algo/mailbox_degree.hpp"
#include "courier/algo/mailbox_spmv.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/graph/transform.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/routing.hpp"
#include "courier/mailbox/topology.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/sync/lci_channel.hpp"
#ifdef COURIER_HAVE_MPI
#include "courier/net/mpi_device.hpp"
#endif
#include "fault_injection.hpp"
#include "local_ranks.hpp"
#include "mailbox_engine_gather.hpp"
#include "sequential_engine.hpp"
#include "spmv_vector.hpp"
#include "summary.hpp"

namespace courier::cli {

namespace {

using graph::vertex_t;

// This rank's part of the graph, read by this rank alone (dist::read_part, as the vertex engine
// reads), with the per-edge transforms applied to it; the applications move every edge to where
// it lives themselves, so any split will do.
struct EdgeShare {
  graph::EdgeList part;
  std::vector<double> weights;  // spmv only; empty: every weight is 1
  vertex_t vertices = 0;        // of the whole graph (agreed)
  std::uint64_t edges = 0;      // of the whole graph, transforms applied (a sum over ranks)
  double load_seconds = 0;      // the slowest rank
};

std::vector<double> weights_as_double(const graph::EdgeList& edges) {
  return std::visit(
      [](const auto& w) {
        if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>)
          return std::vector<double>();
        else
          return std::vector<double>(w.begin(), w.end());
      },
      edges.weights);
}

// Collective over `channel`: every rank reads its part; a bad input throws dist::LoadError, the
// same on every rank.
EdgeShare read_share(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                     sync::Channel& channel) {
  const dist::Collective collective{channel.rank(), channel.ranks(), [&channel](std::vector<dist::Bytes> outgoing) {
                                      return sync::exchange_all(channel, std::move(outgoing));
                                    }};
  Timer timer;
  EdgeShare share;
  share.part = dist::read_part(graph, load, collective);
  // Symmetrize and self loops are per edge (a reverse follows its edge's weight): local to a part.
  if (load.symmetrize) share.part = graph::symmetrize(share.part);
  if (load.drop_self_loops) share.part = graph::remove_self_loops(share.part);
  if (algorithm == "spmv") share.weights = weights_as_double(share.part);
  share.vertices = share.part.num_vertices;
  share.edges = collective.sum(share.part.edges.size());
  share.load_seconds = collective.max(timer.lap());
  return share;
}

algo::DelegatePolicy delegate_policy(const std::string& text) {
  if (text == "auto") return {};
  if (text == "none") return algo::DelegatePolicy::none();
  std::uint64_t degree = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), degree);
  if (error != std::errc() || end != text.data() + text.size())
    throw InputError(fmt::format("--delegates {}: write auto, none, or a degree (vertices whose in + out degree is "
                                 "above it are delegated), e.g. --delegates 1000",
                                 text));
  return algo::DelegatePolicy::above(degree);
}

mailbox::Config mailbox_config(const MailboxEngineOptions& options) {
  mailbox::Config config;
  config.capacity_bytes = options.capacity;
  config.routing = mailbox::parse_routing(options.routing);
  if (!options.layout.empty()) config.layout = mailbox::parse_layout(options.layout);
  config.echo_config = options.verbose;
  return config;
}

// What one rank reports besides its values; fixed size, so it travels as it is.
struct RankReport {
  mailbox::Stats stats;        // the application's own mailbox
  mailbox::Stats setup_stats;  // degree count, announcements and edge moves (cc, spmv)
  double setup_seconds = 0;
  double run_seconds = 0;
  std::uint64_t delegates = 0;
  std::uint64_t delegate_threshold = 0;
  std::uint64_t label_changes = 0;  // cc
  std::uint64_t nonzeros = 0;       // spmv: nonzeros this rank keeps
};

template <class T>
struct RankOutcome {
  std::vector<T> values;  // round robin
  RankReport report;
};

RankOutcome<std::uint64_t> run_degree(comm::Runtime& runtime, const EdgeShare& share, vertex_t n,
                                      const mailbox::Config& config) {
  algo::MailboxDegrees d = algo::mailbox_degrees(runtime, share.part.edges, n, config, algo::DegreeCount::out);
  RankOutcome<std::uint64_t> out{std::move(d.counts), {}};
  out.report.stats = d.stats;
  out.report.run_seconds = d.seconds;
  return out;
}

RankOutcome<std::uint64_t> run_cc(comm::Runtime& runtime, const EdgeShare& share, vertex_t n,
                                  const mailbox::Config& config, const algo::DelegatePolicy& policy) {
  algo::MailboxComponents cc = algo::mailbox_cc(runtime, share.part.edges, n, {config, policy});
  RankOutcome<std::uint64_t> out{std::vector<std::uint64_t>(cc.labels.begin(), cc.labels.end()), {}};
  out.report = {cc.stats, cc.setup_stats, cc.setup_seconds, cc.seconds, cc.delegates, cc.delegate_threshold,
                cc.label_changes, 0};
  return out;
}

RankOutcome<double> run_spmv(comm::Runtime& runtime, const EdgeShare& share, vertex_t n, const mailbox::Config& config,
                             const algo::DelegatePolicy& policy) {
  algo::MailboxMatrix a(runtime, share.part.edges, share.weights, n, {config, policy});
  const algo::RoundRobin own(runtime.size(), runtime.rank(), n);
  std::vector<double> x(own.owned());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = spmv_x(own.global(i));
  Timer timer;
  RankOutcome<double> out{a.multiply(x), {}};
  out.report = {a.stats(), a.setup_stats(), a.setup_seconds(), timer.elapsed(), a.delegates().size(),
                a.delegates().threshold(), 0, a.local_nonzeros()};
  return out;
}

// Rank 0's view of the run.
struct Gathered {
  vertex_t vertices = 0;
  std::uint64_t edges = 0;
  double load_seconds = 0;
  VertexValues values;
  std::vector<RankReport> reports;
  std::string topology;
};

template <class T, class Run>
void run_and_gather(comm::Runtime& runtime, vertex_t n, const mailbox::Config& quiet, Run&& run, Gathered& g) {
  // The gathers' mailboxes exist before the application starts (see algo/mailbox_shuffle.hpp).
  RoundRobinGather<T> values(runtime, n, quiet);
  ReportGather<RankReport> reports(runtime, quiet);
  RankOutcome<T> out = run();
  g.values = values.run(out.values);
  g.reports = reports.run(out.report);
}

Gathered run_rank(const std::string& algorithm, comm::Runtime& runtime, const std::string& graph,
                  const graph::LoadOptions& load, const MailboxEngineOptions& options) {
  // The loader's channel: on every rank before any mailbox, so the endpoints match up.
  sync::LciChannel channel(runtime);
  const EdgeShare share = read_share(algorithm, graph, load, channel);
  const vertex_t n = share.vertices;
  const mailbox::Config config = mailbox_config(options);
  mailbox::Config quiet = config;
  quiet.echo_config = false;
  const algo::DelegatePolicy policy = delegate_policy(options.delegates);
  Gathered g;
  g.vertices = n;
  g.edges = share.edges;
  g.load_seconds = share.load_seconds;
  maybe_fail(runtime.rank(), "run");
  if (algorithm == "degree") {
    run_and_gather<std::uint64_t>(runtime, n, quiet, [&] { return run_degree(runtime, share, n, config); }, g);
  } else if (algorithm == "cc") {
    run_and_gather<std::uint64_t>(runtime, n, quiet, [&] { return run_cc(runtime, share, n, config, policy); }, g);
  } else {
    run_and_gather<double>(runtime, n, quiet, [&] { return run_spmv(runtime, share, n, config, policy); }, g);
  }
  const mailbox::Topology topology =
      config.layout ? mailbox::Topology::from_layout(*config.layout, runtime.size(), runtime.rank())
                    : mailbox::Topology::from_nodes(runtime.device().rank_nodes(), runtime.rank());
  g.topology = topology.describe();
  return g;
}

nlohmann::json to_json(const mailbox::Stats& s) {
  return {{"messages_local", s.messages_local},
          {"messages_remote", s.messages_remote},
          {"bytes_local", s.bytes_local},
          {"bytes_remote", s.bytes_remote},
          {"batches_local", s.batches_local},
          {"batches_remote", s.batches_remote},
          {"average_remote_batch_bytes", s.average_remote_batch_bytes()},
          {"messages_forwarded", s.messages_forwarded},
          {"messages_delivered", s.messages_delivered},
          {"exchanges", s.exchanges},
          {"send_retries", s.send_retries},
          {"termination_waves", s.termination_waves},
          {"peak_buffered_bytes", s.peak_buffered_bytes}};
}

nlohmann::json engine_stats(const std::string& algorithm, const MailboxEngineOptions& options, const Gathered& g,
                            bool under_mpi) {
  mailbox::Stats total, setup_total;
  double setup_seconds = 0, run_seconds = 0;
  nlohmann::json per_rank = nlohmann::json::array();
  for (std::size_t r = 0; r < g.reports.size(); ++r) {
    const RankReport& report = g.reports[r];
    total += report.stats;
    setup_total += report.setup_stats;
    setup_seconds = std::max(setup_seconds, report.setup_seconds);
    run_seconds = std::max(run_seconds, report.run_seconds);
    nlohmann::json rank = {{"rank", r},
                           {"setup_seconds", report.setup_seconds},
                           {"run_seconds", report.run_seconds},
                           {"mailbox", to_json(report.stats)}};
    if (algorithm == "cc") rank["label_changes"] = report.label_changes;
    if (algorithm == "spmv") rank["nonzeros"] = report.nonzeros;
    per_rank.push_back(std::move(rank));
  }
  const auto ranks = static_cast<double>(std::max<std::size_t>(1, g.reports.size()));
  nlohmann::json stats = {
      {"algorithm", algorithm},
      {"ranks", g.reports.size()},
      {"mpi", under_mpi},
      {"routing", mailbox::to_string(mailbox::parse_routing(options.routing))},
      {"layout", options.layout.empty() ? std::string("from the transport") : options.layout},
      {"topology", g.topology},
      {"capacity_bytes", options.capacity},
      {"setup_seconds", setup_seconds},
      {"run_seconds", run_seconds},
      {"messages_per_second_per_rank",
       run_seconds > 0 ? static_cast<double>(total.messages_delivered) / run_seconds / ranks : 0.0},
      {"mailbox", to_json(total)},
      {"per_rank", std::move(per_rank)},
      {"verbose", options.verbose},
  };
  if (algorithm != "degree") {
    const RankReport& first = g.reports.front();
    stats["delegates"] = first.delegates;
    stats["delegate_threshold"] = first.delegate_threshold == UINT64_MAX ? nlohmann::json(nullptr)
                                                                         : nlohmann::json(first.delegate_threshold);
    stats["setup_mailbox"] = to_json(setup_total);
  }
  return stats;
}

}  // namespace

void add_mailbox_options(CLI::App& command, MailboxEngineOptions& options) {
  command.add_option("--routing", options.routing, "mailbox: routing scheme: noroute, nl (node-local), nr (node-remote) or nlnr")
      ->capture_default_str();
  command.add_option("--layout", options.layout,
                     "mailbox: simulated nodes as NODESxCORES, e.g. 4x2 (default: the nodes the transport reports)");
  command.add_option("--capacity", options.capacity, "mailbox: bytes buffered before an exchange")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->capture_default_str();
  command.add_option("--delegates", options.delegates,
                     "mailbox cc, spmv: auto (degree above 16 x the mean), none, or a degree above which vertices are "
                     "replicated on every rank")
      ->capture_default_str();
  command.add_flag("-v,--verbose", options.verbose,
                   "mailbox: echo the configuration at start and each rank's statistics at the end; vertex: a "
                   "line of statistics per round");
}

bool mailbox_engine_runs(const std::string& algorithm) {
  return algorithm == "degree" || algorithm == "cc" || algorithm == "spmv";
}

void check_mailbox_options(const std::string& algorithm, const MailboxEngineOptions& options, int ranks) {
  if (!mailbox_engine_runs(algorithm))
    throw InputError(fmt::format("the mailbox engine runs degree, cc and spmv (paper 001's applications): run {} "
                                 "with --engine vertex or --engine seq",
                                 algorithm));
  if (ranks < 0) throw InputError("--ranks must be at least 1");
  const mailbox::Config config = mailbox_config(options);  // reads --routing and --layout
  if (config.layout && ranks > 0) mailbox::Topology::from_layout(*config.layout, ranks, 0);
  delegate_policy(options.delegates);
}

MailboxRun run_mailbox(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                       const MailboxEngineOptions& options, const MpiSession* mpi) {
  Timer timer;
  Gathered root;
  if (mpi == nullptr) {
    // A rank's failure that the others cannot agree on ends the process (local_ranks.hpp).
    run_local_ranks(options.ranks, [&](comm::Runtime& runtime) {
      Gathered mine = run_rank(algorithm, runtime, graph, load, options);
      if (runtime.rank() == 0) root = std::move(mine);
    });
  } else {
#ifdef COURIER_HAVE_MPI
    comm::Runtime runtime(net::make_mpi_device());
    try {
      // The others wait for this rank in the mailbox's exchanges: a failure ends the run at once.
      ending_the_run_on_failure(mpi->rank(), mpi->ranks(), [&] { root = run_rank(algorithm, runtime, graph, load, options); });
    } catch (const dist::LoadError&) {
      runtime.shutdown();  // every rank is here: shut down together, then report
      throw;
    }
    runtime.shutdown();
#else
    throw InputError("courier was built without MPI: run the mailbox engine without a launcher, with --ranks");
#endif
  }
  MailboxRun run;
  run.total_seconds = timer.lap();
  if (mpi != nullptr && mpi->rank() != 0) return run;  // rank 0 speaks for the run

  run.vertices = root.vertices;
  run.edges = root.edges;
  run.load_seconds = root.load_seconds;
  run.result = summarise(algorithm, std::move(root.values), RunFacts{}, RunOptions{}, root.edges);
  run.stats = engine_stats(algorithm, options, root, mpi != nullptr);
  run.setup_seconds = run.stats["setup_seconds"].get<double>();
  run.run_seconds = run.stats["run_seconds"].get<double>();
  run.description = fmt::format("mailbox engine, {} ranks{}, routing {}, {}, capacity {} B", root.reports.size(),
                                mpi ? " (MPI)" : "", run.stats["routing"].get<std::string>(), root.topology,
                                options.capacity);
  return run;
}

void check_mailbox_load(const graph::LoadOptions& load) {
  if (load.dedupe)
    throw InputError("--dedupe needs every copy of an edge on one rank, and the mailbox engine's ranks keep the "
                     "part they read: drop --dedupe, or run with --engine vertex or --engine seq");
}

void print_mailbox_summary(const nlohmann::json& stats) {
  const auto& m = stats["mailbox"];
  fmt::print("Mailbox:    {} delivered; records {} local + {} remote ({} forwarded); {} B remote in {} batches "
             "(mean {:.0f} B); {} exchanges; peak buffer {} B on one rank\n",
             m["messages_delivered"].get<std::uint64_t>(), m["messages_local"].get<std::uint64_t>(),
             m["messages_remote"].get<std::uint64_t>(), m["messages_forwarded"].get<std::uint64_t>(),
             m["bytes_remote"].get<std::uint64_t>(), m["batches_remote"].get<std::uint64_t>(),
             m["average_remote_batch_bytes"].get<double>(), m["exchanges"].get<std::uint64_t>(),
             m["peak_buffered_bytes"].get<std::uint64_t>());
  fmt::print("Rate:       {:.3f} M messages/s per rank\n", stats["messages_per_second_per_rank"].get<double>() / 1e6);
  if (stats.contains("delegates")) {
    const auto& threshold = stats["delegate_threshold"];
    fmt::print("Delegates:  {} ({})\n", stats["delegates"].get<std::uint64_t>(),
               threshold.is_null() ? std::string("none asked for")
                                   : fmt::format("degree above {}", threshold.get<std::uint64_t>()));
  }
  if (!stats["verbose"].get<bool>()) return;
  for (const auto& rank : stats["per_rank"]) {
    const auto& r = rank["mailbox"];
    fmt::print("  rank {:<3} run {:.6f} s, {} delivered, {} remote records in {} batches (mean {:.0f} B), "
               "{} exchanges, {} retries, {} waves, peak {} B\n",
               rank["rank"].get<std::size_t>(), rank["run_seconds"].get<double>(),
               r["messages_delivered"].get<std::uint64_t>(), r["messages_remote"].get<std::uint64_t>(),
               r["batches_remote"].get<std::uint64_t>(), r["average_remote_batch_bytes"].get<double>(),
               r["exchanges"].get<std::uint64_t>(), r["send_retries"].get<std::uint64_t>(),
               r["termination_waves"].get<std::uint64_t>(), r["peak_buffered_bytes"].get<std::uint64_t>());
  }
}

}  // namespace courier::cli
