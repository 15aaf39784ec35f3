#include "graph_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

#include "courier/core/error.hpp"
#include "courier/graph/io.hpp"

namespace courier::cli {

void add_graph_options(CLI::App& command, graph::LoadOptions& options) {
  command.add_option("--base", options.read.base, "Smallest vertex id in a text edge list")
      ->check(CLI::IsMember({0, 1}))
      ->capture_default_str();
  command
      .add_option_function<std::string>(
          "--weight-column",
          [&options](const std::string& text) {
            if (text == "none") {
              options.read.weight_column = 0;
              return;
            }
            int column = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), column);
            if (ec != std::errc{} || end != text.data() + text.size() || column < 3)
              throw CLI::ValidationError(
                  "--weight-column", fmt::format("'{}': write a column from 3 (1 and 2 are the ids) or none", text));
            options.read.weight_column = column;
          },
          "Text edge lists: the column holding the weight (default 3, if there is one; SNAP temporal files "
          "\"src dst time\" are then weighted by time), or none; other columns after the second are ignored")
      ->type_name("N|none");
  command.add_flag("--symmetrize", options.symmetrize, "Add the reverse of every edge");
  command.add_flag("--drop-self-loops", options.drop_self_loops, "Remove edges from a vertex to itself");
  command.add_flag("--dedupe", options.dedupe, "Keep one edge of each (source, target) pair");
  command.add_flag("--weights", options.weights, "Generated graphs: random weights in [1, 255]");
  command.add_option("--seed", options.seed, "Generated graphs: the random seed")->capture_default_str();
  command.add_option("--id-bytes", options.read.binary_id_bytes,
                     "Binary edge lists: 4 or 8 bytes per id (default: from the file size)")
      ->check(CLI::IsMember({0, 4, 8}));
  command
      .add_option_function<std::string>(
          "--binary-weight",
          [&options](std::string name) {
            std::ranges::transform(name, name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            static const std::map<std::string, graph::WeightType> types{
                {"none", graph::WeightType::none}, {"uint32", graph::WeightType::u32}, {"float", graph::WeightType::f32}};
            const auto it = types.find(name);
            if (it == types.end())
              throw CLI::ValidationError("--binary-weight", fmt::format("'{}' is not a weight type: use none, uint32 or float", name));
            options.read.binary_weight = it->second;
          },
          "Binary edge lists: the weight after each pair (none, uint32, float); Galois .gr: float reads the 4-byte "
          "edge data as float")
      ->type_name("none|uint32|float");
}

void check_graph_options(const CLI::App& command, const std::string& graph) {
  const auto given = [&](const char* name) { return command.count(name) > 0; };
  const auto refuse = [](const char* option, const std::string& why) {
    throw InputError(fmt::format("{} {}: drop it", option, why));
  };
  if (graph::is_generator_spec(graph)) {
    for (const char* option : {"--base", "--id-bytes", "--binary-weight", "--weight-column"})
      if (given(option)) refuse(option, fmt::format("reads files, and {} is generated", graph));
    return;
  }
  for (const char* option : {"--weights", "--seed"})
    if (given(option))
      refuse(
          option,
          fmt::format("is for generated graphs (kron:S, rmat:S, urand:S, path:N, grid:RxC), and {} is a file", graph));
  const graph::Format format = graph::format_of_file(graph);
  if (given("--weight-column") && format != graph::Format::text)
    refuse("--weight-column", fmt::format("is for text edge lists, and {} is {}", graph, graph::to_string(format)));
  if (given("--base") && format != graph::Format::text)
    refuse("--base", fmt::format("is for text edge lists, and {} is {}, whose ids start where its format says", graph,
                                 graph::to_string(format)));
  if (given("--id-bytes") && format != graph::Format::binary)
    refuse("--id-bytes", fmt::format("is for binary edge lists, and {} is {}", graph, graph::to_string(format)));
  if (given("--binary-weight") && format != graph::Format::binary && format != graph::Format::galois)
    refuse("--binary-weight",
           fmt::format("is for binary edge lists and Galois .gr files, and {} is {}", graph, graph::to_string(format)));
}

}  // namespace courier::cli
