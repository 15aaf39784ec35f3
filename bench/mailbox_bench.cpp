// mailbox_bench: the mailbox (paper 001) measured two ways.
//
// rate     8 B and 16 B messages to random ranks: messages per second per rank through the
//          mailbox, against an MPI_Alltoallv bulk exchange of the same messages, in rounds of the
//          same buffer size and as one exchange of them all, run alternately (A B C A B C ...) in
//          the same process. Needs mpirun.
// routing  degree counting (Algorithm 1) and connected components (delegates) of kron and urand
//          graphs through the four routing schemes on simulated layouts: time, messages/s per rank, remote messages and bytes,
//          average remote batch size next to section III-E's model, peak buffered bytes. Under
//          mpirun the ranks are the processes (default layout 2x2 for 4 ranks); started alone, it
//          runs 8 ranks as threads on the local transport with layouts 4x2 and 2x4.
// degree   degree counting of --graphs (default kron:20, urand:20) through the mailbox against an
//          MPI_Alltoallv bulk exchange of the same ids (rounds, and one exchange), interleaved
//          (mailbox_degree_part.cpp).
//
//   mpirun -np 2 --allow-run-as-root --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
//     --mca btl_vader_single_copy_mechanism none build/bench/mailbox_bench --part rate
//   build/bench/mailbox_bench --part routing                 # 8 local ranks, 4x2 and 2x4
//   mpirun -np 4 ... build/bench/mailbox_bench --part routing --layout 2x2
//   mpirun -np 2 ... build/bench/mailbox_bench --part degree --graphs kron:20,urand:20
//
// Rank 0 prints a table and writes JSON (--json).
#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>
#include <vector>

#include "command_line.hpp"
#include "courier/algo/mailbox_cc.hpp"
#include "courier/algo/mailbox_degree.hpp"
#include "courier/comm/local_world.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/comm/stats.hpp"
#include "courier/core/error.hpp"
#include "courier/core/random.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/generate.hpp"
#include "courier/mailbox/mailbox.hpp"
#include "courier/net/mpi_device.hpp"
#include "courier/net/mpi_environment.hpp"
#include "mailbox_bench_common.hpp"
#include "mailbox_degree_part.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

namespace mb = courier::mailbox;
using mailbox_bench::cpu_seconds;
using mailbox_bench::degree_part;
using mailbox_bench::displacements;
using mailbox_bench::max_over_ranks;
using mailbox_bench::median;
using mailbox_bench::my_slice;

namespace {

struct Options {
  std::string part = "all";
  std::uint64_t messages = 20'000'000;  // per rank, rate part
  std::size_t capacity = 64 * 1024;
  int repeats = 3;
  int scale = 18;
  int local_ranks = 8;
  std::vector<std::string> layouts;
  std::string json_path = "mailbox_bench.json";
  std::string variants = "all";  // rate part: "mailbox", "alltoallv" (rounds) or "bulk" runs one alone (for profiling)
  bool progress_thread = false;  // the comm runtime's server thread; off: the mailbox drives progress
  std::vector<std::string> graphs = {"kron:20", "urand:20"};  // degree part
};

courier::comm::RuntimeOptions runtime_options(const Options& o) {
  courier::comm::RuntimeOptions options;
  options.progress_thread = o.progress_thread;
  return options;
}

std::string machine(int ranks) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return fmt::format("{} ({} hardware threads), {} ranks", host, std::thread::hardware_concurrency(), ranks);
}

struct Times {
  double wall = 0, cpu = 0;
};

template <std::size_t Bytes>
struct Payload {
  std::uint64_t words[Bytes / 8];
};

// The i-th message of this rank: its destination and first word, the same in both variants.
struct Draw {
  std::uint64_t key;
  int ranks;
  int dest(std::uint64_t i) const { return static_cast<int>(courier::random_below(courier::counter_random(key, i), static_cast<std::uint64_t>(ranks))); }
};

