// courier convert IN -o OUT [--output-format galois|dimacs] [--symmetrize] [--drop-self-loops] [--dedupe] [--base 0|1]
//                 [--compact-ids [--id-map FILE]] [--partition N [--policy P]]
#include <fmt/format.h>

#include "commands.hpp"
#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/partitioned_file.hpp"
#include "courier/graph/transform.hpp"
#include "graph_options.hpp"
#include "progress_options.hpp"
#include "save.hpp"

namespace courier::cli {

namespace {

// Line k: the original id of new id k (0-based, as the converted graph numbers them).
void write_id_map(const std::string& path, const std::vector<graph::vertex_t>& original) {
  AtomicFile file(path);
  std::string text;
  for (const graph::vertex_t id : original) {
    text += fmt::format("{}\n", id);
    if (text.size() >= (1u << 20)) {
      file.write(text);
      text.clear();
    }
  }
  file.write(text);
  file.commit();
}

}  // namespace

void add_convert_command(CLI::App& app) {
  struct Options {
    std::string input;
    std::string output;
    graph::LoadOptions load;
    graph::WriteOptions write;
    bool compact_ids = false;
    std::string id_map;
    int partition = 0;  // ranks of a partitioned .csr; 0: a plain one
    std::string policy = "oec";
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "convert",
      "Convert a graph between formats (chosen by the extensions: .el .txt .tsv .wel .edges .mtx .bel\n"
      ".bin .gr .graph .csr), optionally transforming it. Inputs named .gr may be DIMACS or Galois\n"
      "binary, .graph METIS or WebGraph BVGraph (with BASENAME.properties beside it): the content says.\n"
      "Output .gr is DIMACS unless --output-format galois.\n"
      "Example: courier convert wiki-Vote.txt -o wiki-Vote.csr --symmetrize --dedupe\n"
      "         courier convert cnr-2000.graph -o cnr-2000.csr\n"
      "         courier convert road.csr -o road.gr --output-format galois\n"
      "         courier convert kron20.csr -o kron20-2oec.csr --partition 2 --policy oec");
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
  command
      ->add_option_function<std::string>(
          "--output-format",
          [options](const std::string& name) {
            const auto format = graph::format_named(name);
            if (!format || (*format != graph::Format::galois && *format != graph::Format::dimacs))
              throw CLI::ValidationError("--output-format",
                                         fmt::format("'{}' is not galois or dimacs (the formats that share .gr; "
                                                     "others follow the extension)",
                                                     name));
            options->write.format = *format;
          },
          "The output's format where extensions are shared: galois or dimacs (.gr)")
      ->type_name("galois|dimacs");
  command->add_flag("--compact-ids", options->compact_ids,
                    "Renumber the ids that edges use as 0..k-1, in order (for ids scattered over a huge range)");
  command->add_option("--id-map", options->id_map, "With --compact-ids: write each new id's original id, one a line");
  command
      ->add_option("--partition", options->partition,
                   "Write a partitioned .csr for runs at N ranks (the vertex and dsl engines): each rank of such a "
                   "run takes its part as written and skips partitioning; other runs read it as a plain .csr")
      ->check(CLI::Range(1, 1024));
  command->add_option("--policy", options->policy, "With --partition: the partition policy (oec, iec, cvc, hash)")
      ->check(CLI::IsMember({"oec", "iec", "cvc", "hash"}))
      ->capture_default_str();
  command->callback([options, command] {
    if (!options->id_map.empty() && !options->compact_ids)
      throw InputError("--id-map lists the ids --compact-ids renumbered: add --compact-ids, or drop --id-map");
    check_graph_options(*command, options->input);
    if (command->count("--policy") && !options->partition)
      throw InputError("--policy says how --partition cuts the graph: add --partition N, or drop --policy");
    if (options->partition && graph::format_from_path(options->output) != graph::Format::csr)
      throw InputError(
          fmt::format("--partition writes a partitioned .csr, and {} is not .csr: name the output "
                      "OUT.csr",
                      options->output));
    if (graph::format_from_path(options->output) != graph::Format::dimacs && options->write.format)
      throw InputError(
          fmt::format("--output-format is for .gr outputs (DIMACS or Galois), and {} says its format by "
                      "its extension: drop the option",
                      options->output));
    Timer timer;
    graph::GeneratorOptions generator;
    generator.seed = options->load.seed;
    generator.weights = options->load.weights;
    generator.threads = options->load.threads;
    const graph::LoadOptions& load = options->load;
    if (graph::parse_generator_spec(options->input, generator) && !options->partition && !options->compact_ids &&
        !load.symmetrize && !load.drop_self_loops && !load.dedupe &&
        graph::format_from_path(options->output) == graph::Format::csr) {
      // Straight from the generator, a window of rows at a time: no edge list in memory.
      announce("writing", options->output);
      graph::write_generated_csr(options->output, generator);
      if (!quiet())
        fmt::print("Converted {} ({} vertices, {} edges) to {} in {:.3f} s\n", options->input,
                   graph::generated_vertex_count(generator), graph::generated_edge_count(generator), options->output,
                   timer.lap());
      return;
    }
    announce("reading", options->input);
    options->load.read.check_id_range = !options->compact_ids;  // nothing per vertex is built before
    graph::EdgeList edges = graph::load_edge_list(options->input, options->load);
    std::vector<graph::vertex_t> original_ids;
    if (options->compact_ids) {
      graph::Compacted compacted = graph::compact_ids(edges);
      if (!quiet())
        fmt::print("Compacted ids: {} of {} ids are used by edges\n", compacted.edges.num_vertices, edges.num_vertices);
      edges = std::move(compacted.edges);
      original_ids = std::move(compacted.original_id);
    }
    const double read_seconds = timer.lap();
    if (options->partition) {
      announce("writing", options->output);
      dist::write_partitioned(options->output, edges, dist::parse_policy(options->policy),
                              static_cast<rank_t>(options->partition));
    } else {
      options->write.symmetric = options->load.symmetrize;  // renumbering keeps it so
      save_graph(options->output, edges, options->write);
    }
    if (!options->id_map.empty()) write_id_map(options->id_map, original_ids);  // only once the graph is written
    if (!quiet())
      fmt::print("Converted {} ({} vertices, {} edges, read in {:.3f} s) to {}{} in {:.3f} s\n", options->input,
                 edges.num_vertices, edges.edges.size(), read_seconds, options->output,
                 options->partition
                     ? fmt::format(" (partitioned for {} ranks, policy {})", options->partition, options->policy)
                     : "",
                 timer.lap());
  });
}

}  // namespace courier::cli
