// dsl_bench: the generated programs against the hand-written ones (issue 15): the dsl engine's
// optimised generation, its naive generation (StarPlat's original distributed backend) and the
// vertex engine's algo/ kernels, on the same graph, ranks, threads and channel, alternated in one
// series (optimised, naive, hand-written, optimised, ...), medians. For both generations it also
// prints where the time went (paper 004, Fig. 3 and 8): computation in vertex loops, reductions,
// remote reads (mirrors refreshed) and agreement between ranks; each the slowest rank's. A fourth
// variant, "same algorithm", runs the vertex engine on the algorithm the program states (sssp
// Bellman-Ford, bfs push-only, cc label propagation; pagerank as hand-written, both choosing their
// shares' precision by one rule), which measures the compiler rather than the choice of algorithm.
// Results of all are checked against each other. pagerank runs a fixed number of iterations; bfs
// and sssp start from the vertex with the most out-edges, as every engine does by default.
//
//   dsl_bench --graphs kron:20,urand:20 --shapes 2x1,4x1 --repeats 5 --json out.json
//   dsl_bench --graphs k20w.csr,u20w.csr ...      (files written by `courier generate --weights`: no
//                                                 generation in every run)
//   mpirun -np 4 dsl_bench --shapes 4x1 --channel mpi-rma        (ranks are the launched processes)
//   dsl_bench --variants optimised,hand-written ...               (a subset: the others print nan)
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/engines/dsl.hpp"
#include "courier/harness/run.hpp"
#include "series.hpp"

