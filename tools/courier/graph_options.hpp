#pragma once
// The options every command that takes a GRAPH shares, bound to a LoadOptions.
#include <CLI/CLI.hpp>

#include "courier/graph/load.hpp"

namespace courier::cli {

// --base, --symmetrize, --drop-self-loops, --dedupe, --weights, --seed, --id-bytes, --binary-weight.
void add_graph_options(CLI::App& command, graph::LoadOptions& options);

// After parsing: an option that the GRAPH argument would ignore is an error naming what it is for
// (--base on a format with its own base, --weights on a file, --id-bytes on text, ...).
void check_graph_options(const CLI::App& command, const std::string& graph);

}  // namespace courier::cli
