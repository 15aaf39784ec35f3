// courier generate kron|urand --scale S [--edge-factor E] | rmat --scale S [--abc A,B,C] [--edge-factor E]
//   | path --vertices N | grid --rows R --columns C [--seed N] [--weights] -o FILE
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/graph/generate.hpp"
#include "graph_options.hpp"
#include "progress_options.hpp"
#include "save.hpp"

namespace courier::cli {

void add_generate_command(CLI::App& app) {
  struct Options {
    std::string kind;
    graph::GeneratorOptions generator;
    int scale = 0;
    std::uint64_t vertices = 0, rows = 0, columns = 0;
    std::vector<double> abc;
    std::string output;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "generate",
      "Make a synthetic graph: Graph500 Kronecker (kron), Kronecker with chosen quadrant probabilities\n"
      "(rmat, R-MAT), uniform random (urand), or a path or 2D grid (undirected, with a diameter that\n"
      "grows with its size, as road networks have). As a GRAPH elsewhere: kron:S, rmat:S:a=A:b=B:c=C,\n"
      "urand:S, path:N, grid:RxC.\n"
      "Example: courier generate kron --scale 20 --weights -o kron20.csr\n"
      "         courier generate rmat --scale 20 --abc 0.45,0.15,0.15 -o rmat20.csr\n"
      "         courier generate grid --rows 1000 --columns 1000 -o grid.csr");
  command->add_option("kind", options->kind, "kron, rmat, urand, path or grid")
      ->required()
      ->check(CLI::IsMember({"kron", "rmat", "urand", "path", "grid"}));
  command->add_option("--scale", options->scale, "kron, urand: 2^SCALE vertices")->check(CLI::Range(1, 40));
  command
      ->add_option("--abc", options->abc,
                   "rmat: the probabilities A,B,C of the top-left, top-right and bottom-left quadrants "
                   "(D = 1 - A - B - C); default Graph500's 0.57,0.19,0.19")
      ->expected(3)
      ->delimiter(',');
  command->add_option("--vertices", options->vertices, "path: its vertices")->check(CLI::PositiveNumber);
  command->add_option("--rows", options->rows, "grid: its rows")->check(CLI::PositiveNumber);
  command->add_option("--columns", options->columns, "grid: its columns")->check(CLI::PositiveNumber);
  command->add_option("--edge-factor", options->generator.edge_factor, "kron, urand: edges per vertex")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 16));
  command->add_option("--seed", options->generator.seed, "Random seed (same seed, same graph)")->capture_default_str();
  command->add_flag("--weights", options->generator.weights, "Random uint32 weights in [1, 255]");
  command->add_option("--threads", options->generator.threads, "Threads (0: all cores; never changes the graph)");
  command->add_option("-o,--output", options->output, "Output file; its extension names the format")->required();
  add_progress_options(*command);
  command->callback([options] {
    graph::GeneratorOptions& generator = options->generator;
    auto need = [&](bool given, const char* what) {
      if (!given) throw InputError(fmt::format("courier generate {} needs {}", options->kind, what));
    };
    if (options->kind == "path") {
      need(options->vertices != 0, "--vertices N");
      generator.kind = graph::Generator::path;
      generator.rows = 1;
      generator.columns = options->vertices;
    } else if (options->kind == "grid") {
      need(options->rows != 0 && options->columns != 0, "--rows R and --columns C");
      generator.kind = graph::Generator::grid;
      generator.rows = options->rows;
      generator.columns = options->columns;
    } else {
      need(options->scale != 0, "--scale S");
      generator.kind = options->kind == "urand" ? graph::Generator::uniform : graph::Generator::kronecker;
      generator.scale = options->scale;
    }
    if (!options->abc.empty()) {
      if (options->kind != "rmat")
        throw InputError(fmt::format("--abc is for rmat, and this is {}: drop it", options->kind));
      generator.a = options->abc[0];
      generator.b = options->abc[1];
      generator.c = options->abc[2];
    }
    (void)graph::format_from_path(options->output);  // a bad extension fails before the work
    const std::string spec = graph::generator_spec(options->generator);
    announce("generating", spec);
    Timer timer;
    if (graph::format_from_path(options->output) == graph::Format::csr) {
      // Window by window, never the whole edge list (graph::write_generated_csr).
      graph::write_generated_csr(options->output, generator);
      if (!quiet())
        fmt::print("Generated {}: {} vertices, {} edges, written to {} in {:.3f} s\n", spec,
                   graph::generated_vertex_count(generator), graph::generated_edge_count(generator), options->output,
                   timer.lap());
      return;
    }
    const graph::EdgeList edges = graph::generate(options->generator);
    const double generate_seconds = timer.lap();
    save_graph(options->output, edges, {});
    if (!quiet())
      fmt::print("Generated {}: {} vertices, {} edges in {:.3f} s; wrote {} in {:.3f} s\n", spec, edges.num_vertices,
                 edges.edges.size(), generate_seconds, options->output, timer.lap());
  });
}

}  // namespace courier::cli