namespace {

using namespace courier;
using bench::median;
using bench::parse_shape;
using bench::same;
using bench::Shape;

struct Options {
  std::vector<std::string> graphs{"kron:20", "urand:20"};
  std::vector<std::string> shapes{"2x1", "4x1"};
  std::vector<std::string> kernels{"sssp", "bfs", "cc", "pagerank"};
  std::string channel = "lci";
  unsigned repeats = 5;
  unsigned iterations = 20;
  std::vector<std::string> variants{"optimised", "naive", "hand-written", "same algorithm"};
  std::string json;
};

harness::RunResult run(const std::string& kernel, const std::string& graph, const std::string& engine,
                       const std::string& generation, const Shape& shape, const Options& o,
                       const harness::Launch& launch) {
  harness::RunSpec spec;
  spec.algorithm = kernel;
  spec.graph = graph;
  spec.load.weights = !std::filesystem::exists(graph);  // a generator spec; a file brings its own weights
  spec.engine = engine;
  spec.ranks = shape.ranks;
  spec.threads = shape.threads;
  spec.options.set("channel", o.channel);
  if (engine == "dsl") spec.options.set("generation", generation);
  if (generation == "same algorithm") {
    if (kernel == "sssp") spec.options.set("delta", "0");
    if (kernel == "bfs") spec.options.set("direction", "push");
    if (kernel == "cc") spec.options.set("method", "label-propagation");
  }
  const harness::Algorithm& algorithm = builtin_registry().algorithm(kernel);
  for (const harness::OptionSpec& option : algorithm.options) {
    if (option.name == "iterations") spec.options.set("iterations", std::to_string(o.iterations));
    if (option.name == "tolerance") spec.options.set("tolerance", "0");  // so exactly `iterations` run
  }
  return harness::run(builtin_registry(), spec, launch);
}

// The phases of a dsl run, by name, in seconds (paper 004, Fig. 3 and 8).
constexpr const char* kPhases[] = {"compute", "reduction", "local_reads", "remote_reads", "traversal", "agreement"};

std::map<std::string, double> phases(const harness::RunResult& r) {
  const auto* stats = dynamic_cast<const engines::DslStats*>(r.stats.get());
  if (!stats) return {};
  return {{"compute", stats->phases.compute_seconds},
          {"reduction", stats->phases.reduction_seconds},
          {"local_reads", stats->phases.local_read_seconds},
          {"remote_reads", stats->phases.remote_read_seconds},
          {"traversal", stats->phases.traversal_seconds},
          {"agreement", stats->phases.agreement_seconds}};
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  courier::bench::CommandLine command_line(
      "Generated programs (optimised, naive) against the hand-written ones (issue 15)");
  command_line.add("--graphs", o.graphs, "Generator specs").delimiter(',');
  command_line.add("--shapes", o.shapes, "RANKSxTHREADS (under mpirun: the launched ranks)").delimiter(',');
  command_line.add("--kernels", o.kernels, "Any of sssp, bfs, cc, pagerank, tc").delimiter(',');
  command_line.add("--channel", o.channel, "lci, mpi-probe or mpi-rma (the MPI ones under mpirun)");
  command_line.add("--repeats", o.repeats, "Alternated runs per variant (median)").range(1, 99);
  command_line.add("--iterations", o.iterations, "pagerank's fixed iterations");
  command_line.add("--variants", o.variants, "Some of: optimised, naive, hand-written, same algorithm (missing: nan)")
      .delimiter(',');
  command_line.add("--json", o.json, "Write the rows here");
  if (const auto status = command_line.parse(argc, argv)) return *status;

  nlohmann::json rows = nlohmann::json::array();
  const harness::Launch launch = harness::Launch::detect(true);
  const bool speaker = launch.speaker();
  auto say = [&](const std::string& text) {
    if (speaker) std::fputs(text.c_str(), stdout), std::fflush(stdout);
  };
  say(
      fmt::format("{:<10} {:>5} {:<9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}   phases (compute/reduction/local reads/"
                  "remote reads/traversal/agreement s)\n",
                  "graph", "shape", "kernel", "opt s", "naive s", "hand s", "naive/o", "opt/hand", "opt/same"));
  for (const std::string& spec : o.graphs) {
    for (const std::string& shape_text : o.shapes) {
      const Shape shape = parse_shape(shape_text);
      for (const std::string& kernel : o.kernels) {
        std::map<std::string, std::vector<double>> times;
        std::map<std::string, std::map<std::string, std::vector<double>>> phase_times;
        std::map<std::string, harness::Values> values;
        for (unsigned r = 0; r < o.repeats; ++r) {
          for (const std::string& variant : o.variants) {
            const bool hand = variant == "hand-written" || variant == "same algorithm";
            harness::RunResult result = run(kernel, spec, hand ? "vertex" : "dsl", variant, shape, o, launch);
            times[variant].push_back(result.run_seconds);
            for (const auto& [name, seconds] : phases(result)) phase_times[variant][name].push_back(seconds);
            values[variant] = std::move(result.values);
          }
        }
        bool differ = false;
        for (const auto& [variant, result] : values) differ = differ || !same(result, values.begin()->second);
        if (speaker && differ) say(fmt::format("{} {} {}: results DIFFER\n", spec, shape_text, kernel));
        auto median_of = [&](const char* variant) {
          return times[variant].empty() ? std::nan("") : median(times[variant]);
        };
        const double optimised = median_of("optimised"), naive = median_of("naive"), hand = median_of("hand-written"),
                     like = median_of("same algorithm");
        std::string breakdown;
        nlohmann::json phase_json;
        for (const char* variant : {"optimised", "naive"}) {
          std::vector<std::string> parts;
          for (const char* phase : kPhases) {
            const std::vector<double>& all = phase_times[variant][phase];
            const double seconds = all.empty() ? std::nan("") : median(all);
            parts.push_back(fmt::format("{:.4f}", seconds));
            phase_json[variant][phase] = seconds;
          }
          breakdown +=
              fmt::format("  {} {}", variant == std::string("optimised") ? "opt" : "naive", fmt::join(parts, "/"));
        }
        say(fmt::format("{:<10} {:>5} {:<9} {:>9.4f} {:>9.4f} {:>9.4f} {:>8.2f} {:>8.2f} {:>8.2f} {}\n", spec,
                        shape_text, kernel, optimised, naive, hand, naive / optimised, optimised / hand,
                        optimised / like, breakdown));
        rows.push_back({{"graph", spec},
                        {"shape", shape_text},
                        {"channel", o.channel},
                        {"kernel", kernel},
                        {"optimised", times["optimised"]},
                        {"naive", times["naive"]},
                        {"hand_written", times["hand-written"]},
                        {"same_algorithm", times["same algorithm"]},
                        {"same_algorithm_median", like},
                        {"optimised_median", optimised},
                        {"naive_median", naive},
                        {"hand_written_median", hand},
                        {"phases_median", phase_json}});
      }
    }
  }
  if (speaker && !o.json.empty()) {
    nlohmann::json out = {{"benchmark", "dsl_bench"},
                          {"commit", COURIER_COMMIT},
                          {"repeats", o.repeats},
                          {"iterations", o.iterations},
                          {"rows", rows}};
    std::FILE* f = std::fopen(o.json.c_str(), "w");
    if (f == nullptr) return 1;
    std::fputs(out.dump(1).c_str(), f);
    std::fclose(f);
  }
  return 0;
}
