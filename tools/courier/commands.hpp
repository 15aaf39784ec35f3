#pragma once
// The subcommands of `courier`. Each adds itself to the app and runs when chosen; run and list
// take their engines and algorithms from a registry.
#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "courier/harness/registry.hpp"

namespace courier::cli {

void add_generate_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_run_command(CLI::App& app, const harness::Registry& registry);
void add_list_command(CLI::App& app, const harness::Registry& registry);

}  // namespace courier::cli
