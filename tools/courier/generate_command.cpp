// courier generate kron|urand --scale S [--edge-factor E] [--seed N] [--weights] -o FILE
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/generate.hpp"
#include "graph_options.hpp"
#include "save.hpp"

namespace courier::cli {

void add_generate_command(CLI::App& app) {
  struct Options {
    std::string kind;
    graph::GeneratorOptions generator;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "generate",
      "Make a synthetic graph: Graph500 Kronecker (kron) or uniform random (urand).\n"
      "Example: courier generate kron --scale 20 --weights -o kron20.csr");
  command->add_option("kind", options->kind, "kron or urand")->required()->check(CLI::IsMember({"kron", "urand"}));
  command->add_option("--scale", options->generator.scale, "2^SCALE vertices")->required()->check(CLI::Range(1, 40));
  command->add_option("--edge-factor", options->generator.edge_factor, "Edges per vertex")->capture_default_str()
      ->check(CLI::Range(1, 1 << 16));
  command->add_option("--seed", options->generator.seed, "Random seed (same seed, same graph)")->capture_default_str();
  command->add_flag("--weights", options->generator.weights, "Random uint32 weights in [1, 255]");
  command->add_option("--threads", options->generator.threads, "Threads (0: all cores; never changes the graph)");
  command->add_option("-o,--output", options->output, "Output file; its extension names the format")->required();
  command->callback([options] {
    options->generator.kind = options->kind == "kron" ? graph::Generator::kronecker : graph::Generator::uniform;
    (void)graph::format_from_path(options->output);  // a bad extension fails before the work
    const std::string spec = graph::generator_spec(options->generator);
    announce("generating", spec);
    Timer timer;
    const graph::EdgeList edges = graph::generate(options->generator);
    const double generate_seconds = timer.lap();
    save_graph(options->output, edges, {});
    fmt::print("Generated {}: {} vertices, {} edges in {:.3f} s; wrote {} in {:.3f} s\n", spec,
               edges.num_vertices, edges.edges.size(), generate_seconds, options->output, timer.lap());
  });
}

}  // namespace courier::cli
