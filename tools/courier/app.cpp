// The command line over a registry. Errors are printed as "courier: error: ..." and exit 1.
#include <fmt/format.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <mutex>
#include <new>

#include "commands.hpp"
#include "courier/core/progress.hpp"

namespace courier::cli {

namespace {

// Debian's libfabric links the PSM providers, whose libinfinipath installs handlers as it loads
// that exit(1) on SIGINT and SIGTERM, with every thread still running (IPATH_NO_BACKTRACE=1
// stops it, but only before the process starts). A handler there when main starts is a library's:
// these signals get their default back (core/atomic_file.cpp chains to it).
void take_back_interrupts() {
  for (const int signal : {SIGINT, SIGTERM}) {
    struct sigaction now {};
    if (::sigaction(signal, nullptr, &now) != 0) continue;
    const bool handled = (now.sa_flags & SA_SIGINFO) != 0 || (now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN);
    if (!handled) continue;
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    ::sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
  }
}

}  // namespace

int main(int argc, const char* const* argv, const harness::Registry& registry) {
  static std::once_flag signals;
  std::call_once(signals, take_back_interrupts);
  set_progress_mode(ProgressMode::automatic);  // a test may run several command lines in one process
  set_progress_log_period(std::chrono::seconds(5));
  CLI::App app{"Courier: distributed graph analytics.\n\n"
               "Example:\n  courier generate kron --scale 16 -o kron16.csr\n"
               "  courier run bfs --graph kron16.csr --verify\n",
               "courier"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "courier 0.1.0");
  add_generate_command(app);
  add_convert_command(app);
  add_info_command(app);
  add_run_command(app, registry);
  add_list_command(app, registry);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Error& e) {  // bad options, and run's verification exit status
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    fmt::print(stderr,
               "courier: error: out of memory (std::bad_alloc): the run asked for more than this machine could give; "
               "take a smaller graph, or spread it over more machines under mpirun\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "courier: error: {}\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace courier::cli
