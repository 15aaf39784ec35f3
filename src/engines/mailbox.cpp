#include "courier/engines/mailbox.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <type_traits>
#include <variant>

#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/graph/transform.hpp"
#include "courier/harness/fault_injection.hpp"
#include "courier/mailbox/routing.hpp"
#include "courier/mailbox/topology.hpp"
#include "courier/sync/stack.hpp"
#include "local_stacks.hpp"
#include "mailbox_gather.hpp"

namespace courier::engines {

namespace {

using graph::vertex_t;
using harness::Algorithm;
using harness::Launch;
using harness::RunSpec;

std::optional<std::uint64_t> delegate_threshold(const std::string& text) {
  if (text == "auto") return std::nullopt;
  if (text == "none") return UINT64_MAX;
  std::uint64_t degree = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), degree);
  if (error != std::errc() || end != text.data() + text.size())
    throw InputError(fmt::format("--delegates {}: write auto, none, or a degree (vertices whose in + out degree is "
                                 "above it are delegated), e.g. --delegates 1000",
                                 text));
  return degree;
}

// --mailbox-input: as-read (the default, paper 001's) or owner-placed.
bool owner_placed(const RunSpec& spec) { return spec.options.text("mailbox-input") == "owner-placed"; }

// --layout, or empty: the nodes the transport reports.
std::string layout_of(const RunSpec& spec) { return spec.options.has("layout") ? spec.options.text("layout") : ""; }

mailbox::Config mailbox_config(const RunSpec& spec) {
  mailbox::Config config;
  config.capacity_bytes = spec.options.count("capacity");
  config.routing = mailbox::parse_routing(spec.options.text("routing"));
  const std::string layout = layout_of(spec);
  if (!layout.empty()) config.layout = mailbox::parse_layout(layout);
  config.echo_config = spec.verbose;
  config.threads = spec.threads;
  return config;
}

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

// This rank's part of the graph, read by this rank alone (dist::read_part, as the vertex engine
// reads), with the per-edge transforms applied to it.
struct EdgeShare {
  graph::EdgeList part;
  std::vector<double> weights;  // when the kernel reads them; empty: every weight is 1
  vertex_t vertices = 0;        // of the whole graph (agreed)
  std::uint64_t edges = 0;      // of the whole graph, transforms applied (a sum over ranks)
  double load_seconds = 0;      // the slowest rank
};

// --mailbox-input owner-placed: every edge, with its weight, goes to its source's owner (v mod P).
struct PlacedEdge {
  graph::Edge edge;
  double weight;
};

// Its mailbox exists before the reading's collectives: a rank done reading may send at once
// (see algo/mailbox_shuffle.hpp).
class OwnerPlacement {
 public:
  OwnerPlacement(comm::Runtime& runtime, const mailbox::Config& config)
      : box_(
            runtime, [this](auto&, const PlacedEdge& e) { placed_.push_back(e); }, config) {}

  // Collective: this rank's edges (and weights, if any) become those whose source it owns.
  void run(EdgeShare& share);

 private:
  std::vector<PlacedEdge> placed_;
  mailbox::Mailbox<PlacedEdge> box_;  // last: its callback uses placed_
};

void OwnerPlacement::run(EdgeShare& share) {
  const auto P = static_cast<vertex_t>(box_.ranks());
  for (std::size_t i = 0; i < share.part.edges.size(); ++i) {
    const graph::Edge& e = share.part.edges[i];
    box_.async_send(static_cast<rank_t>(e.src % P), PlacedEdge{e, share.weights.empty() ? 1.0 : share.weights[i]});
  }
  box_.wait_empty();
  std::vector<PlacedEdge> placed = std::move(placed_);
  // Delivered in no particular order: sorted, a run is the same every time.
  std::sort(placed.begin(), placed.end(), [](const PlacedEdge& a, const PlacedEdge& b) {
    if (a.edge.src != b.edge.src) return a.edge.src < b.edge.src;
    return a.edge.dst != b.edge.dst ? a.edge.dst < b.edge.dst : a.weight < b.weight;
  });
  const bool weighted = !share.weights.empty();
  share.part.edges.resize(placed.size());
  share.weights.resize(weighted ? placed.size() : 0);
  for (std::size_t i = 0; i < placed.size(); ++i) {
    share.part.edges[i] = placed[i].edge;
    if (weighted) share.weights[i] = placed[i].weight;
  }
}