// Mailbox: every message through async_send, then wait_empty. Returns seconds (max over ranks).
template <std::size_t Bytes>
Times mailbox_rate(courier::comm::Runtime& rt, const Options& o, std::uint64_t& checksum) {
  const Draw draw{courier::stream_key(7, static_cast<std::uint64_t>(rt.rank())), rt.ranks()};
  std::uint64_t sum = 0;
  mb::Config config;
  config.capacity_bytes = o.capacity;
  auto box = mb::make_mailbox<Payload<Bytes>>(rt, [&sum](auto&, const Payload<Bytes>& p) { sum += p.words[0]; }, config);
  MPI_Barrier(MPI_COMM_WORLD);
  courier::Timer timer;
  const double cpu = cpu_seconds();
  Payload<Bytes> p{};
  for (std::uint64_t i = 0; i < o.messages; ++i) {
    p.words[0] = i;
    box.async_send(draw.dest(i), p);
  }
  box.wait_empty();
  const double seconds = timer.elapsed(), cpu_used = cpu_seconds() - cpu;
  checksum += sum;
  if (std::getenv("MAILBOX_BENCH_STATS")) {
    std::fprintf(stderr, "rank %d:\n%s%s\n", rt.rank(), mb::format(box.local_stats()).c_str(),
                 courier::comm::to_string(rt.stats()).c_str());
  }
  return {max_over_ranks(seconds), max_over_ranks(cpu_used)};
}

// MPI_Alltoallv in rounds: each round buckets `per_round` messages by destination, swaps counts
// (MPI_Alltoall) and data (MPI_Alltoallv), and handles what arrived. Rounds of capacity / Bytes
// messages hold what the mailbox holds; one round of every message is the textbook bulk exchange.
template <std::size_t Bytes>
Times alltoallv_rate(int ranks, int rank, const Options& o, std::uint64_t per_round, std::uint64_t& checksum) {
  const Draw draw{courier::stream_key(7, static_cast<std::uint64_t>(rank)), ranks};
  per_round = std::max<std::uint64_t>(per_round, 1);
  if (per_round * Bytes > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
    throw courier::InputError(fmt::format("mailbox_bench --part rate: a round of {} messages of {} B overflows MPI's int "
                                          "counts; use fewer --messages", per_round, Bytes));
  }
  const auto P = static_cast<std::size_t>(ranks);
  std::vector<int> send_counts(P), recv_counts(P), send_displs(P), recv_displs(P), cursor(P);
  std::vector<int> dests(per_round);
  std::vector<Payload<Bytes>> out(per_round), in;
  std::uint64_t sum = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  courier::Timer timer;
  const double cpu = cpu_seconds();
  for (std::uint64_t first = 0; first < o.messages; first += per_round) {
    const std::uint64_t n = std::min(per_round, o.messages - first);
    std::fill(send_counts.begin(), send_counts.end(), 0);
    for (std::uint64_t i = 0; i < n; ++i) ++send_counts[static_cast<std::size_t>(dests[i] = draw.dest(first + i))];
    displacements(send_counts, send_displs);
    cursor = send_displs;
    for (std::uint64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(cursor[static_cast<std::size_t>(dests[i])]++)].words[0] = first + i;
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    in.resize(displacements(recv_counts, recv_displs));
    // Counted in bytes, so any payload size travels as MPI_BYTE.
    std::vector<int> sb(P), sd(P), rb(P), rd(P);
    for (std::size_t d = 0; d < P; ++d) {
      sb[d] = send_counts[d] * static_cast<int>(Bytes);
      sd[d] = send_displs[d] * static_cast<int>(Bytes);
      rb[d] = recv_counts[d] * static_cast<int>(Bytes);
      rd[d] = recv_displs[d] * static_cast<int>(Bytes);
    }
    MPI_Alltoallv(out.data(), sb.data(), sd.data(), MPI_BYTE, in.data(), rb.data(), rd.data(), MPI_BYTE, MPI_COMM_WORLD);
    for (const auto& p : in) sum += p.words[0];
  }
  const double seconds = timer.elapsed(), cpu_used = cpu_seconds() - cpu;
  checksum += sum;
  return {max_over_ranks(seconds), max_over_ranks(cpu_used)};
}

