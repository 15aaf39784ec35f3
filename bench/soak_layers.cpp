// soak_layers: the layers above the runtime under a long, random load (issue 17), as bench/soak
// does for the runtime itself. Not a timed test: run it for a count or a time and read its verdict.
//
// --layer sync: rounds of sync::exchange_all over a channel (lci, mpi-probe or mpi-rma), every rank
//   sending every other rank a message of random size (0 B to past the eager limit, so mpi-rma
//   resizes its windows and lci goes by rendezvous), each message's bytes a function of (round,
//   source, destination), checked on arrival.
// --layer mailbox: every rank posts messages of random size to random ranks through a mailbox
//   with a routing scheme (and a simulated layout, so that node-remote schemes forward), then
//   wait_empty; each receiver counts, per source, the messages, the sum of their sequence numbers
//   and of their squares, and checks their bytes. At the end every rank tells every rank how many
//   it sent there, so a lost, duplicated or altered message fails the run.
// Memory must stay flat, as in bench/soak: the last resident sample within 10% + 16 MiB of the one
// taken at a fifth of the run; for the mailbox, plus its pause mark: back pressure bounds its backlog
// there, and the backlog may be near empty at a fifth and near the mark at the end (a leak grows with
// the run's length; the backlog stays under the mark however long the run).
//
//   soak_layers --layer sync --channel mpi-rma --ranks 3 --messages 1e6   (not local: mpi-rma is MPI)
//   soak_layers --layer mailbox --routing nlnr --layout 2x2 --ranks 4 --messages 1e7
//   mpirun -np 3 soak_layers --transport mpi --layer sync --channel mpi-rma --messages 1e6
//   mpirun -np 4 soak_layers --transport ofi --layer mailbox --routing nr --layout 2x2 --messages 1e6
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cereal/types/vector.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/sync/stack.hpp"
#ifdef COURIER_HAVE_MPI
#include <mpi.h>

#include "courier/net/mpi_device.hpp"
#include "courier/net/mpi_environment.hpp"
#endif
#ifdef COURIER_HAVE_OFI
#include "courier/net/ofi_device.hpp"
#endif

#include "soak_support.hpp"

namespace {

using namespace courier;
using namespace courier::soak;

std::uint64_t key(std::uint64_t a, std::uint64_t b, std::uint64_t c) { return mix(mix(mix(a) ^ b) ^ c); }

// Mostly small, some up to 8 KiB (the runtime's eager limit), a few up to max_bytes.
std::size_t message_size(std::uint64_t h, std::size_t max_bytes) {
  const std::uint64_t bucket = h % 100;
  h /= 100;
  if (bucket < 90) return h % 65;
  if (bucket < 99) return h % (8192 + 1);
  return h % (max_bytes + 1);
}

struct Config {
  std::string layer = "mailbox";
  std::string channel = "lci";
  std::string routing = "noroute";
  std::string layout;  // NODESxCORES, mailbox only
  int ranks = 4;
  double messages = 1e6;  // per rank
  double seconds = 0;     // if set, until then instead
  std::size_t max_bytes = 64 * 1024;
  std::size_t pause_backlog = 0;  // mailbox: Config::pause_backlog_bytes; 0: its default
  std::size_t max_backlog = 0;    // mailbox: fail if a rank's backlog peaks above this; 0: no limit
  bool judge_memory = true;       // fail when resident memory grows (not for short runs: glibc's heap)
};

struct Shared {  // across the ranks of this process
  std::mutex mutex;
  std::uint64_t sent = 0, received = 0, bytes = 0, errors = 0;
  std::uint64_t peak_buffered = 0, peak_backlog = 0, peak_in_flight = 0;  // mailbox: the largest rank's
  std::vector<std::string> messages;
  std::atomic<std::uint64_t> progress{0};
  void fail(int rank, std::string what) {
    std::lock_guard lock(mutex);
    ++errors;
    if (messages.size() < 20) messages.push_back(fmt::format("rank {}: {}", rank, std::move(what)));
  }
  void add(std::uint64_t s, std::uint64_t r, std::uint64_t b) {
    std::lock_guard lock(mutex);
    sent += s;
    received += r;
    bytes += b;
  }
};

class Clock {
 public:
  explicit Clock(const Config& config)
      : config_(config),
        deadline_(std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                         std::chrono::duration<double>(config.seconds))) {}
  // Whether to go on after `done` messages (by count, or by time: a rank's answer is only its own,
  // so the sync layer agrees on it with a reduction).
  bool more(std::uint64_t done) const {
    return config_.seconds > 0 ? std::chrono::steady_clock::now() < deadline_
                               : static_cast<double>(done) < config_.messages;
  }