// Collective: every rank reads its part (its byte range or generator share, in file order: paper
// 001's loading), then with `owner_placed` hands every edge to its source's owner. A bad input
// throws dist::LoadError, the same on every rank.
EdgeShare read_share(const MailboxKernel& kernel, const RunSpec& spec, const dist::Collective& collective,
                     OwnerPlacement* owner_placed) {
  Timer timer;
  EdgeShare share;
  share.part = dist::read_part(spec.graph, spec.load, collective);
  // Symmetrize and self loops are per edge (a reverse follows its edge's weight): local to a part.
  if (spec.load.symmetrize) share.part = graph::symmetrize(share.part);
  if (spec.load.drop_self_loops) share.part = graph::remove_self_loops(share.part);
  if (kernel.weights) share.weights = weights_as_double(share.part);
  if (owner_placed != nullptr) owner_placed->run(share);
  share.vertices = share.part.num_vertices;
  share.edges = collective.sum(share.part.edges.size());
  share.load_seconds = collective.max(timer.lap());
  return share;
}

// Rank 0's view of the run.
struct Gathered {
  vertex_t vertices = 0;
  std::uint64_t edges = 0;
  double load_seconds = 0;
  harness::Values values;
  std::vector<MailboxReport> reports;
  std::string topology;
  double gather_seconds = 0;  // the values and reports to rank 0, as rank 0 saw it
};

template <class T>
void run_and_gather(const MailboxKernel& kernel, const MailboxShare& share, const mailbox::Config& quiet, Gathered& g) {
  // The gathers' mailboxes exist before the application starts (see algo/mailbox_shuffle.hpp).
  RoundRobinGather<T> values(share.runtime, share.vertices, quiet);
  ReportGather<MailboxReport> reports(share.runtime, quiet);
  MailboxResult out = kernel.run(share);
  Timer gather;
  g.values = values.run(std::get<std::vector<T>>(out.values));
  g.reports = reports.run(out.report);
  g.gather_seconds = gather.lap();
}

// The stack the mailbox runs on: Courier's runtime as it comes (the mailbox drives its own
// progress), and a plain lci channel on it for loading, made on every rank before any mailbox so
// the endpoints match up.
sync::StackSpec plain_stack() {
  return {.tune = [](comm::RuntimeOptions& runtime, sync::LciOptions& lci) {
    runtime = {};
    lci = {};
  }};
}

Gathered run_rank(const MailboxKernel& kernel, sync::Stack& stack, const RunSpec& spec) {
  comm::Runtime& runtime = *stack.runtime();
  const mailbox::Config config = mailbox_config(spec);
  mailbox::Config quiet = config;  // the engine's own mailboxes: placement and gathers
  quiet.echo_config = false;
  quiet.threads = 1;
  // The placement's mailbox exists before the reading's collectives (see algo/mailbox_shuffle.hpp).
  std::optional<OwnerPlacement> placement;
  if (owner_placed(spec)) placement.emplace(runtime, quiet);
  const EdgeShare share = read_share(kernel, spec, stack.collective(), placement ? &*placement : nullptr);
  const MailboxShare mine{runtime,         share.part.edges, share.weights, share.vertices,
                          config,          delegate_threshold(spec.options.text("delegates"))};
  Gathered g;
  g.vertices = share.vertices;
  g.edges = share.edges;
  g.load_seconds = share.load_seconds;
  harness::maybe_fail(runtime.rank(), "run");
  if (kernel.real_values)
    run_and_gather<double>(kernel, mine, quiet, g);
  else
    run_and_gather<std::uint64_t>(kernel, mine, quiet, g);
  const mailbox::Topology topology =
      config.layout ? mailbox::Topology::from_layout(*config.layout, runtime.ranks(), runtime.rank())
                    : mailbox::Topology::from_nodes(runtime.rank_nodes(), runtime.rank());
  g.topology = topology.describe();
  return g;
}

nlohmann::json to_json(const mailbox::Stats& s) {
  return {{"messages_local", s.messages_local},
          {"messages_self", s.messages_self},
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
          {"peak_buffered_bytes", s.peak_buffered_bytes},
          {"peak_in_flight_bytes", s.peak_in_flight_bytes},
          {"peak_backlog_bytes", s.peak_backlog_bytes},
          {"pauses", s.pauses}};
}

mailbox::Stats total(const std::vector<MailboxReport>& reports, mailbox::Stats MailboxReport::*which) {
  mailbox::Stats sum;
  for (const MailboxReport& report : reports) sum += report.*which;
  return sum;
}

class MailboxEngine final : public harness::EngineFor<MailboxKernel> {
 public:
  std::string_view name() const override { return "mailbox"; }
  std::string_view about() const override {
    return "paper 001's asynchronous mailbox (YGM): coalescing, routing, delegates";
  }
  bool distributed() const override { return true; }

