// rounds_bench: what a round costs on graphs that need many of them (issue 16). bfs, sssp and cc on
// paths and a 2D grid (a road network's shape: the diameter grows with the size), on the vertex
// engine against the sequential reference, alternated (seq, vertex, seq, vertex, ...), medians of
// the repeats. A round's cost should follow its work (active vertices, messages), not the graph:
// then the time per round (or per level, where ranks run levels alone) stays flat as the path grows.
//
//   build/bench/rounds_bench                                   (ranks as threads, channel lci)
//   build/bench/rounds_bench --graphs path:1000000 --algorithms bfs --repeats 3
//   mpirun -np 2 ... build/bench/rounds_bench --channels lci,mpi-probe,mpi-rma
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "command_line.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/harness/launch.hpp"
#include "courier/harness/run.hpp"

#ifndef COURIER_COMMIT
#define COURIER_COMMIT "unknown"
#endif

namespace courier::bench {
namespace {

struct Options {
  std::vector<std::string> graphs{"path:10000", "path:100000", "path:300000", "path:1000000", "grid:1000x1000"};
  std::vector<std::string> algorithms{"bfs", "sssp", "cc"};
  std::vector<std::string> channels{"lci"};
  int ranks = 2;
  unsigned threads = 2;
  int repeats = 3;
  std::string source = "0";  // a path's end and a grid's corner: the most levels
  std::string json = "rounds_bench.json";
};

struct Row {
  std::string graph, algorithm, channel;
  std::uint64_t rounds = 0, levels = 0;
  double seconds = 0, seq_seconds = 0;
  std::vector<double> samples, seq_samples;
};

std::string machine() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  double load[3] = {};
  const int got = getloadavg(load, 3);
  return fmt::format("{} ({} hardware threads, load average {:.2f})", host, std::thread::hardware_concurrency(),
                     got > 0 ? load[0] : -1.0);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n == 0 ? 0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

harness::RunSpec spec_for(const Options& o, const std::string& graph, const std::string& algorithm,
                          const std::string& engine) {
  harness::RunSpec spec;
  spec.algorithm = algorithm;
  spec.graph = graph;
  spec.engine = engine;
  spec.load.weights = algorithm == "sssp";
  if (engine != "seq") {  // the sequential engine refuses ranks and threads it would not use
    spec.ranks = o.ranks;
    spec.threads = o.threads;
  }
  if (algorithm != "cc") spec.options.set("source", o.source);
  return spec;
}

int run(const Options& o) {
  const harness::Registry& registry = builtin_registry();
  const harness::Launch distributed = harness::Launch::detect(true);
  const harness::Launch threads;  // the sequential reference, in the speaker's process
  const bool speaker = distributed.speaker();
  if (speaker)
    fmt::print("rounds_bench on {}, commit {}, {} ranks x {} threads{}, {} repeats, source {}\n", machine(),
               COURIER_COMMIT, distributed.under_mpi() ? distributed.ranks() : o.ranks, o.threads,
               distributed.under_mpi() ? " (MPI)" : "", o.repeats, o.source);
  std::vector<Row> rows;
  if (speaker)
    fmt::print("{:<16} {:<5} {:<10} {:>8} {:>8} {:>10} {:>12} {:>12} {:>10} {:>8}\n", "graph", "algo", "channel",
               "rounds", "levels", "vertex s", "per round us", "per level us", "seq s", "ratio");
  for (const std::string& graph : o.graphs)
    for (const std::string& algorithm : o.algorithms)
      for (const std::string& channel : o.channels) {
        Row row;
        row.graph = graph;
        row.algorithm = algorithm;
        row.channel = channel;
        harness::RunSpec vertex = spec_for(o, graph, algorithm, "vertex");
        vertex.options.set("channel", channel);
        const harness::RunSpec seq = spec_for(o, graph, algorithm, "seq");
        for (int r = 0; r < o.repeats; ++r) {
          // Only the speaker runs the reference: under mpirun the others would time theirs at once.
          harness::RunResult reference;
          if (speaker) {
            reference = harness::run(registry, seq, threads);
            row.seq_samples.push_back(reference.run_seconds);
          }
          const harness::RunResult result = harness::run(registry, vertex, distributed);
          if (!result.speaker) continue;
          row.samples.push_back(result.run_seconds);
          const nlohmann::json stats = result.to_json()["engine_stats"];
          row.rounds = stats["rounds"].get<std::uint64_t>();
          row.levels = stats.value("levels", row.rounds);  // older builds count no levels
          if (result.values != reference.values) {
            fmt::print(stderr, "rounds_bench: {} on {} over {}: the vertex engine's values DIFFER from seq's\n",
                       algorithm, graph, channel);
            return 2;
          }
        }
        if (!speaker) continue;
        row.seconds = median(row.samples);
        row.seq_seconds = median(row.seq_samples);
        auto per = [&](std::uint64_t count) { return count ? 1e6 * row.seconds / static_cast<double>(count) : 0.0; };
        fmt::print("{:<16} {:<5} {:<10} {:>8} {:>8} {:>10.4f} {:>12.2f} {:>12.3f} {:>10.4f} {:>8.1f}\n", graph,
                   algorithm, channel, row.rounds, row.levels, row.seconds, per(row.rounds), per(row.levels),
                   row.seq_seconds, row.seq_seconds > 0 ? row.seconds / row.seq_seconds : 0.0);
        std::fflush(stdout);
        rows.push_back(std::move(row));
      }
  if (!speaker) return 0;
  nlohmann::json out = {
      {"benchmark", "rounds_bench"}, {"machine", machine()},
      {"commit", COURIER_COMMIT},    {"ranks", distributed.under_mpi() ? distributed.ranks() : o.ranks},
      {"threads", o.threads},        {"repeats", o.repeats},
      {"source", o.source},          {"rows", nlohmann::json::array()}};
  for (const Row& r : rows)
    out["rows"].push_back({{"graph", r.graph},
                           {"algorithm", r.algorithm},
                           {"channel", r.channel},
                           {"rounds", r.rounds},
                           {"levels", r.levels},
                           {"seconds", r.seconds},
                           {"seq_seconds", r.seq_seconds},
                           {"samples", r.samples},
                           {"seq_samples", r.seq_samples}});
  std::ofstream(o.json) << out.dump(2) << "\n";
  return 0;
}

}  // namespace
}  // namespace courier::bench

int main(int argc, char** argv) {
  courier::bench::Options o;
  courier::bench::CommandLine command_line(
      "rounds_bench: time per round on high-diameter graphs, against the sequential reference");
  command_line.add("--graphs", o.graphs, "Graph specs or files").delimiter(',');
  command_line.add("--algorithms", o.algorithms, "bfs, sssp, cc").delimiter(',');
  command_line.add("--channels", o.channels, "lci (mpi-probe, mpi-rma under mpirun)").delimiter(',');
  command_line.add("--ranks", o.ranks, "Ranks as threads (ignored under mpirun)").show_default();
  command_line.add("--threads", o.threads, "Threads per rank").show_default();
  command_line.add("--repeats", o.repeats, "Runs of each, alternated").show_default();
  command_line.add("--source", o.source, "bfs and sssp source").show_default();
  command_line.add("--json", o.json, "Where to write the results").show_default();
  if (const auto status = command_line.parse(argc, argv)) return *status;
  try {
    return courier::bench::run(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "rounds_bench: {}\n", e.what());
    return 1;
  }
}
