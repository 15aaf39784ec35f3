// courier info GRAPH: counts, degrees, loops, duplicates, isolated vertices and components.
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/partitioned_csr.hpp"
#include "courier/graph/stats.hpp"
#include "graph_options.hpp"
#include "progress_options.hpp"

namespace courier::cli {

void add_info_command(CLI::App& app) {
  struct Options {
    std::string graph;
    graph::LoadOptions load;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("info",
                                     "Describe a graph.\nExample: courier info rome99.gr");
  command->add_option("graph", options->graph, "Graph file or generator spec (kron:16)")->required();
  add_graph_options(*command, options->load);
  add_progress_options(*command);
  command->callback([options, command] {
    check_graph_options(*command, options->graph);
    announce("reading", options->graph);
    Timer timer;
    const graph::Csr csr = graph::load_graph(options->graph, options->load);
    const double load_seconds = timer.lap();
    const graph::GraphStats s = graph::describe(csr);
    fmt::print("Graph:              {}\n", options->graph);
    if (graph::is_generator_spec(options->graph))
      fmt::print("Format:             generated\n");
    else
      fmt::print("Format:             {} ({})\n", graph::to_string(graph::format_of_file(options->graph)),
                 graph::describe(graph::format_of_file(options->graph)));
    if (!graph::is_generator_spec(options->graph) && graph::is_partitioned_csr(options->graph)) {
      const graph::PartitionedCsrHeader header = graph::read_partitioned_header(options->graph);
      fmt::print("Partitioned:        for {} ranks, policy {} (runs with these take their parts as written)\n",
                 header.parts, header.policy);
    }
    fmt::print("Vertices:           {}\n", s.vertices);
    fmt::print("Edges:              {}\n", s.edges);
    fmt::print("Weights:            {}\n", graph::to_string(s.weights));
    if (csr.symmetric()) fmt::print("Symmetric:          known (one rank takes its out-edges as its in-edges)\n");
    fmt::print("Out-degree:         min {}, max {}, mean {:.3f}\n", s.min_out_degree, s.max_out_degree,
               s.mean_out_degree);
    fmt::print("Self loops:         {}\n", s.self_loops);
    fmt::print("Duplicate edges:    {}\n", s.duplicate_edges);
    fmt::print("Isolated vertices:  {}\n", s.isolated_vertices);
    fmt::print("Weak components:    {} (largest {} vertices)\n", s.components, s.largest_component);
    fmt::print("Time:               load {:.3f} s, analysis {:.3f} s\n", load_seconds, timer.lap());
  });
}

}  // namespace courier::cli