  std::vector<harness::OptionSpec> options() const override {
    return {
        {.name = "routing",
         .help = "routing scheme: noroute, nl (node-local), nr (node-remote) or nlnr",
         .fallback = "noroute",
         .check = [](const std::string& value) { mailbox::parse_routing(value); }},
        {.name = "layout",
         .help = "simulated nodes as NODESxCORES, e.g. 4x2 (default: the nodes the transport reports)",
         .check =
             [](const std::string& value) {
               if (!value.empty()) mailbox::parse_layout(value);
             }},
        {.name = "capacity",
         .help = "bytes buffered before an exchange",
         .fallback = std::to_string(mailbox::Config{}.capacity_bytes),
         .check = harness::whole_number("capacity", 1, std::uint64_t{1} << 40)},
        {.name = "mailbox-input",
         .help = "as-read: each rank keeps the part of the input it reads (its byte range or generator share, in "
                 "file order), as paper 001 loads, so the messages cross ranks; owner-placed: every edge is first "
                 "moved to its source's owner (v mod ranks), so degree's messages stay on their rank",
         .fallback = "as-read",
         .choices = {"as-read", "owner-placed"}},
        {.name = "delegates",
         .help = "cc, spmv: auto (degree above 16 x the mean), none, or a degree above which vertices are "
                 "replicated on every rank",
         .fallback = "auto",
         .check = [](const std::string& value) { delegate_threshold(value); }},
    };
  }

  void check(const Algorithm&, const RunSpec& spec, const Launch& launch) const override {
    const std::string layout = layout_of(spec);
    if (!layout.empty())
      mailbox::Topology::from_layout(mailbox::parse_layout(layout), launch.under_mpi() ? launch.ranks() : spec.ranks, 0);
    if (spec.load.dedupe)
      throw InputError("--dedupe needs every copy of an edge on one rank, and the mailbox engine's ranks keep the "
                       "part they read: drop --dedupe, or run with --engine vertex or --engine seq");
  }

  harness::EngineRun run(const Algorithm& algorithm, const RunSpec& spec, const Launch& launch) const override {
    const MailboxKernel& kernel = *algorithm.kernel<MailboxKernel>(name());
    Timer timer;
    Gathered root;
    if (!launch.under_mpi()) {
      run_local_stacks(spec.ranks, 1, plain_stack(), [&](sync::Stack& stack) {
        Gathered mine = run_rank(kernel, stack, spec);
        if (stack.channel().rank() == 0) root = std::move(mine);
      });
    } else {
#ifdef COURIER_HAVE_MPI
      std::unique_ptr<sync::Stack> stack = sync::Stack::open(plain_stack(), MPI_COMM_WORLD);
      // The others wait for this rank in the mailbox's exchanges: a failure ends the run at once;
      // an agreed LoadError closes the stack on every rank as it unwinds.
      harness::ending_the_run_on_failure(launch.rank(), launch.ranks(),
                                         [&] { root = run_rank(kernel, *stack, spec); });
      stack->close();
#else
      throw InputError("courier was built without MPI: run the mailbox engine without a launcher, with --ranks");
#endif
    }
    const double total_seconds = timer.lap();
    harness::EngineRun run;
    if (!launch.speaker()) return run;  // rank 0 speaks for the run
    auto stats = std::make_shared<MailboxStats>();
    stats->reports = std::move(root.reports);
    stats->kernel = &kernel;
    stats->mpi = launch.under_mpi();
    stats->routing = mailbox::to_string(mailbox::parse_routing(spec.options.text("routing")));
    stats->layout = layout_of(spec).empty() ? std::string("from the transport") : layout_of(spec);
    stats->topology = root.topology;
    stats->capacity = spec.options.count("capacity");
    stats->input = spec.options.text("mailbox-input");
    stats->threads = spec.threads;
    stats->verbose = spec.verbose;
    run.output.values = std::move(root.values);
    run.request.options = spec.options;
    run.vertices = root.vertices;
    run.edges = root.edges;
    run.run_seconds = stats->run_seconds();
    run.phases = {{"load", "load", root.load_seconds},
                  {"setup", "setup", stats->setup_seconds()},
                  {"gather", "gather", root.gather_seconds},
                  {"total", "all with gathers", total_seconds}};
    run.description = fmt::format("mailbox engine, {} ranks{} x {} threads, input {}, routing {}, {}, capacity {} B",
                                  stats->reports.size(), stats->mpi ? " (MPI)" : "", stats->threads, stats->input,
                                  stats->routing, stats->topology, stats->capacity);
    run.stats = std::move(stats);
    return run;
  }
};

}  // namespace

