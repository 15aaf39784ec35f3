// engine_bench: Table II of paper 000 at this machine's scale. bfs, cc, sssp (delta-stepping) and
// pagerank (20 fixed iterations) on symmetrized, weighted graphs, on 2 and 4 ranks of one mpirun,
// with every sync channel in the same run, interleaved (lci, mpi-probe, mpi-rma, lci, ...),
// medians of the repeats. Each graph is loaded once and partitioned once per rank count (outgoing
// edge cut); each run makes its channel inside the timing (MPI-RMA's windows count) and ends when
// the result is complete on every rank. Ranks beyond a run's count wait asleep.
// Single-rank mode: 1 rank x T threads against the sequential reference, in edges per second.
//
//   mpirun -np 4 --allow-run-as-root --oversubscribe --bind-to none --mca pml ob1
//     --mca btl self,vader --mca btl_vader_single_copy_mechanism none
//     build/bench/engine_bench --json engine_bench.json            (one command line)
//   build/bench/engine_bench --single --threads 2 --json engine_single.json
//
// Smaller selections: --graphs kron:18 --algorithms bfs,pagerank --ranks 2 --repeats 3;
// --channels
// lci,lci-thread,lci-whole,lci-explicit,lci-eager-server,lci-4k,lci-unbounded,lci-w8,lci-64k,mpi-probe,mpi-rma adds lci
// variants (see engine/channels.hpp);
// --verify checks every result against the sequential reference (rank 0 builds the whole graph).
#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "command_line.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/csr.hpp"
#include "courier/harness/fault_injection.hpp"
#include "courier/harness/launch.hpp"
#include "courier/net/mpi_environment.hpp"
#include "courier/sync/solo_channel.hpp"
#include "courier/vertex/run.hpp"
#include "engine/channels.hpp"
#include "engine/graph_share.hpp"
#include "engine/kernels.hpp"
#include "series.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