 private:
  const Config& config_;
  std::chrono::steady_clock::time_point deadline_;
};

// ---- sync: rounds of exchange_all ----

void soak_sync(sync::Channel& channel, const Config& config, Shared& shared) {
  const rank_t me = channel.rank(), ranks = channel.ranks();
  const Clock clock(config);
  std::uint64_t sent = 0, received = 0, bytes = 0;
  for (std::uint64_t round = 0;; ++round) {
    // Every rank must take part in every round: the decision to stop is taken together.
    if (channel.sum_all(std::uint64_t{clock.more(sent) ? 0u : 1u}) != 0) break;
    std::vector<sync::Bytes> outgoing(static_cast<std::size_t>(ranks));
    for (rank_t to = 0; to < ranks; ++to) {
      const std::uint64_t k = key(round, static_cast<std::uint64_t>(me), static_cast<std::uint64_t>(to));
      auto& m = outgoing[static_cast<std::size_t>(to)];
      m.resize(message_size(mix(k), config.max_bytes));
      fill(m.data(), m.size(), k);
    }
    const std::vector<sync::Bytes> in = sync::exchange_all(channel, std::move(outgoing));
    for (rank_t from = 0; from < ranks; ++from) {
      const std::uint64_t k = key(round, static_cast<std::uint64_t>(from), static_cast<std::uint64_t>(me));
      const auto& m = in[static_cast<std::size_t>(from)];
      const std::size_t expected = message_size(mix(k), config.max_bytes);
      if (m.size() != expected || !intact(m.data(), m.size(), k))
        shared.fail(me, fmt::format("round {} from rank {}: {} bytes, {} expected, {}", round, from, m.size(), expected,
                                    m.size() == expected ? "altered" : "wrong size"));
      ++received;
      bytes += m.size();
    }
    sent += static_cast<std::uint64_t>(ranks);
    shared.progress.fetch_add(static_cast<std::uint64_t>(ranks), std::memory_order_relaxed);
  }
  shared.add(sent, received, bytes);
}

// ---- mailbox: random sends, then counts ----

struct Note {
  std::uint64_t source = 0, sequence = 0;
  std::uint64_t count = 0, sum = 0, squares = 0;  // an end note: what the source sent here
  bool end = false;
  std::vector<std::uint8_t> payload;  // cereal knows bytes as uint8_t
  template <class Archive>
  void serialize(Archive& archive) {
    archive(source, sequence, count, sum, squares, end, payload);
  }
};

struct PerSource {
  std::uint64_t count = 0, sum = 0, squares = 0;
  std::optional<Note> end;
};

