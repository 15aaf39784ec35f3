#include "mailbox_degree_part.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <string>
#include <cstdint>
#include <span>

#include <fmt/format.h>

#include "courier/algo/mailbox_degree.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/net/mpi_device.hpp"
#include "mailbox_bench_common.hpp"

namespace mailbox_bench {
namespace {

using courier::graph::vertex_t;

struct Run {
  std::vector<std::uint64_t> counts;  // counts[i]: degree of vertex i * P + rank, as mailbox_degrees
  double wall = 0, cpu = 0;           // this rank's
  std::size_t buffer_bytes = 0;       // the exchange buffers this rank held (Alltoallv: out + in)
};

std::vector<std::uint64_t> zero_counts(vertex_t n, int rank, int ranks) {
  const auto P = static_cast<vertex_t>(ranks), r = static_cast<vertex_t>(rank);
  return std::vector<std::uint64_t>(static_cast<std::size_t>(n / P + (r < n % P ? 1 : 0)), 0);
}

// The bulk-synchronous twin of mailbox_degrees: rounds of `edges_per_round` edges (both ends),
// bucketed by the same owner (count, prefix sum, scatter), counts
// swapped by MPI_Alltoall and ids by MPI_Alltoallv; the owner increments what it received. Every
// rank takes part in every round, sending nothing once its own edges are done. Owners and local
// indices by the same FastDivisor as mailbox_degrees, so both pay the same per message.
// Rounds of capacity / 16 edges hold what the mailbox holds; one round of all edges is the
// textbook bulk exchange, whose buffers grow with the graph.
Run alltoallv_degrees(std::span<const courier::graph::Edge> edges, vertex_t n, int rank, int ranks,
                      std::size_t edges_per_round) {
  const double cpu = cpu_seconds();
  Run run;
  run.counts = zero_counts(n, rank, ranks);
  const std::size_t P = static_cast<std::size_t>(ranks);
  edges_per_round = std::max<std::size_t>(edges_per_round, 1);
  if (2 * edges_per_round > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw courier::InputError("mailbox_bench --part degree: a bulk round of " + std::to_string(edges_per_round) +
                              " edges overflows MPI's int counts; use a smaller graph or more ranks");
  }
  std::uint64_t my_rounds = (edges.size() + edges_per_round - 1) / edges_per_round, rounds = 0;
  std::vector<int> send_counts(P), recv_counts(P), send_displs(P), recv_displs(P), cursor(P);
  std::vector<vertex_t> out(2 * edges_per_round), in;
  std::uint64_t* counts = run.counts.data();
  const courier::FastDivisor owners(static_cast<std::uint64_t>(ranks));
  using courier::algo::degree_owner;
  courier::Timer timer;
  MPI_Allreduce(&my_rounds, &rounds, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const std::size_t first = std::min<std::size_t>(round * edges_per_round, edges.size());
    const auto batch = edges.subspan(first, std::min(edges_per_round, edges.size() - first));
    std::fill(send_counts.begin(), send_counts.end(), 0);
    for (const auto& e : batch) {
      ++send_counts[static_cast<std::size_t>(degree_owner(e.src, owners))];
      ++send_counts[static_cast<std::size_t>(degree_owner(e.dst, owners))];
    }
    displacements(send_counts, send_displs);
    cursor = send_displs;
    for (const auto& e : batch) {
      out[static_cast<std::size_t>(cursor[static_cast<std::size_t>(degree_owner(e.src, owners))]++)] = e.src;
      out[static_cast<std::size_t>(cursor[static_cast<std::size_t>(degree_owner(e.dst, owners))]++)] = e.dst;
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    in.resize(displacements(recv_counts, recv_displs));
    MPI_Alltoallv(out.data(), send_counts.data(), send_displs.data(), MPI_UINT64_T, in.data(), recv_counts.data(),
                  recv_displs.data(), MPI_UINT64_T, MPI_COMM_WORLD);
    for (const vertex_t v : in) ++counts[courier::algo::degree_local_index(v, owners)];
  }
  run.buffer_bytes = (out.capacity() + in.capacity()) * sizeof(vertex_t);
  run.wall = timer.elapsed();
  run.cpu = cpu_seconds() - cpu;
  return run;
}

Run mailbox_run(courier::comm::Runtime& rt, std::span<const courier::graph::Edge> edges, vertex_t n, std::size_t capacity) {
  const double cpu = cpu_seconds();
  courier::mailbox::Config config;
  config.capacity_bytes = capacity;
  config.routing = courier::mailbox::Routing::no_route;
  MPI_Barrier(MPI_COMM_WORLD);
  auto d = courier::algo::mailbox_degrees(rt, edges, n, config, courier::algo::DegreeCount::in_and_out);
  return {std::move(d.counts), d.seconds, cpu_seconds() - cpu, d.stats.peak_buffered_bytes};
}

struct Series {
  std::vector<double> wall, cpu;
  std::size_t buffer_bytes = 0;  // the largest of any rank and repeat
  void add(const Run& run) {
    wall.push_back(max_over_ranks(run.wall));
    cpu.push_back(max_over_ranks(run.cpu));
    std::uint64_t mine = run.buffer_bytes, most = 0;
    MPI_Allreduce(&mine, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    buffer_bytes = std::max<std::size_t>(buffer_bytes, most);
  }
};

// Every rank holds the same counts in both runs.
bool same_everywhere(const Run& a, const Run& b) {
  int equal = a.counts == b.counts ? 1 : 0, all_equal = 0;
  MPI_Allreduce(&equal, &all_equal, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all_equal == 1;
}

}  // namespace

void degree_part(const DegreePartOptions& o, int rank, int ranks, nlohmann::json& rows) {
  if (ranks < 2) {
    if (rank == 0) fmt::print("degree: skipped, it needs mpirun -np 2 (or more)\n");
    return;
  }
  if (rank == 0) {
    fmt::print("\ndegree: Algorithm 1 (both ends), {} ranks, capacity {} B, median of {}; M msgs/s per rank by wall "
               "time (max over ranks) through the mailbox (no_route), MPI_Alltoallv in rounds of the capacity, and one "
               "bulk MPI_Alltoallv of every id; ratios are the mailbox's speed-ups; buffers: the busiest rank's\n",
               ranks, o.capacity, o.repeats);
    fmt::print("{:<10} {:>10} {:>9} {:>9} {:>7} {:>9} {:>7} {:>9} {:>9} {:>10} {:>10}  {}\n", "graph", "msgs/rank",
               "mailbox", "a2av", "ratio", "bulk", "ratio", "cpu_a2av", "cpu_bulk", "mbox_MB", "bulk_MB", "degrees");
  }
  courier::comm::RuntimeOptions runtime_options;
  runtime_options.progress_thread = o.progress_thread;
  courier::comm::Runtime rt(courier::net::make_mpi_device(), runtime_options);
  for (const std::string& spec : o.graphs) {
    courier::graph::GeneratorOptions g;
    if (!courier::graph::parse_generator_spec(spec, g)) throw courier::InputError("--graphs takes kron:S or urand:S, not " + spec);
    g.threads = 1;
    const auto slice = my_slice(g, rank, ranks);
    const vertex_t n = vertex_t{1} << g.scale;
    std::uint64_t mine = slice.edges.size(), most_edges = 0;
    MPI_Allreduce(&mine, &most_edges, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    Series mailbox, rounds, bulk;
    bool same = true;
    for (int rep = 0; rep < o.repeats; ++rep) {  // A B C A B C ..., medians reported
      const Run a = mailbox_run(rt, slice.edges, n, o.capacity);
      MPI_Barrier(MPI_COMM_WORLD);
      const Run b = alltoallv_degrees(slice.edges, n, rank, ranks, o.capacity / (2 * sizeof(vertex_t)));
      MPI_Barrier(MPI_COMM_WORLD);
      const Run c = alltoallv_degrees(slice.edges, n, rank, ranks, most_edges);
      mailbox.add(a);
      rounds.add(b);
      bulk.add(c);
      same = same_everywhere(a, b) && same_everywhere(a, c) && same;
    }
    if (rank != 0) continue;
    const double per_rank = 2.0 * static_cast<double>(courier::graph::generated_edge_count(g)) / ranks;
    const double m = median(mailbox.wall), b = median(rounds.wall), c = median(bulk.wall);
    const double mc = median(mailbox.cpu), bc = median(rounds.cpu), cc = median(bulk.cpu);
    fmt::print("{:<10} {:>10.0f} {:>9.2f} {:>9.2f} {:>7.2f} {:>9.2f} {:>7.2f} {:>9.2f} {:>9.2f} {:>10.2f} {:>10.2f}  {}\n",
               spec, per_rank, per_rank / m / 1e6, per_rank / b / 1e6, b / m, per_rank / c / 1e6, c / m, bc / mc,
               cc / mc, static_cast<double>(mailbox.buffer_bytes) / 1e6, static_cast<double>(bulk.buffer_bytes) / 1e6,
               same ? "identical" : "DIFFER");
    std::fflush(stdout);
    rows.push_back({{"part", "degree"}, {"graph", spec}, {"ranks", ranks}, {"capacity", o.capacity},
                    {"repeats", o.repeats}, {"messages_per_rank", per_rank}, {"mailbox_seconds", m},
                    {"alltoallv_seconds", b}, {"bulk_alltoallv_seconds", c}, {"mailbox_cpu_seconds", mc},
                    {"alltoallv_cpu_seconds", bc}, {"bulk_alltoallv_cpu_seconds", cc},
                    {"mailbox_msgs_per_s_per_rank", per_rank / m}, {"alltoallv_msgs_per_s_per_rank", per_rank / b},
                    {"bulk_alltoallv_msgs_per_s_per_rank", per_rank / c}, {"ratio", b / m}, {"bulk_ratio", c / m},
                    {"mailbox_buffer_bytes", mailbox.buffer_bytes}, {"bulk_buffer_bytes", bulk.buffer_bytes},
                    {"degrees_identical", same}});
  }
  rt.shutdown();
}

}  // namespace mailbox_bench