namespace courier::bench {
namespace {

struct Options {
  std::vector<std::string> graphs{"kron:18", "kron:19", "kron:20", "urand:20"};
  std::vector<std::string> kernels = kKernels;
  std::vector<std::string> channels = kChannels;
  std::vector<int> ranks{2, 4};
  unsigned threads = 0;  // 0: 1 per rank distributed, 2 in single-rank mode
  int repeats = 3;
  std::uint64_t delta = 32;
  std::string direction;  // empty: each kernel's default (see KernelOptions)
  bool dedupe = false;
  bool verify = false;
  bool single = false;
  bool pin = true;
  std::string json = "engine_bench.json";
};

std::string machine() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  double load[3] = {};
  const int got = getloadavg(load, 3);
  return fmt::format("{} ({} hardware threads, load average {:.2f})", host, std::thread::hardware_concurrency(),
                     got > 0 ? load[0] : -1.0);
}

std::string commit() {
  const char* from_env = std::getenv("COURIER_COMMIT");
  return from_env && *from_env ? from_env : COURIER_COMMIT;
}

// A barrier that sleeps while it waits, so ranks sitting out a run leave the cores to the others.
void sleepy_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Fingerprint sum_over(MPI_Comm comm, const Fingerprint& mine) {
  Fingerprint total;
  MPI_Allreduce(&mine.exact, &total.exact, 1, MPI_UINT64_T, MPI_SUM, comm);
  MPI_Allreduce(&mine.approximate, &total.approximate, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

// One timed run of a kernel on one channel.
struct Sample {
  double seconds = 0;
  vertex::RunStats stats;
  Fingerprint print;
};

Sample run_once(const dist::LocalGraph& share, const std::string& channel_name, const Kernel& kernel, unsigned threads,
                bool pin, MPI_Comm comm) {
  Sample sample;
  // The ranks outside this run sleep, so this run's ranks split the PUs between them.
  const PlacementOptions placement{pin, share.rank(), share.ranks()};
  Fingerprint mine;
  MPI_Barrier(comm);
  Timer timer;
  {
    const std::unique_ptr<sync::Stack> stack = sync::Stack::open(channel_spec(channel_name, threads), comm);
    // A rank that fails ends the whole run at once, as `courier run` does: unwinding would close its
    // stack, collectively, while the other ranks wait for it in the algorithm's.
    harness::ending_the_run_on_failure(share.rank(), share.ranks(), [&] {
      sample.stats = vertex::run(
          share, stack->channel(), threads,
          [&](vertex::Engine& e) {
            harness::maybe_fail(share.rank(), "run");
            mine = run_kernel(kernel, e);
            sample.seconds = timer.elapsed();
          },
          placement);
    });
  }
  MPI_Allreduce(MPI_IN_PLACE, &sample.seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
  sample.print = sum_over(comm, mine);
  return sample;
}

struct Row {
  std::string graph, kernel, channel;
  int ranks = 0;
  unsigned threads = 0;
  double seconds = 0, compute = 0, comm = 0, setup = 0;
  std::size_t rounds = 0;
  std::uint64_t messages = 0, bytes = 0, footprint = 0;
  double lci_speedup = 0;  // this channel's time over the lci channel's
};

void print_header() {
  fmt::print("{:<10} {:>5} {:<9} {:<13} {:>9} {:>9} {:>9} {:>7} {:>9} {:>10} {:>11} {:>8} {:>8}\n", "graph", "ranks",
             "kernel", "channel", "time s", "compute", "comm", "rounds", "messages", "MB sent", "buffers MB", "setup s",
             "lci x");
}

void print_row(const Row& r) {
  fmt::print(
      "{:<10} {:>5} {:<9} {:<13} {:>9.4f} {:>9.4f} {:>9.4f} {:>7} {:>9} {:>10.2f} {:>11.2f} {:>8.4f} {:>7.2f}x\n",
      r.graph, r.ranks, r.kernel, r.channel, r.seconds, r.compute, r.comm, r.rounds, r.messages, r.bytes / 1e6,
      r.footprint / 1e6, r.setup, r.lci_speedup);
  std::fflush(stdout);
}

nlohmann::json to_json(const Row& r) {
  return {{"graph", r.graph},
          {"ranks", r.ranks},
          {"threads", r.threads},
          {"kernel", r.kernel},
          {"channel", r.channel},
          {"seconds", r.seconds},
          {"compute_seconds", r.compute},
          {"comm_seconds", r.comm},
          {"setup_seconds", r.setup},
          {"rounds", r.rounds},
          {"messages", r.messages},
          {"bytes", r.bytes},
          {"buffer_bytes_peak", r.footprint},
          {"lci_speedup", r.lci_speedup}};
}

// Geometric means of the lci channel's speedups per (graph, ranks), and the footprint ratios.
void print_summary(const std::vector<Row>& rows, const Options& o) {
  std::map<std::pair<std::string, int>, std::map<std::string, std::vector<const Row*>>> groups;
  for (const Row& r : rows) groups[{r.graph, r.ranks}][r.channel].push_back(&r);
  fmt::print("\nlci against each channel (geometric mean of time ratios over the kernels; buffer footprint ratio):\n");
  for (const auto& [key, by_channel] : groups) {
    for (const std::string& channel : o.channels) {
      if (channel == "lci" || !by_channel.count(channel)) continue;
      double log_sum = 0, footprint_ratio = 0;
      for (const Row* r : by_channel.at(channel)) log_sum += std::log(r->lci_speedup);
      const auto& lci = by_channel.count("lci") ? by_channel.at("lci") : by_channel.at(channel);
      std::uint64_t lci_bytes = 0, other_bytes = 0;
      for (const Row* r : lci) lci_bytes = std::max(lci_bytes, r->footprint);
      for (const Row* r : by_channel.at(channel)) other_bytes = std::max(other_bytes, r->footprint);
      footprint_ratio = lci_bytes == 0 ? 0 : static_cast<double>(other_bytes) / static_cast<double>(lci_bytes);
      fmt::print("  {:<10} {} ranks: lci {:.2f}x faster than {} (geometric mean), {} buffers {:.1f}x lci's\n",
                 key.first, key.second, std::exp(log_sum / static_cast<double>(by_channel.at(channel).size())), channel,
                 channel, footprint_ratio);
    }
  }
}

int run_distributed(const Options& o, int world_rank, int world_size) {
  const unsigned threads = o.threads == 0 ? 1 : o.threads;
  if (world_rank == 0) {
    fmt::print(
        "engine_bench on {}, commit {}, {} MPI ranks, {} thread(s) per rank, {} repeats, sssp delta {}, direction {}\n",
        machine(), commit(), world_size, threads, o.repeats, o.delta,
        o.direction.empty() ? "each kernel's own" : o.direction);
    print_header();
  }
  std::vector<Row> rows;
  for (const std::string& spec : o.graphs) {
    const BenchGraph g = load_bench_graph(spec, o.dedupe);
    std::map<std::string, Fingerprint> reference;
    const KernelOptions kernel_options{.source = g.source, .delta = o.delta, .direction = o.direction};
    if (o.verify && world_rank == 0) {
      const graph::Csr csr = graph::build_csr(g.edges);
      for (const std::string& kernel : o.kernels)
        reference[kernel] = run_reference(find_kernel(kernel, kernel_options), csr);
    }
    for (int ranks : o.ranks) {
      if (ranks > world_size) {
        if (world_rank == 0) fmt::print("(skipping {} ranks: run under mpirun -np {} or more)\n", ranks, ranks);
        continue;
      }
      MPI_Comm comm;
      MPI_Comm_split(MPI_COMM_WORLD, world_rank < ranks ? 0 : MPI_UNDEFINED, world_rank, &comm);
      if (comm != MPI_COMM_NULL) {
        const auto share = partition_share(g, comm);
        for (const std::string& kernel : o.kernels) {
          const Kernel found = find_kernel(kernel, kernel_options);
          std::map<std::string, std::vector<Sample>> samples;
          for (int repeat = 0; repeat < o.repeats; ++repeat)
            for (const std::string& channel : o.channels)
              samples[channel].push_back(run_once(*share, channel, found, threads, o.pin, comm));
          std::vector<Row> block;
          for (const std::string& channel : o.channels) {
            const auto& s = samples[channel];
            Row r{spec, kernel, channel, ranks, threads};
            std::vector<double> seconds, compute, comm_time, setup;
            for (const Sample& x : s) {
              seconds.push_back(x.seconds);
              compute.push_back(x.stats.compute_seconds);
              comm_time.push_back(x.stats.sync_seconds);
              setup.push_back(x.stats.setup_seconds);
              if (!x.print.matches(s.front().print) || !x.print.matches(samples[o.channels.front()].front().print))
                throw Error(fmt::format("engine_bench: {} on {} gave a different result on {} than on {}", kernel, spec,
                                        channel, o.channels.front()));
            }
            if (world_rank == 0 && o.verify && !s.front().print.matches(reference.at(kernel)))
              throw Error(
                  fmt::format("engine_bench: {} on {} differs from the sequential reference ({:#x}, {:.17g} "
                              "against the reference's {:#x}, {:.17g})",
                              kernel, spec, s.front().print.exact, s.front().print.approximate,
                              reference.at(kernel).exact, reference.at(kernel).approximate));
            r.seconds = median(seconds);
            r.compute = median(compute);
            r.comm = median(comm_time);
            r.setup = median(setup);
            r.rounds = s.back().stats.rounds.size();
            r.messages = s.back().stats.messages;
            r.bytes = s.back().stats.bytes;
            r.footprint = s.back().stats.buffer_bytes_peak;
            block.push_back(r);
          }
          const auto lci = std::find_if(block.begin(), block.end(), [](const Row& r) { return r.channel == "lci"; });
          for (Row& r : block) {
            r.lci_speedup = lci == block.end() ? 0 : r.seconds / lci->seconds;
            if (world_rank == 0) print_row(r);
            rows.push_back(r);
          }
        }
        MPI_Comm_free(&comm);
      }
      sleepy_barrier(MPI_COMM_WORLD);
    }
  }
  if (world_rank != 0) return 0;
  print_summary(rows, o);
  nlohmann::json json = {{"benchmark", "engine_bench"},
                         {"machine", machine()},
                         {"commit", commit()},
                         {"world_ranks", world_size},
                         {"repeats", o.repeats},
                         {"delta", o.delta},
                         {"direction", o.direction.empty() ? "default" : o.direction},
                         {"rows", nlohmann::json::array()}};
  for (const Row& r : rows) json["rows"].push_back(to_json(r));
  std::ofstream(o.json) << json.dump(2) << "\n";
  fmt::print("wrote {}\n", o.json);
  return 0;
}

// 1 rank x T threads on the solo channel against the sequential reference, interleaved.
int run_single(const Options& o) {
  const unsigned threads = o.threads == 0 ? 2 : o.threads;
  fmt::print("engine_bench --single on {}, commit {}, 1 rank x {} threads, {} repeats, sssp delta {}\n", machine(),
             commit(), threads, o.repeats, o.delta);
  fmt::print("{:<10} {:<9} {:>12} {:>12} {:>14} {:>14} {:>8}\n", "graph", "kernel", "reference s", "engine s",
             "reference e/s", "engine e/s", "speedup");
  nlohmann::json json = {{"benchmark", "engine_bench --single"}, {"machine", machine()}, {"commit", commit()},
                         {"threads", threads}, {"repeats", o.repeats}, {"delta", o.delta},
                         {"rows", nlohmann::json::array()}};
  for (const std::string& spec : o.graphs) {
    BenchGraph g = load_bench_graph(spec, o.dedupe);
    const graph::Csr csr = graph::build_csr(g.edges);
    const auto parts = dist::partition_in_memory(g.edges, dist::Policy::oec, 1, true);
    g.edges = {};
    const KernelOptions kernel_options{.source = g.source, .delta = o.delta, .direction = o.direction};
    const double edges = static_cast<double>(csr.num_edges());
    sync::SoloChannel channel;
    for (const std::string& kernel : o.kernels) {
      const Kernel found = find_kernel(kernel, kernel_options);
      std::vector<double> reference_s, engine_s;
      Fingerprint reference, engine_print;
      for (int repeat = 0; repeat < o.repeats; ++repeat) {
        Timer timer;
        reference = run_reference(found, csr);
        reference_s.push_back(timer.lap());
        vertex::run(
            parts[0], channel, threads,
            [&](vertex::Engine& e) {
              engine_print = run_kernel(found, e);
              engine_s.push_back(timer.lap());
            },
            {.pin = o.pin});
        if (!engine_print.matches(reference))
          throw Error(fmt::format("engine_bench: {} on {} differs from the sequential reference", kernel, spec));
      }
      const double ref = median(reference_s), eng = median(engine_s);
      fmt::print("{:<10} {:<9} {:>12.4f} {:>12.4f} {:>14.3e} {:>14.3e} {:>7.2f}x\n", spec, kernel, ref, eng,
                 edges / ref, edges / eng, ref / eng);
      std::fflush(stdout);
      json["rows"].push_back({{"graph", spec}, {"kernel", kernel}, {"vertices", csr.num_vertices()},
                              {"edges", csr.num_edges()}, {"reference_seconds", ref}, {"engine_seconds", eng},
                              {"reference_edges_per_second", edges / ref}, {"engine_edges_per_second", edges / eng}});
    }
  }
  std::ofstream(o.json) << json.dump(2) << "\n";
  fmt::print("wrote {}\n", o.json);
  return 0;
}

}  // namespace
}  // namespace courier::bench

int main(int argc, char** argv) {
  using namespace courier::bench;
  courier::net::MpiEnvironment mpi(&argc, &argv);
  courier::bench::CommandLine command_line(
      "Table II of the LCI paper: bfs, cc, sssp, pagerank on every sync channel (under mpirun)");
  Options o;
  command_line.add("--graphs", o.graphs, "Generator specs or files (symmetrized, with uint32 weights)").delimiter(',');
  command_line.add("--algorithms", o.kernels, "Any of bfs, cc, sssp, pagerank").delimiter(',');
  command_line
      .add(
          "--channels,--channels", o.channels,
          "Any of lci, mpi-probe, mpi-rma (variants: lci-thread, lci-explicit, lci-eager, lci-whole, lci-eager-server, "
          "lci-4k, lci-unbounded, lci-wN (window N), lci-mN (N KiB messages), lci-yN (N yields), lci-nap, lci-64k)")
      .delimiter(',');
  command_line.add("--ranks", o.ranks, "Rank counts, each run on the first ranks of the job").delimiter(',');
  command_line.add("--threads", o.threads, "Threads per rank (default 1; 2 with --single)");
  command_line.add("--repeats", o.repeats, "Median of this many runs per channel").range(1, 99);
  command_line.add("--delta", o.delta, "sssp's delta-stepping bucket width (0: Bellman-Ford)");
  command_line
      .add("--direction", o.direction,
           "auto, push or pull for every kernel that takes it, cc by label propagation (paper 000's Fig. 4: "
           "Gemini's dual mode on each channel); default: each kernel's own")
      .choices({"auto", "push", "pull"});
  command_line.flag("--dedupe", o.dedupe, "Remove duplicate edges after symmetrizing");
  command_line.flag("--verify", o.verify, "Check every result against the sequential reference");
  command_line.flag("--single", o.single, "One rank with --threads threads against the sequential reference");
  command_line.flag("!--no-pin", o.pin, "Do not pin the ranks' threads to processing units");
  command_line.add("--json", o.json, "Where rank 0 writes the results");
  if (const auto status = command_line.parse(argc, argv)) return *status;
  try {
    if (o.single) {
      if (mpi.world_size() != 1) throw courier::InputError("engine_bench: --single runs without mpirun (one process)");
      return run_single(o);
    }
    if (mpi.world_size() < 2) throw courier::InputError("engine_bench: run it under mpirun -np 4 (or use --single)");
    return run_distributed(o, mpi.world_rank(), mpi.world_size());
  } catch (const std::exception& error) {
    fmt::print(stderr, "engine_bench: {}\n", error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}
