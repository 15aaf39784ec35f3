// courier run ALGO --graph GRAPH [--engine E] [--ranks N] [--OPTION VALUE ...] [--output FILE] [--json FILE] [--verify]
// A thin harness over harness::run: the options come from the registry's engines and algorithms.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "commands.hpp"
#include "courier/core/atomic_file.hpp"
#include "courier/core/error.hpp"
#include "courier/core/machine.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/harness/run.hpp"
#include "courier/harness/watchdog.hpp"
#include "graph_options.hpp"
#include "progress_options.hpp"

namespace courier::cli {

namespace {

struct Invocation {
  harness::RunSpec spec;
  std::map<std::string, std::string> values;  // declared options as given
  std::map<std::string, CLI::Option*> given;  // declared options by name
  std::string output;
  std::string json;
  double watchdog = 0;  // seconds; 0: COURIER_WATCHDOG decides
};

// "Time:       0.012 s (load 0.100 s, partition 0.200 s)": the algorithm, then the other phases.
// The summary, on `out`: standard error when the values or the JSON go to standard output.
void print_result(std::FILE* out, const harness::RunResult& r) {
  fmt::print(out, "Algorithm:  {} ({})\n", r.spec.algorithm, r.description);
  fmt::print(out, "Graph:      {} ({} vertices, {} edges)\n", r.spec.graph, r.vertices, r.edges);
  for (const auto& [key, value] : r.summary.lines) fmt::print(out, "{:<11} {}\n", key + ":", value);
  std::vector<std::string> phases;
  for (const harness::Phase& phase : r.phases)
    if (phase.name != "verify") phases.push_back(fmt::format("{} {:.3f} s", phase.label, phase.seconds));
  fmt::print(out, "Time:       {:.6f} s ({})\n", r.run_seconds, fmt::join(phases, ", "));
  if (r.stats) fmt::print(out, "{}", r.stats->describe(r.spec.verbose));
  if (r.verification) {
    if (r.verification->mismatch.empty())
      fmt::print(out, "Verification: PASS ({})\n", r.verification->verifier);
    else
      fmt::print(out, "Verification: FAIL ({})\n{}", r.verification->verifier, r.verification->mismatch);
  }
}

int run(const Invocation& call, const harness::Registry& registry) {
  // What every rank would refuse alike is refused before MPI starts.
  const harness::RunSpec spec = harness::resolve(registry, call.spec);
  const double watchdog = call.watchdog > 0 ? call.watchdog : harness::watchdog_seconds_from_environment();
  const harness::Launch launch = harness::Launch::detect(registry.engine(spec.engine).distributed(), watchdog);
  if (launch.speaker()) announce("reading", spec.graph);
  harness::RunResult result;
  try {
    result = harness::run(registry, spec, launch);
  } catch (const dist::LoadError& failure) {
    if (!launch.under_mpi()) throw;
    // Every rank failed alike (a bad input): rank 0 speaks; MPI finalises normally.
    if (launch.speaker()) fmt::print(stderr, "courier: error: {}\n", failure.what());
    return 1;
  }
  if (!result.speaker) return 0;  // rank 0 has the result and speaks for the run
  if (!quiet())
    print_result(call.output == "-" || call.json == "-" ? stderr : stdout, result);
  else if (!result.passed())  // a mismatch is an error: it is said even then
    fmt::print(stderr, "courier: verification FAIL ({})\n{}", result.verification->verifier,
               result.verification->mismatch);
  if (!call.output.empty()) harness::write_values(call.output, result.values);
  if (!call.json.empty()) {
    AtomicFile file(call.json);
    file.write(result.to_json().dump(2) + "\n");
    file.commit();
  }
  return result.passed() ? 0 : 2;
}

CLI::Validator checking(const harness::OptionSpec& spec) {
  return CLI::Validator(
      [spec](std::string& value) {
        try {
          harness::check_option(spec, value);
          return std::string();
        } catch (const InputError& error) {
          return std::string(error.what());
        }
      },
      "");
}

// "--NAME" and its former names, for CLI11.
std::string spelled(const std::string& prefix, const harness::OptionSpec& spec) {
  std::string names = prefix + spec.name;
  for (const std::string& alias : spec.aliases) names += "," + prefix + alias;
  return names;
}

// One --NAME per option the engines and algorithms declare; its help says who reads it.
void add_declared_options(CLI::App& command, const harness::Registry& registry, Invocation& call) {
  for (const harness::Registry::Declared& declared : registry.options()) {
    const harness::OptionSpec& spec = declared.spec;
    const std::string help = fmt::format("{}: {}", fmt::join(declared.users, ", "), spec.help);
    std::string& value = call.values[spec.name];
    CLI::Option* option = nullptr;
    switch (spec.kind) {
      case harness::OptionSpec::Kind::value: {
        std::string names = spelled("--", spec);
        if (spec.letter != 0) names = std::string("-") + spec.letter + "," + names;
        option = command.add_option(names, value, help)->check(checking(spec));
        if (!spec.fallback.empty()) option->default_str(spec.fallback);
        break;
      }
      case harness::OptionSpec::Kind::flag:
        option = command.add_flag_callback(
            spelled("--", spec), [&value] { value = "true"; }, help);
        break;
      case harness::OptionSpec::Kind::flag_off:
        option = command.add_flag_callback(
            spelled("--no-", spec), [&value] { value = "false"; }, help);
        break;
    }
    call.given[spec.name] = option;
  }
}

}  // namespace

void add_run_command(CLI::App& app, const harness::Registry& registry) {
  auto call = std::make_shared<Invocation>();
  auto* command = app.add_subcommand(
      "run",
      "Run an algorithm on a graph and summarise the result.\n"
      "Example: courier run bfs --graph kron:16 --ranks 4 --policy cvc --verify\n"
      "         courier run cc --graph kron:16 --engine mailbox --ranks 8 --routing nlnr --layout 4x2 --verify\n"
      "         courier run sssp --graph rome99.gr --source 0 --output dist.txt\n\n"
      "Algorithms and the engines that run them (courier list shows their options):\n" +
          registry.matrix());
  command->add_option("algorithm", call->spec.algorithm, fmt::format("{}", fmt::join(registry.algorithm_names(), ", ")))
      ->required()
      ->check(CLI::IsMember(registry.algorithm_names()));
  command
      ->add_option("-g,--graph", call->spec.graph,
                   "Graph file or generator spec (kron:16, urand:16, path:1000, grid:100x100)")
      ->required();
  std::string engines;
  for (const auto& engine : registry.engines()) engines += fmt::format("{}: {}; ", engine->name(), engine->about());
  command->add_option("--engine", call->spec.engine, engines)
      ->check(CLI::IsMember(registry.engine_names()))
      ->capture_default_str();
  command
      ->add_option_function<std::string>(
          "--ranks",
          [call](const std::string& text) {
            // "sockets": one rank per package (socket) of this machine, which placement gives one each.
            if (text == "sockets") {
              call->spec.ranks = std::max<int>(1, static_cast<int>(Machine::of_this_process().packages.size()));
              return;
            }
            int ranks = 0;
            const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), ranks);
            if (error != std::errc() || end != text.data() + text.size() || ranks < 1 || ranks > 1024)
              throw CLI::ValidationError("--ranks",
                                         fmt::format("'{}': write a number from 1 to 1024, or sockets", text));
            call->spec.ranks = ranks;
          },
          "Distributed engines: ranks as threads of this process (local transport), each reading its own part of "
          "the graph, or 'sockets' for one per socket of this machine; under mpirun the processes are the ranks")
      ->type_name("N|sockets")
      ->default_str("1");
  command
      ->add_option(
          "--threads", call->spec.threads,
          "Distributed engines: compute threads per rank (the vertex engine also builds its partition on them)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  add_graph_options(*command, call->spec.load);
  add_progress_options(*command);
  add_declared_options(*command, registry, *call);
  command->add_option("-o,--output", call->output, "Write 'vertex value' lines ('inf' = unreached)");
  command->add_option("--json", call->json, "Write the summary, times and options as JSON");
  command->add_flag("--verify", call->spec.verify,
                    "Check the result; exit 2 on a mismatch. The distributed engines load the graph in parts (no "
                    "rank holds all of it); --verify makes rank 0 load the whole graph too, to check against");
  command
      ->add_option("--watchdog", call->watchdog,
                   "Under mpirun: end the run, naming the rank, when a rank has been silent (stopped, lost) for this "
                   "many seconds (default: COURIER_WATCHDOG, else off)")
      ->check(CLI::Range(0.001, 1e9));
  command->add_flag("-v,--verbose", call->spec.verbose,
                    "vertex: a line of statistics per round; mailbox: the configuration at start and each rank's "
                    "statistics at the end");
  command->callback([call, command, &registry] {
    check_graph_options(*command, call->spec.graph);
    if (call->output == "-" && call->json == "-")
      throw InputError("--output - and --json - both name standard output: send one of them to a file");
    if (command->count("--threads") > 0 && !registry.engine(call->spec.engine).distributed())
      throw InputError(
          fmt::format("--threads: the {} engine runs on one thread; drop --threads, or choose a "
                      "distributed engine (courier list shows them)",
                      call->spec.engine));
    if (command->count("--watchdog") > 0 && !harness::launched_by_mpi())
      throw InputError(
          "--watchdog is for runs under mpirun: ranks as threads of one process stop together; drop it, or launch "
          "with mpirun");
    for (const auto& [name, option] : call->given)
      if (option->count() > 0) call->spec.options.set(name, call->values[name]);
    const int status = run(*call, registry);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

}  // namespace courier::cli
