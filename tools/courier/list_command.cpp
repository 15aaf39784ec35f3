// courier list: the algorithms x engines matrix, and every engine's and algorithm's options.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"

namespace courier::cli {

void add_list_command(CLI::App& app, const harness::Registry& registry) {
  auto* command = app.add_subcommand("list",
                                     "List the algorithms, the engines that run them, and their options.\n"
                                     "Example: courier list");
  command->callback([&registry] {
    fmt::print("{}\nEngines:\n", registry.matrix());
    for (const auto& engine : registry.engines()) fmt::print("  {:<9} {}\n", engine->name(), engine->about());
    fmt::print("\nOptions of engines and algorithms (courier run --NAME VALUE):\n");
    for (const harness::Registry::Declared& option : registry.options())
      fmt::print("  --{:<12} {}: {}{}\n",
                 option.spec.kind == harness::OptionSpec::Kind::flag_off ? "no-" + option.spec.name : option.spec.name, fmt::join(option.users, ", "), option.spec.help,
                 option.spec.fallback.empty() ? "" : fmt::format(" [{}]", option.spec.fallback));
  });
}

}  // namespace courier::cli
