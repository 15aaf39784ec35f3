#pragma once
// The options every command that takes a GRAPH shares, bound to a LoadOptions.
#include <CLI/CLI.hpp>

#include "courier/graph/load.hpp"

namespace courier::cli {

// --base, --symmetrize, --drop-self-loops, --dedupe, --weights, --seed, --id-bytes, --binary-weight.
void add_graph_options(CLI::App& command, graph::LoadOptions& options);

// A "courier: <what>" line on stderr when it is a terminal: long steps show they are alive.
void announce(const char* what, const std::string& subject);

}  // namespace courier::cli