void soak_mailbox(comm::Runtime& runtime, const Config& config, Shared& shared) {
  const rank_t me = runtime.rank(), ranks = runtime.ranks();
  std::vector<PerSource> heard(static_cast<std::size_t>(ranks));
  std::uint64_t received = 0, bytes = 0;
  auto on_note = [&](mailbox::Mailbox<Note>&, const Note& n) {
    if (n.source >= static_cast<std::uint64_t>(ranks)) {
      shared.fail(me, fmt::format("a note from rank {}", n.source));
      return;
    }
    PerSource& p = heard[n.source];
    if (n.end) {
      if (p.end) shared.fail(me, fmt::format("two end notes from rank {}", n.source));
      p.end = n;
      return;
    }
    const std::uint64_t k = key(n.source, n.sequence, static_cast<std::uint64_t>(me));
    const std::size_t expected = message_size(mix(k), config.max_bytes);
    if (n.payload.size() != expected ||
        !intact(reinterpret_cast<const std::byte*>(n.payload.data()), n.payload.size(), k))
      shared.fail(me, fmt::format("message {} from rank {}: {} bytes, {} expected", n.sequence, n.source,
                                  n.payload.size(), expected));
    ++p.count;
    p.sum += n.sequence;
    p.squares += n.sequence * n.sequence;
    ++received;
    bytes += n.payload.size();
  };
  mailbox::Config setup;
  setup.routing = mailbox::parse_routing(config.routing);
  if (!config.layout.empty()) setup.layout = mailbox::parse_layout(config.layout);
  if (config.pause_backlog > 0) setup.pause_backlog_bytes = config.pause_backlog;
  mailbox::Mailbox<Note> box(runtime, on_note, setup);

  // Sequence numbers count per destination, so that each receiver knows the sums to expect.
  std::vector<PerSource> sent_to(static_cast<std::size_t>(ranks));
  const Clock clock(config);
  std::uint64_t sent = 0, random = mix(static_cast<std::uint64_t>(me) + 1);
  while (clock.more(sent)) {
    random = mix(random);
    const auto to = static_cast<rank_t>(random % static_cast<std::uint64_t>(ranks));
    PerSource& s = sent_to[static_cast<std::size_t>(to)];
    Note n;
    n.source = static_cast<std::uint64_t>(me);
    n.sequence = s.count;
    const std::uint64_t k = key(n.source, n.sequence, static_cast<std::uint64_t>(to));
    n.payload.resize(message_size(mix(k), config.max_bytes));
    fill(reinterpret_cast<std::byte*>(n.payload.data()), n.payload.size(), k);
    box.async_send(to, n);
    ++s.count;
    s.sum += n.sequence;
    s.squares += n.sequence * n.sequence;
    if (++sent % 4096 == 0) shared.progress.fetch_add(4096, std::memory_order_relaxed);
  }
  box.wait_empty();
  for (rank_t to = 0; to < ranks; ++to) {
    const PerSource& s = sent_to[static_cast<std::size_t>(to)];
    Note end;
    end.source = static_cast<std::uint64_t>(me);
    end.end = true;
    end.count = s.count;
    end.sum = s.sum;
    end.squares = s.squares;
    box.async_send(to, end);
  }
  box.wait_empty();
  for (rank_t from = 0; from < ranks; ++from) {
    const PerSource& p = heard[static_cast<std::size_t>(from)];
    if (!p.end) {
      shared.fail(me, fmt::format("no end note from rank {}", from));
    } else if (p.count != p.end->count || p.sum != p.end->sum || p.squares != p.end->squares) {
      shared.fail(me, fmt::format("from rank {}: {} messages announced, {} arrived (sequence sums {} / {}, squares "
                                  "{} / {}): lost or duplicated",
                                  from, p.end->count, p.count, p.sum, p.end->sum, p.squares, p.end->squares));
    }
  }
  shared.add(sent, received, bytes);
  const mailbox::Stats stats = box.local_stats();
  std::lock_guard lock(shared.mutex);
  shared.peak_buffered = std::max<std::uint64_t>(shared.peak_buffered, stats.peak_buffered_bytes);
  shared.peak_backlog = std::max<std::uint64_t>(shared.peak_backlog, stats.peak_backlog_bytes);
  shared.peak_in_flight = std::max<std::uint64_t>(shared.peak_in_flight, stats.peak_in_flight_bytes);
}

