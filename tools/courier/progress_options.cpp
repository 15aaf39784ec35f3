#include "progress_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>

#include "courier/core/progress.hpp"

namespace courier::cli {

void add_progress_options(CLI::App& command) {
  auto* quiet = command.add_flag_callback(
      "-q,--quiet", [] { set_progress_mode(ProgressMode::never); },
      "Print nothing but errors and the outputs asked for: no progress, no summary");
  auto* progress = command.add_flag_callback(
      "--progress", [] { set_progress_mode(ProgressMode::always); },
      "Show progress on stderr even when it is not a terminal (a line per step, for logs); on a terminal it "
      "shows by default");
  auto* every = command.add_option_function<double>(
      "--progress-every",
      [](double seconds) {
        set_progress_mode(ProgressMode::always);
        set_progress_log_period(std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000)));
      },
      "As --progress, with a line about rounds at most every SECONDS in a log (5 by default)");
  every->type_name("SECONDS")->check(CLI::Range(0.0, 86400.0));
  quiet->excludes(progress);
  quiet->excludes(every);
}

bool quiet() { return progress_mode() == ProgressMode::never; }

void announce(const char* what, const std::string& subject) {
  const ProgressMode mode = progress_mode();
  if (mode == ProgressMode::always || (mode == ProgressMode::automatic && ::isatty(fileno(stderr))))
    fmt::print(stderr, "courier: {} {} ...\n", what, subject);
}

}  // namespace courier::cli
