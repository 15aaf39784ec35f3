// The engine on one rank with a team of threads against the sequential references, on a
// generated graph: bfs, cc, sssp, pagerank (20 steps). Prints a table (median seconds of the
// repeats, edges per second) and writes JSON. Usage: engine_single_rank [kron:16] [threads] [repeats] [out.json]
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "courier/algo/bfs.hpp"
#include "courier/algo/cc.hpp"
#include "courier/algo/pagerank.hpp"
#include "courier/algo/sssp.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/graph/csr.hpp"
#include "courier/graph/generate.hpp"
#include "courier/graph/reference.hpp"
#include "courier/sync/solo_channel.hpp"

using namespace courier;

namespace {

double median_seconds(int repeats, const std::function<void()>& run) {
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    Timer timer;
    run();
    times.push_back(timer.elapsed());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string spec = argc > 1 ? argv[1] : "kron:16";
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 2;
  const int repeats = argc > 3 ? std::stoi(argv[3]) : 3;
  const std::string json_path = argc > 4 ? argv[4] : "engine_single_rank.json";

  graph::GeneratorOptions options;
  if (!graph::parse_generator_spec(spec, options)) {
    fmt::print(stderr, "engine_single_rank: '{}' is not a generator spec such as kron:16\n", spec);
    return 1;
  }
  options.weights = true;
  const graph::EdgeList edges = graph::generate(options);
  const graph::Csr csr = graph::build_csr(edges);
  const auto parts = dist::partition_in_memory(edges, dist::Policy::oec, 1, true);
  const dist::LocalGraph& local = parts[0];
  sync::SoloChannel channel;
  ThreadTeam team(threads);
  const double m = static_cast<double>(csr.num_edges());
  // The source: the vertex of largest out-degree, so the search reaches the giant component.
  graph::vertex_t source = 0;
  for (graph::vertex_t v = 0; v < csr.num_vertices(); ++v)
    if (csr.degree(v) > csr.degree(source)) source = v;

  struct Row {
    std::string kernel;
    double reference, engine;
  };
  std::vector<Row> rows;
  auto engine_run = [&](const std::function<void(engine::Engine&)>& body) {
    return median_seconds(repeats, [&] {
      engine::Engine engine(local, channel, team);
      body(engine);
    });
  };
  rows.push_back({"bfs", median_seconds(repeats, [&] { graph::reference::bfs(csr, source); }),
                  engine_run([&](engine::Engine& e) { algo::bfs(e, {.source = source}); })});
  rows.push_back({"cc", median_seconds(repeats, [&] { graph::reference::connected_components(csr); }),
                  engine_run([&](engine::Engine& e) { algo::cc_union_find(e); })});
  rows.push_back({"cc-lp", rows.back().reference, engine_run([&](engine::Engine& e) { algo::cc_label_propagation(e); })});
  rows.push_back({"sssp", median_seconds(repeats, [&] { graph::reference::sssp(csr, source); }),
                  engine_run([&](engine::Engine& e) { algo::sssp(e, {.source = source, .delta = 32}); })});
  rows.push_back({"pagerank20", median_seconds(repeats, [&] { graph::reference::pagerank(csr, {0.85, 0, 20}); }),
                  engine_run([&](engine::Engine& e) { algo::pagerank(e, {.tolerance = 0, .max_iterations = 20}); })});

  fmt::print("{} ({} vertices, {} edges), engine: 1 rank x {} threads, median of {}\n", spec, csr.num_vertices(),
             csr.num_edges(), threads, repeats);
  fmt::print("{:<11} {:>12} {:>12} {:>14} {:>14} {:>8}\n", "kernel", "reference s", "engine s", "reference e/s",
             "engine e/s", "speedup");
  nlohmann::json json = {{"graph", spec}, {"ranks", 1}, {"threads", threads}, {"repeats", repeats},
                         {"vertices", csr.num_vertices()}, {"edges", csr.num_edges()}, {"kernels", nlohmann::json::array()}};
  for (const Row& row : rows) {
    fmt::print("{:<11} {:>12.4f} {:>12.4f} {:>14.3e} {:>14.3e} {:>7.2f}x\n", row.kernel, row.reference, row.engine,
               m / row.reference, m / row.engine, row.reference / row.engine);
    json["kernels"].push_back({{"kernel", row.kernel}, {"reference_seconds", row.reference}, {"engine_seconds", row.engine}});
  }
  std::ofstream(json_path) << json.dump(2) << "\n";
  return 0;
}
