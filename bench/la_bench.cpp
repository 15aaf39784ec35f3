// la_bench: the la engine against the vertex engine, SuiteSparse:GraphBLAS and its own MPI+X mode
// (issue 14), on the same graph, ranks and threads, alternated in one series (la, vertex, MPI+X,
// graphblas, la, ...), medians
// and the ratios of each kernel. Times are the algorithm's alone (Courier's run_seconds; GraphBLAS
// after its matrix is built). pagerank runs a fixed number of iterations; GraphBLAS runs
// pagerank and bfs only, on one process with ranks x threads threads.
//
//   la_bench --graphs kron:20,urand:20 --shapes 1x2,2x1 --repeats 5 --json out.json
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "courier/algo/builtin.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/load.hpp"
#include "courier/harness/run.hpp"
#include "series.hpp"
#ifdef COURIER_HAVE_GRAPHBLAS
#include "la/graphblas_peer.hpp"
#endif

namespace {

using namespace courier;
using bench::median;
using bench::parse_shape;
using bench::same;
using bench::Shape;

struct Options {
  std::vector<std::string> graphs{"kron:20", "urand:20"};
  std::vector<std::string> shapes{"1x2", "2x1"};
  std::vector<std::string> kernels{"pagerank", "bfs", "cc", "sssp"};
  unsigned repeats = 5;
  bool mpi_plus_x = true;  // la's MPI+X mode in the series too
  bool ablation = false;   // la without each filter in the series too (Fig. 8)
  unsigned iterations = 20;
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string json;
};

// One timed Courier run; the source is fixed so every variant starts from the same vertex.
harness::RunResult courier_run(const std::string& kernel, const std::string& file, const std::string& engine,
                               const Shape& shape, unsigned iterations, graph::vertex_t source,
                               const harness::Options& extra = {}) {
  harness::RunSpec spec;
  spec.options = extra;
  spec.algorithm = kernel;
  spec.graph = file;
  spec.engine = engine;
  spec.ranks = shape.ranks;
  spec.threads = shape.threads;
  const harness::Algorithm& algorithm = builtin_registry().algorithm(kernel);
  for (const harness::OptionSpec& option : algorithm.options) {
    if (option.name == "iterations") spec.options.set("iterations", std::to_string(iterations));
    if (option.name == "tolerance") spec.options.set("tolerance", "0");  // so exactly `iterations` run
  }
  if (algorithm.needs.source) spec.options.set("source", std::to_string(source));
  return harness::run(builtin_registry(), spec);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  courier::bench::CommandLine command_line("The la engine against the vertex engine and GraphBLAS (issue 14)");
  command_line.add("--graphs", o.graphs, "Generator specs").delimiter(',');
  command_line.add("--shapes", o.shapes, "RANKSxTHREADS").delimiter(',');
  command_line.add("--kernels", o.kernels, "Any of pagerank, bfs, cc, sssp").delimiter(',');
  command_line.add("--repeats", o.repeats, "Alternated runs per variant (median)").range(1, 99);
  command_line.add("--iterations", o.iterations, "pagerank's fixed iterations");
  command_line.flag("!--no-mpi-plus-x", o.mpi_plus_x, "Leave out la's MPI+X mode");
  command_line.flag("--ablation", o.ablation,
                    "Also la without each filter, direction switching and sampling; prints the speedup of each");
  command_line.add("--dir", o.dir, "Where the graphs are written once as .csr");
  command_line.add("--json", o.json, "Write the rows here");
  if (const auto status = command_line.parse(argc, argv)) return *status;

  // The variants of la besides its default, by name: the MPI+X mode, and each filter off.
  std::map<std::string, harness::Options> variants;
  if (o.mpi_plus_x) variants["mpi+x"].set("units", "processes");
  if (o.ablation) {
    variants["no-activity-filter"].set("activity-filter", "false");
    variants["no-computation-filter"].set("computation-filter", "false");
    variants["push-only"].set("direction", "push");    // bfs without direction switching
    variants["no-sampling"].set("sampling", "false");  // cc without its sampled iterations
  }
  // What each ablation variant leaves out, as printed.
  const std::vector<std::pair<std::string, std::string>> ablations{{"no-activity-filter", "activity filtering"},
                                                                   {"no-computation-filter", "computation filtering"},
                                                                   {"push-only", "direction switching"},
                                                                   {"no-sampling", "sampling"}};
  nlohmann::json rows = nlohmann::json::array();
  fmt::print("{:<10} {:>5} {:<9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8}\n", "graph", "shape", "kernel", "la s",
             "vertex s", "gb s", "mpi+x s", "vertex/la", "gb/la", "mpi+x/la", "la GE/s");
  for (const std::string& spec : o.graphs) {
    graph::LoadOptions load;
    load.weights = true;
    const std::string file =
        o.dir + "/la_bench_" + spec.substr(0, spec.find(':')) + "_" + spec.substr(spec.find(':') + 1) + ".csr";
    const graph::Csr csr = graph::load_graph(spec, load);
    graph::write_csr(file, csr);
    graph::vertex_t source = 0;
    for (graph::vertex_t v = 0; v < csr.num_vertices(); ++v)
      if (csr.neighbors(v).size() > csr.neighbors(source).size()) source = v;
    for (const std::string& shape_text : o.shapes) {
      const Shape shape = parse_shape(shape_text);
      // The peer's kernels, by the name of the algorithm each computes.
      std::map<std::string, std::function<double()>> peer_runs;
      harness::Values peer_values;  // the peer's last result, checked against la's
#ifdef COURIER_HAVE_GRAPHBLAS
      bench::GraphblasPeer peer(csr, static_cast<unsigned>(shape.ranks) * shape.threads);
      std::vector<double> rank;
      std::vector<std::uint64_t> level;
      peer_runs["pagerank"] = [&] {
        const double seconds = peer.pagerank(o.iterations, rank);
        peer_values = rank;
        return seconds;
      };
      peer_runs["bfs"] = [&] {
        const double seconds = peer.bfs(source, level);
        peer_values = level;
        return seconds;
      };
#endif
      for (const std::string& kernel : o.kernels) {
        std::map<std::string, std::vector<double>> times;
        harness::Values la_values;
        for (unsigned r = 0; r < o.repeats; ++r) {
          harness::RunResult la_run = courier_run(kernel, file, "la", shape, o.iterations, source);
          times["la"].push_back(la_run.run_seconds);
          la_values = std::move(la_run.values);
          times["vertex"].push_back(courier_run(kernel, file, "vertex", shape, o.iterations, source).run_seconds);
          for (const auto& [variant, options] : variants)
            times[variant].push_back(courier_run(kernel, file, "la", shape, o.iterations, source, options).run_seconds);
          if (const auto peer_run = peer_runs.find(kernel); peer_run != peer_runs.end())
            times["graphblas"].push_back(peer_run->second());
        }
        for (const auto& [variant, what] : ablations)
          if (o.ablation) {
            const double without = median(times[variant]);
            fmt::print("{} {} {}: {} {:.2f}x ({:.4f} s without it)\n", spec, shape_text, kernel, what,
                       without / median(times["la"]), without);
          }
        if (peer_runs.count(kernel) && !same(la_values, peer_values))
          fmt::print("{} {} {}: GraphBLAS and la DIFFER\n", spec, shape_text, kernel);
        const double la = median(times["la"]), vertex = median(times["vertex"]), gb = median(times["graphblas"]),
                     plus_x = median(times["mpi+x"]);
        // Edge updates per second, for a kernel of fixed steps that each touch every edge (pagerank).
        const auto& declared = builtin_registry().algorithm(kernel).options;
        const bool fixed_steps = std::any_of(declared.begin(), declared.end(), [](const harness::OptionSpec& option) {
          return option.name == "iterations";
        });
        const double updates = fixed_steps ? static_cast<double>(csr.num_edges()) * o.iterations / la / 1e9 : 0;
        fmt::print("{:<10} {:>5} {:<9} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.4f} {:>9.2f} {:>9.2f} {:>9.2f} {:>8.2f}\n", spec,
                   shape_text, kernel, la, vertex, gb, plus_x, vertex / la, gb > 0 ? gb / la : 0.0,
                   plus_x > 0 ? plus_x / la : 0.0, updates);
        rows.push_back({{"graph", spec},
                        {"shape", shape_text},
                        {"kernel", kernel},
                        {"la", times["la"]},
                        {"vertex", times["vertex"]},
                        {"graphblas", times["graphblas"]},
                        {"mpi_plus_x", times["mpi+x"]},
                        {"no_activity_filter", times["no-activity-filter"]},
                        {"no_computation_filter", times["no-computation-filter"]},
                        {"push_only", times["push-only"]},
                        {"no_sampling", times["no-sampling"]},
                        {"la_median", la},
                        {"vertex_median", vertex},
                        {"graphblas_median", gb},
                        {"mpi_plus_x_median", plus_x},
                        {"edge_updates_per_second", updates * 1e9}});
      }
    }
    std::filesystem::remove(file);
  }
  if (!o.json.empty()) {
    nlohmann::json out = {
        {"benchmark", "la_bench"}, {"commit", COURIER_COMMIT}, {"repeats", o.repeats}, {"rows", rows}};
    std::FILE* f = std::fopen(o.json.c_str(), "w");
    if (f == nullptr) return 1;
    std::fputs(out.dump(1).c_str(), f);
    std::fclose(f);
  }
  return 0;
}