template <std::size_t Bytes>
void rate_part(const Options& o, int rank, int ranks, nlohmann::json& rows) {
  courier::comm::Runtime rt(courier::net::make_mpi_device(), runtime_options(o));
  std::vector<double> mailbox, rounds, whole, mailbox_cpu, rounds_cpu, whole_cpu;
  std::uint64_t mailbox_sum = 0, rounds_sum = 0, whole_sum = 0;
  const bool run_mailbox = o.variants == "all" || o.variants == "mailbox";
  const bool run_rounds = o.variants == "all" || o.variants == "alltoallv";
  const bool run_whole = o.variants == "all" || o.variants == "bulk";
  const double skipped = std::numeric_limits<double>::quiet_NaN();  // printed as nan
  for (int r = 0; r < o.repeats; ++r) {
    const Times a = run_mailbox ? mailbox_rate<Bytes>(rt, o, mailbox_sum) : Times{skipped, skipped};
    const Times b = run_rounds ? alltoallv_rate<Bytes>(ranks, rank, o, o.capacity / Bytes, rounds_sum) : Times{skipped, skipped};
    const Times c = run_whole ? alltoallv_rate<Bytes>(ranks, rank, o, o.messages, whole_sum) : Times{skipped, skipped};
    mailbox.push_back(a.wall);
    mailbox_cpu.push_back(a.cpu);
    rounds.push_back(b.wall);
    rounds_cpu.push_back(b.cpu);
    whole.push_back(c.wall);
    whole_cpu.push_back(c.cpu);
  }
  rt.shutdown();
  std::uint64_t sums[3] = {mailbox_sum, rounds_sum, whole_sum}, total[3] = {0, 0, 0};
  MPI_Reduce(sums, total, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  const bool agree = total[0] == total[1] && total[1] == total[2];
  const double m = median(mailbox), b = median(rounds), c = median(whole);
  const double mc = median(mailbox_cpu), bc = median(rounds_cpu), cc = median(whole_cpu);
  const double per_rank = static_cast<double>(o.messages);
  fmt::print("{:>4} B {:>9.2f} {:>9.2f} {:>9.2f} {:>7.2f} {:>9.2f} {:>7.2f} {:>9.2f} {:>9.2f}{}\n", Bytes, per_rank / m / 1e6,
             per_rank * ranks / m / 1e6, per_rank / b / 1e6, b / m, per_rank / c / 1e6, c / m, bc / mc, cc / mc,
             agree || o.variants != "all" ? "" : "   CHECKSUMS DIFFER");
  rows.push_back({{"part", "rate"}, {"message_bytes", Bytes}, {"messages_per_rank", o.messages}, {"ranks", ranks},
                  {"capacity", o.capacity}, {"repeats", o.repeats}, {"mailbox_seconds", m}, {"alltoallv_seconds", b},
                  {"bulk_alltoallv_seconds", c}, {"mailbox_cpu_seconds", mc}, {"alltoallv_cpu_seconds", bc},
                  {"bulk_alltoallv_cpu_seconds", cc}, {"mailbox_msgs_per_s_per_rank", per_rank / m},
                  {"alltoallv_msgs_per_s_per_rank", per_rank / b}, {"bulk_alltoallv_msgs_per_s_per_rank", per_rank / c},
                  {"checksums_agree", agree}});
}

// Section III-E's average remote message size for V bytes sent per core per exchange.
double model_bytes(mb::Routing routing, double V, int N, int C) {
  if (N < 2) return 0;
  switch (routing) {
    case mb::Routing::no_route: return V / ((N - 1.0) * C);
    case mb::Routing::node_local:
    case mb::Routing::node_remote: return V / (N - 1.0);
    case mb::Routing::nlnr: return V * C / N;
  }
  return 0;
}

struct RoutingRow {
  std::string application, graph, layout, routing;
  double seconds = 0;
  std::uint64_t messages = 0;  // degree: sends by the application (2 per edge); cc: receive callbacks run
  mb::Stats total;             // summed over ranks (peak: the largest)
  double model = 0;
};

// Order-sensitive digest of one rank's results (degrees or labels); summed over ranks, equal
// results give equal sums.
template <class Value>
std::uint64_t digest(const std::vector<Value>& values, int rank) {
  std::uint64_t h = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    h += (static_cast<std::uint64_t>(values[i]) + 1) * (0x9E3779B97F4A7C15ULL * (i + 1) + static_cast<std::uint64_t>(rank));
  }
  return h;
}

