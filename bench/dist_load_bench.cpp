// dist_load_bench: one rank's load + partition of a graph under mpirun, in parts (every rank reads
// its own byte range and the edges are shuffled to their owners: dist::load_distributed) or whole
// (every rank loads the whole graph and keeps its share: `courier run`'s path before distributed
// loading). Each rank reports its seconds, its edges and its peak RSS; rank 0 prints a table and
// appends one JSON line per rank. One mode per process, so peak RSS belongs to that mode alone;
// bench/dist_load_bench.sh runs both modes alternately and takes medians.
//
//   mpirun -np 2 --allow-run-as-root --oversubscribe --bind-to none build/bench/dist_load_bench
//     --graph kron20.csr --mode parts --json load.jsonl      (one command line)
#include <fmt/format.h>
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "command_line.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/graph/load.hpp"
#include "courier/net/mpi_device.hpp"
#include "courier/net/mpi_environment.hpp"
#include "courier/sync/exchange.hpp"
#include "courier/sync/stack.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

using namespace courier;

namespace {

struct Measure {
  double load = 0, partition = 0;
  std::uint64_t edges = 0, proxies = 0;
  double peak_rss_mib = 0;
};

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
}

// The old path: the whole graph on every rank, this rank's edges picked out of it.
Measure whole(const std::string& graph, dist::Policy policy, sync::Channel& channel) {
  Measure m;
  Timer timer;
  const graph::EdgeList all = graph::to_edge_list(graph::load_graph(graph, {}));
  m.load = channel.max_all(timer.lap());
  std::vector<graph::edge_t> degree(all.num_vertices, 0);
  for (const graph::Edge& e : all.edges) ++degree[policy == dist::Policy::iec ? e.dst : e.src];
  const dist::PartitionPlan plan(policy, channel.ranks(), degree);
  graph::EdgeList mine;
  mine.num_vertices = all.num_vertices;
  for (const graph::Edge& e : all.edges)
    if (plan.edge_owner(e.src, e.dst) == channel.rank()) mine.edges.push_back(e);
  dist::LocalGraph local(plan, channel.rank(), std::move(mine), true);
  dist::connect_mirrors(local, sync::collective(channel));
  m.partition = channel.max_all(timer.lap());
  m.edges = local.edges();
  m.proxies = local.proxies();
  return m;
}

Measure parts(const std::string& graph, dist::Policy policy, graph::edge_t chunk, sync::Channel& channel) {
  dist::DistributedLoadOptions options;
  options.shuffle_chunk = chunk;
  options.policy = policy;
  options.with_in_edges = true;
  const dist::DistributedGraph loaded = dist::load_distributed(graph, options, sync::collective(channel));
  return {loaded.load_seconds, loaded.partition_seconds, loaded.graph.edges(), loaded.graph.proxies(), 0};
}

}  // namespace

int main(int argc, char** argv) {
  courier::bench::CommandLine command_line("Distributed loading against whole-graph loading, per rank");
  std::string graph, mode = "parts", policy = "oec", json;
  graph::edge_t chunk = dist::DistributedLoadOptions().shuffle_chunk;
  command_line.add("--graph", graph, "A graph file or generator spec").required();
  command_line.add("--mode", mode, "parts or whole").choices({"parts", "whole"});
  command_line.add("--policy", policy, "oec, iec, cvc or hash").choices({"oec", "iec", "cvc", "hash"});
  command_line.add("--chunk", chunk, "parts: edges a rank sends per round of the shuffle").show_default();
  command_line.add("--json", json, "Append one JSON line per rank to this file");
  if (const auto status = command_line.parse(argc, argv)) return *status;

  net::MpiEnvironment mpi(&argc, &argv);
  Measure m;
  {
    // The lci channel with eager-sized messages whatever the node.
    const std::unique_ptr<sync::Stack> stack =
        sync::Stack::open({.tune = [](comm::RuntimeOptions&, sync::LciOptions& lci) { lci = {}; }}, MPI_COMM_WORLD);
    m = mode == "parts" ? parts(graph, dist::parse_policy(policy), chunk, stack->channel())
                        : whole(graph, dist::parse_policy(policy), stack->channel());
    stack->close();
  }
  m.peak_rss_mib = peak_rss_mib();

  const double mine[5] = {m.load, m.partition, static_cast<double>(m.edges), static_cast<double>(m.proxies),
                          m.peak_rss_mib};
  std::vector<double> all(5 * static_cast<std::size_t>(mpi.world_size()));
  MPI_Gather(mine, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (mpi.world_rank() != 0) return 0;

  char host[256] = {};
  gethostname(host, sizeof host - 1);
  fmt::print("{:<6} {:<28} {:>4} {:>9} {:>11} {:>11} {:>10} {:>12}\n", "mode", "graph", "rank", "load_s", "partition_s",
             "edges", "proxies", "peak_rss_MiB");
  std::ofstream out;
  if (!json.empty()) out.open(json, std::ios::app);
  for (int r = 0; r < mpi.world_size(); ++r) {
    const double* v = &all[5 * static_cast<std::size_t>(r)];
    fmt::print("{:<6} {:<28} {:>4} {:>9.3f} {:>11.3f} {:>11.0f} {:>10.0f} {:>12.1f}\n", mode, graph, r, v[0], v[1], v[2],
               v[3], v[4]);
    if (out)
      out << nlohmann::json{{"machine", fmt::format("{} ({} hardware threads)", host, std::thread::hardware_concurrency())},
                            {"commit", COURIER_COMMIT}, {"graph", graph}, {"mode", mode}, {"policy", policy},
                            {"ranks", mpi.world_size()}, {"rank", r}, {"load_seconds", v[0]},
                            {"partition_seconds", v[1]}, {"edges", v[2]}, {"proxies", v[3]},
                            {"peak_rss_mib", v[4]}}
                 .dump()
          << "\n";
  }
  return 0;
}