std::string what(const Config& config, const std::string& transport, int ranks) {
  return config.layer == "sync"
             ? fmt::format("layer sync, channel {}, transport {}, {} ranks", config.channel, transport, ranks)
             : fmt::format("layer mailbox, routing {}{}, transport {}, {} ranks", config.routing,
                           config.layout.empty() ? "" : ", layout " + config.layout, transport, ranks);
}

// What the layer may hold more of at the end than at a fifth: the mailbox's backlog, up to its mark.
std::uint64_t bounded(const Config& config) {
  if (config.layer != "mailbox") return 0;
  return config.pause_backlog > 0 ? config.pause_backlog : mailbox::Config{}.pause_backlog_bytes;
}

int report(const std::string& description, const Shared& s, const MemoryWatch& memory, bool flat, double seconds,
           const Config& config) {
  for (const std::string& e : s.messages) std::fprintf(stderr, "soak_layers: %s\n", e.c_str());
  const bool bounded = config.max_backlog == 0 || s.peak_backlog <= config.max_backlog;
  const bool ok = s.errors == 0 && s.sent == s.received && (flat || !config.judge_memory) && bounded;
  fmt::print("soak_layers {}: {}, commit {}\n", ok ? "PASS" : "FAIL", description, COURIER_COMMIT);
  fmt::print("  messages sent {}, received {}, {:.1f} MB, {:.1f} s, {:.2f} M msgs/s, errors {}\n", s.sent, s.received,
             static_cast<double>(s.bytes) / 1e6, seconds, static_cast<double>(s.received) / seconds / 1e6, s.errors);
  fmt::print("  resident: {:.1f} MB at a fifth, {:.1f} MB at the end, peak {:.1f} MB: {}\n",
             static_cast<double>(memory.at_fifth) / 1e6, static_cast<double>(memory.last) / 1e6,
             static_cast<double>(memory.peak) / 1e6, flat ? "flat" : "GROWING");
  if (s.peak_buffered + s.peak_backlog + s.peak_in_flight > 0)
    fmt::print("  mailbox peaks (largest rank): buffered {:.1f} MB, backlog {:.1f} MB, in flight {:.1f} MB\n",
               static_cast<double>(s.peak_buffered) / 1e6, static_cast<double>(s.peak_backlog) / 1e6,
               static_cast<double>(s.peak_in_flight) / 1e6);
  if (!bounded)
    fmt::print("  backlog {:.1f} MB on one rank, past --max-backlog {:.1f} MB\n",
               static_cast<double>(s.peak_backlog) / 1e6, static_cast<double>(config.max_backlog) / 1e6);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Config config;
  std::string transport = "local";
  courier::bench::CommandLine command_line(
      "soak_layers: the sync layer or the mailbox under random messages, each checked and counted");
  command_line.add("--layer", config.layer, "sync (exchange_all rounds over a channel) or mailbox")
      .choices({"sync", "mailbox"});
  command_line.add("--transport", transport, "local (ranks as threads), mpi or ofi (under mpirun)")
      .choices({"local", "mpi", "ofi"});
  command_line.add("--channel", config.channel, "sync: lci, mpi-probe or mpi-rma (the last two under mpirun)")
      .choices({"lci", "mpi-probe", "mpi-rma"});
  command_line.add("--routing", config.routing, "mailbox: noroute, nl, nr or nlnr");
  command_line.add("--layout", config.layout, "mailbox: simulated nodes as NODESxCORES, e.g. 2x2");
  command_line.add("--ranks", config.ranks, "local: ranks as threads").range(1, 1024);
  command_line.add("--messages", config.messages, "messages per rank");
  command_line.add("--seconds", config.seconds, "send for this long instead of a count");
  command_line.add("--max-bytes", config.max_bytes, "largest message");
  command_line.add("--pause-backlog", config.pause_backlog,
                   "mailbox: the backlog (bytes) at which a rank asks its senders to pause");
  command_line.add("--max-backlog", config.max_backlog, "mailbox: fail if any rank's backlog (bytes) peaks above this");
  command_line.flag("!--no-memory-check", config.judge_memory,
                    "Report resident memory but do not fail on its growth (short runs, where the allocator's heap "
                    "dominates it)");
  if (const auto status = command_line.parse(argc, argv)) return *status;
  if (config.layer == "sync" && transport == "ofi") {
    std::fprintf(stderr, "soak_layers: the sync layer's lci channel runs on the local or mpi transport\n");
    return 2;
  }
  if (config.layer == "sync" && transport == "local" && config.channel != "lci") {
    std::fprintf(stderr, "soak_layers: --channel %s is an MPI channel: run under mpirun with --transport mpi\n",
                 config.channel.c_str());
    return 2;
  }
  Shared shared;
  MemoryWatch memory;
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  try {
    if (transport == "local") {
      memory.start(shared.progress, config.seconds > 0 ? 1e300 : config.messages * config.ranks);
      const sync::StackSpec spec{.channel = config.channel};
      const auto budget = sync::Stack::local_budget(config.ranks, 1);
      comm::run_local(
          config.ranks,
          [&](comm::Runtime& runtime) {
            if (config.layer == "mailbox") return soak_mailbox(runtime, config, shared);
            auto stack = sync::Stack::open(spec, runtime, budget);
            soak_sync(stack->channel(), config, shared);
            stack->close();
          },
          config.layer == "sync" ? sync::Stack::runtime_options(spec, budget) : comm::RuntimeOptions{});
      memory.finish();
      return report(what(config, transport, config.ranks), shared, memory, memory.flat(bounded(config)), elapsed(),
                    config);
    }
#ifdef COURIER_HAVE_MPI
    net::MpiEnvironment mpi(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    memory.start(shared.progress, config.seconds > 0 ? 1e300 : config.messages);
    if (config.layer == "sync") {
      auto stack = sync::Stack::open({.channel = config.channel}, MPI_COMM_WORLD);
      soak_sync(stack->channel(), config, shared);
      stack->close();
    } else {
#ifdef COURIER_HAVE_OFI
      comm::Runtime runtime(transport == "ofi" ? net::make_ofi_device() : net::make_mpi_device());
#else
      if (transport == "ofi") throw Error("this build has no libfabric (ofi)");
      comm::Runtime runtime(net::make_mpi_device());
#endif
      soak_mailbox(runtime, config, shared);
      runtime.shutdown();
    }
    memory.finish();
    std::uint64_t mine[4] = {shared.sent, shared.received, shared.bytes, shared.errors}, all[4];
    MPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    std::uint64_t peaks[3] = {shared.peak_buffered, shared.peak_backlog, shared.peak_in_flight}, largest[3];
    MPI_Allreduce(peaks, largest, 3, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    shared.peak_buffered = largest[0];
    shared.peak_backlog = largest[1];
    shared.peak_in_flight = largest[2];
    int flat = memory.flat(bounded(config)) ? 1 : 0, all_flat = 0;
    if (!flat)  // rank 0 reports its own memory; the rank that grew says so here
      std::fprintf(stderr, "soak_layers: rank %d: resident %.1f MB at a fifth, %.1f MB at the end: GROWING\n", rank,
                   static_cast<double>(memory.at_fifth) / 1e6, static_cast<double>(memory.last) / 1e6);
    MPI_Allreduce(&flat, &all_flat, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    for (const std::string& e : shared.messages) std::fprintf(stderr, "soak_layers: %s\n", e.c_str());
    shared.messages.clear();
    shared.sent = all[0];
    shared.received = all[1];
    shared.bytes = all[2];
    shared.errors = all[3];
    int code = rank == 0 ? report(what(config, transport, ranks), shared, memory, all_flat != 0, elapsed(), config) : 0;
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
#else
    std::fprintf(stderr, "soak_layers: this build has no MPI\n");
    return 2;
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soak_layers: error: %s\n", e.what());
    return 2;
  }
}