void print_routing_header() {
  fmt::print("{:<6} {:<10} {:<7} {:<12} {:>8} {:>13} {:>12} {:>12} {:>11} {:>11} {:>10}\n", "app", "graph", "layout", "routing",
             "time_s", "Mmsgs/s/rank", "remote_msgs", "remote_MB", "avg_remote", "model_III-E", "peak_buf");
}

void print_routing_row(const RoutingRow& r, int ranks, bool agrees) {
  fmt::print("{:<6} {:<10} {:<7} {:<12} {:>8.3f} {:>13.2f} {:>12} {:>12.2f} {:>11.0f} {:>11.0f} {:>10}{}\n", r.application, r.graph, r.layout,
             r.routing, r.seconds, static_cast<double>(r.messages) / r.seconds / ranks / 1e6, r.total.messages_remote,
             static_cast<double>(r.total.bytes_remote) / 1e6, r.total.average_remote_batch_bytes(), r.model,
             r.total.peak_buffered_bytes, agrees ? "" : "   RESULTS DIFFER FROM NOROUTE'S");
  std::fflush(stdout);
}

nlohmann::json to_json(const RoutingRow& r, int ranks, std::size_t capacity) {
  return {{"part", "routing"}, {"application", r.application}, {"graph", r.graph}, {"layout", r.layout}, {"routing", r.routing}, {"ranks", ranks},
          {"capacity", capacity}, {"seconds", r.seconds}, {"messages", r.messages},
          {"msgs_per_s_per_rank", static_cast<double>(r.messages) / r.seconds / ranks},
          {"remote_messages", r.total.messages_remote}, {"remote_bytes", r.total.bytes_remote},
          {"remote_batches", r.total.batches_remote}, {"local_messages", r.total.messages_local},
          {"average_remote_batch_bytes", r.total.average_remote_batch_bytes()}, {"model_average_bytes", r.model},
          {"peak_buffered_bytes", r.total.peak_buffered_bytes}, {"exchanges", r.total.exchanges}};
}