double MailboxStats::setup_seconds() const {
  double slowest = 0;
  for (const MailboxReport& report : reports) slowest = std::max(slowest, report.setup_seconds);
  return slowest;
}

double MailboxStats::run_seconds() const {
  double slowest = 0;
  for (const MailboxReport& report : reports) slowest = std::max(slowest, report.run_seconds);
  return slowest;
}

nlohmann::json MailboxStats::to_json() const {
  const mailbox::Stats sum = total(reports, &MailboxReport::stats);
  nlohmann::json per_rank = nlohmann::json::array();
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const MailboxReport& report = reports[r];
    nlohmann::json rank = {{"rank", r},
                           {"setup_seconds", report.setup_seconds},
                           {"run_seconds", report.run_seconds},
                           {"mailbox", engines::to_json(report.stats)}};
    if (kernel && !kernel->count_name.empty()) rank[kernel->count_name] = report.count;
    per_rank.push_back(std::move(rank));
  }
  const auto ranks = static_cast<double>(std::max<std::size_t>(1, reports.size()));
  const double slowest = run_seconds();
  nlohmann::json json = {
      {"ranks", reports.size()},
      {"mpi", mpi},
      {"threads", threads},
      {"input", input},
      {"routing", routing},
      {"layout", layout},
      {"topology", topology},
      {"capacity_bytes", capacity},
      {"setup_seconds", setup_seconds()},
      {"run_seconds", slowest},
      {"messages_per_second_per_rank",
       slowest > 0 ? static_cast<double>(sum.messages_delivered) / slowest / ranks : 0.0},
      {"mailbox", engines::to_json(sum)},
      {"per_rank", std::move(per_rank)},
      {"verbose", verbose},
  };
  if (kernel && kernel->delegates && !reports.empty()) {
    const MailboxReport& first = reports.front();
    json["delegates"] = first.delegates;
    json["delegate_threshold"] =
        first.delegate_threshold == UINT64_MAX ? nlohmann::json(nullptr) : nlohmann::json(first.delegate_threshold);
    json["setup_mailbox"] = engines::to_json(total(reports, &MailboxReport::setup_stats));
  }
  return json;
}

std::string MailboxStats::describe(bool detail) const {
  const mailbox::Stats m = total(reports, &MailboxReport::stats);
  const auto ranks = static_cast<double>(std::max<std::size_t>(1, reports.size()));
  const double slowest = run_seconds();
  const double rate = slowest > 0 ? static_cast<double>(m.messages_delivered) / slowest / ranks : 0.0;
  std::string text = fmt::format(
      "Mailbox:    {} delivered; records {} to the rank itself + {} to other ranks of its node + {} to other "
      "nodes ({} forwarded); {} B between nodes in {} batches (mean {:.0f} B); {} exchanges; peak buffer {} B on "
      "one rank\n"
      "Rate:       {:.3f} M messages/s per rank ({:.0f} delivered per rank over the slowest rank's {:.6f} s, as "
      "mailbox_bench --part degree counts)\n",
      m.messages_delivered, m.messages_self, m.messages_local - m.messages_self, m.messages_remote,
      m.messages_forwarded, m.bytes_remote, m.batches_remote, m.average_remote_batch_bytes(), m.exchanges,
      m.peak_buffered_bytes, rate / 1e6, static_cast<double>(m.messages_delivered) / ranks, slowest);
  if (kernel && kernel->delegates && !reports.empty()) {
    const MailboxReport& first = reports.front();
    text += fmt::format("Delegates:  {} ({})\n", first.delegates,
                        first.delegate_threshold == UINT64_MAX
                            ? std::string("none asked for")
                            : fmt::format("degree above {}", first.delegate_threshold));
  }
  if (!detail) return text;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    const mailbox::Stats& s = reports[r].stats;
    text += fmt::format(
        "  rank {:<3} run {:.6f} s, {} delivered, {} remote records in {} batches (mean {:.0f} B), "
        "{} exchanges, {} retries, {} waves, peak {} B buffered and {} B waiting, {} pauses asked\n",
        r, reports[r].run_seconds, s.messages_delivered, s.messages_remote, s.batches_remote,
        s.average_remote_batch_bytes(), s.exchanges, s.send_retries, s.termination_waves, s.peak_buffered_bytes,
        s.peak_backlog_bytes, s.pauses);
  }
  return text;
}

std::shared_ptr<const harness::Engine> mailbox_engine() { return std::make_shared<MailboxEngine>(); }

}  // namespace courier::engines
