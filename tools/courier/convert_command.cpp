// courier convert IN -o OUT [--symmetrize] [--drop-self-loops] [--dedupe] [--base 0|1]
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/timer.hpp"
#include "graph_options.hpp"
#include "progress_options.hpp"
#include "save.hpp"

namespace courier::cli {

void add_convert_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    graph::LoadOptions load;
    graph::WriteOptions write;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "convert",
      "Convert a graph between formats (chosen by the extensions: .el .txt .tsv .wel .edges .mtx .bel\n"
      ".bin .gr .graph .csr), optionally transforming it.\n"
      "Example: courier convert wiki-Vote.txt -o wiki-Vote.csr --symmetrize --dedupe");
  command->add_option("input", options->input, "Input graph file or generator spec (kron:16)")->required();
  command->add_option("-o,--output", options->output, "Output file")->required();
  add_graph_options(*command, options->load);
  add_progress_options(*command);
  command->add_option("--output-base", options->write.base, "Smallest id written to a text edge list")
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  command->add_option("--output-id-bytes", options->write.binary_id_bytes, "Binary edge lists: bytes per id written")
      ->check(CLI::IsMember({4, 8}))
      ->capture_default_str();
  command->callback([options, command] {
    check_graph_options(*command, options->input);
    (void)graph::format_from_path(options->output);
    announce("reading", options->input);
    Timer timer;
    const graph::EdgeList edges = graph::load_edge_list(options->input, options->load);
    const double read_seconds = timer.lap();
    save_graph(options->output, edges, options->write);
    if (!quiet())
      fmt::print("Converted {} ({} vertices, {} edges, read in {:.3f} s) to {} in {:.3f} s\n", options->input,
                 edges.num_vertices, edges.edges.size(), read_seconds, options->output, timer.lap());
  });
}

}  // namespace courier::cli
