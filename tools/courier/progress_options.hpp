#pragma once
// What a command says on the way: progress of long steps on stderr (on a terminal by default;
// --progress: also into pipes and logs; --quiet: nothing) and its closing summary (not with --quiet).
#include <CLI/CLI.hpp>
#include <string>

namespace courier::cli {

// --quiet and --progress, which exclude each other; they set core/progress.hpp's mode.
void add_progress_options(CLI::App& command);

// --quiet was given: the command prints only errors and the outputs it was asked for.
bool quiet();

// A "courier: <what> <subject> ..." line where progress shows, so long steps show they are alive.
void announce(const char* what, const std::string& subject);

}  // namespace courier::cli
