#pragma once
// The subcommands of `courier`. Each adds itself to the app and runs when chosen.
#include <CLI/CLI.hpp>

namespace courier::cli {

void add_generate_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_info_command(CLI::App& app);
void add_run_command(CLI::App& app);

}  // namespace courier::cli