void routing_part(const Options& o, int rank, int ranks, nlohmann::json& rows) {
  const bool under_mpi = ranks > 1;
  const int P = under_mpi ? ranks : o.local_ranks;
  std::vector<std::string> layouts = o.layouts;
  if (layouts.empty()) layouts = under_mpi ? std::vector<std::string>{P == 4 ? "2x2" : fmt::format("{}x1", P)}
                                           : std::vector<std::string>{"4x2", "2x4"};
  if (rank == 0) {
    fmt::print("\nrouting: degree counting and connected components (delegates, setup included), {} ranks ({}), "
               "capacity {} B; model = section III-E with V = capacity\n", P,
               under_mpi ? "mpi" : "local transport", o.capacity);
    print_routing_header();
  }
  const std::vector<mb::Routing> schemes = {mb::Routing::no_route, mb::Routing::node_local, mb::Routing::node_remote, mb::Routing::nlnr};
  // Algorithm 1 (in + out degree, as the paper counts) and cc: the mailbox kernels themselves.
  for (const auto& [application, cc] : {std::pair{"degree", false}, std::pair{"cc", true}}) {
    for (const char* kind : {"kron", "urand"}) {
      courier::graph::GeneratorOptions g;
      g.kind = std::string(kind) == "kron" ? courier::graph::Generator::kronecker : courier::graph::Generator::uniform;
      g.scale = o.scale;
      g.threads = 1;
      const std::string graph_name = fmt::format("{}:{}", kind, o.scale);
      // Each rank's slice, generated once (ranks as threads: all slices live in this process).
      std::vector<courier::graph::EdgeList> slices;
      if (under_mpi) {
        slices.push_back(my_slice(g, rank, ranks));
      } else {
        for (int r = 0; r < P; ++r) slices.push_back(my_slice(g, r, P));
      }
      const auto n = courier::graph::vertex_t{1} << o.scale;
      for (const std::string& layout_text : layouts) {
        const mb::Layout layout = mb::parse_layout(layout_text);
        // Schemes interleaved per repeat (A B C D A B C D ...), medians reported.
        std::vector<std::vector<double>> times(schemes.size());
        std::vector<mb::Stats> totals(schemes.size());
        std::uint64_t expected = 0;  // every scheme and repeat must compute the same results
        std::vector<bool> agree(schemes.size(), true);
        for (int rep = 0; rep < o.repeats; ++rep) {
          for (std::size_t s = 0; s < schemes.size(); ++s) {
            mb::Config config;
            config.capacity_bytes = o.capacity;
            config.routing = schemes[s];
            config.layout = layout;
            std::vector<mb::Stats> stats(static_cast<std::size_t>(P));
            std::vector<double> seconds(static_cast<std::size_t>(P));
            std::vector<std::uint64_t> digests(static_cast<std::size_t>(P));
            auto body = [&](courier::comm::Runtime& rt) {
              const auto& edges = slices[under_mpi ? 0 : static_cast<std::size_t>(rt.rank())].edges;
              const auto me = static_cast<std::size_t>(under_mpi ? 0 : rt.rank());
              if (cc) {
                const auto c = courier::algo::mailbox_cc(rt, edges, n, {.mailbox = config, .delegates = {}});
                stats[me] = c.stats;
                stats[me] += c.setup_stats;
                seconds[me] = c.setup_seconds + c.seconds;
                digests[me] = digest(c.labels, rt.rank());
              } else {
                const auto d = courier::algo::mailbox_degrees(rt, edges, n, config);
                stats[me] = d.stats;
                seconds[me] = d.seconds;
                digests[me] = digest(d.counts, rt.rank());
              }
              if (std::getenv("MAILBOX_BENCH_STATS")) std::fprintf(stderr, "rank %d %s %s:\n%s", rt.rank(), application, mb::to_string(config.routing).c_str(), mb::format(stats[me]).c_str());
            };
            mb::Stats total;
            double time = 0;
            std::uint64_t results = 0;  // the digest of every rank's results
            if (under_mpi) {
              courier::comm::Runtime rt(courier::net::make_mpi_device(), runtime_options(o));
              MPI_Barrier(MPI_COMM_WORLD);
              body(rt);
              rt.shutdown();
              time = max_over_ranks(seconds[0]);
              std::vector<mb::Stats> all(static_cast<std::size_t>(ranks));
              MPI_Gather(&stats[0], sizeof(mb::Stats), MPI_BYTE, all.data(), sizeof(mb::Stats), MPI_BYTE, 0, MPI_COMM_WORLD);
              for (const auto& st : all) total += st;
              MPI_Allreduce(&digests[0], &results, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
            } else {
              courier::comm::run_local(P, body, runtime_options(o));
              for (std::size_t r = 0; r < stats.size(); ++r) {
                total += stats[r];
                time = std::max(time, seconds[r]);
                results += digests[r];
              }
            }
            times[s].push_back(time);
            totals[s] = total;
            if (rep == 0 && s == 0) expected = results;
            agree[s] = agree[s] && results == expected;
          }
        }
        for (std::size_t s = 0; s < schemes.size(); ++s) {
          RoutingRow row{application, graph_name, layout_text, mb::to_string(schemes[s]), median(times[s]),
                         cc ? totals[s].messages_delivered : 2 * courier::graph::generated_edge_count(g), totals[s],
                         model_bytes(schemes[s], static_cast<double>(o.capacity), layout.nodes, layout.cores_per_node)};
          if (rank == 0) {
            print_routing_row(row, P, agree[s]);
            rows.push_back(to_json(row, P, o.capacity));
          }
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  courier::net::MpiEnvironment mpi(&argc, &argv);
  courier::bench::CommandLine command_line(
      "The mailbox's message rate against MPI_Alltoallv, and its routing schemes on degree counting and cc");
  Options o;
  command_line.add("--part", o.part, "rate, routing, degree or all").choices({"rate", "routing", "degree", "all"});
  command_line.add("--messages", o.messages, "Messages per rank in the rate part");
  command_line.add("--capacity", o.capacity, "Mailbox capacity in bytes (and the Alltoallv round size)")
      .range(1, 1 << 30);
  command_line.add("--repeats", o.repeats, "Median of this many runs, variants interleaved").range(1, 99);
  command_line.add("--scale", o.scale, "Graph scale of kron:S and urand:S in the routing part").range(4, 30);
  command_line.add("--ranks", o.local_ranks, "Ranks (threads) of the local transport when not under mpirun")
      .range(1, 64);
  command_line.add("--layout", o.layouts, "Simulated layouts NODESxCORES for the routing part");
  command_line.add("--json", o.json_path, "Where rank 0 writes the results");
  command_line
      .add("--variants", o.variants,
           "Rate part: all (default), or mailbox / alltoallv (rounds) / bulk (one exchange) alone, e.g. under a "
           "profiler")
      .choices({"all", "mailbox", "alltoallv", "bulk"});
  command_line.add("--graphs", o.graphs, "Degree part: generated graphs, kron:S or urand:S").delimiter(',');
  command_line.flag("--progress-thread", o.progress_thread, "Give each rank's comm runtime its progress server thread");
  if (const auto status = command_line.parse(argc, argv)) return *status;

  const int rank = mpi.world_rank(), ranks = mpi.world_size();
  if (rank == 0) fmt::print("mailbox_bench on {}, commit {}\n", machine(ranks), COURIER_COMMIT);
  nlohmann::json rows = nlohmann::json::array();
  try {
    if (o.part == "rate" || o.part == "all") {
      if (ranks < 2) {
        if (rank == 0) fmt::print("rate: skipped, it needs mpirun -np 2 (or more)\n");
      } else {
        if (rank == 0) {
          fmt::print("rate: {} messages per rank to random ranks, capacity {} B, median of {}; M msgs/s per rank by "
                     "wall time (max over ranks) through the mailbox, MPI_Alltoallv in rounds of the capacity, and one "
                     "bulk MPI_Alltoallv of every message; ratios are the mailbox's speed-ups (cpu_: by CPU time)\n",
                     o.messages, o.capacity, o.repeats);
          fmt::print("{:>6} {:>9} {:>9} {:>9} {:>7} {:>9} {:>7} {:>9} {:>9}\n", "size", "mailbox", "mb_total", "a2av",
                     "ratio", "bulk", "ratio", "cpu_a2av", "cpu_bulk");
        }
        rate_part<8>(o, rank, ranks, rows);
        rate_part<16>(o, rank, ranks, rows);
      }
    }
    if (o.part == "routing" || o.part == "all") routing_part(o, rank, ranks, rows);
    if (o.part == "degree" || o.part == "all") {
      degree_part({o.graphs, o.capacity, o.repeats, o.progress_thread}, rank, ranks, rows);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mailbox_bench (rank %d): %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0) {
    std::ofstream(o.json_path) << rows.dump(2) << "\n";
    fmt::print("wrote {}\n", o.json_path);
  }
  return 0;
}
