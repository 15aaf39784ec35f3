#include "courier/harness/run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>

#include "courier/core/cancel.hpp"
#include "courier/core/error.hpp"
#include "courier/core/machine.hpp"
#include "courier/core/parse_number.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/distributed_load.hpp"
#include "courier/graph/load.hpp"

namespace courier::harness {

namespace {

// "a, b and c"
std::string listing(const std::vector<std::string>& items, const char* last) {
  if (items.size() < 2) return items.empty() ? std::string() : items.front();
  return fmt::format("{} {} {}", fmt::join(items.begin(), items.end() - 1, ", "), last, items.back());
}

void check_engine_runs(const Registry& registry, const Engine& engine, const Algorithm& algorithm) {
  if (engine.runs(algorithm)) return;
  std::vector<std::string> its, others;
  for (const Algorithm& a : registry.algorithms())
    if (engine.runs(a)) its.push_back(a.name);
  for (const auto& e : registry.engines())
    if (e->runs(algorithm)) others.push_back("--engine " + std::string(e->name()));
  throw InputError(fmt::format("the {} engine does not run {} (it runs {}): use {}", engine.name(), algorithm.name,
                               listing(its, "and"), listing(others, "or")));
}

bool declares(const Engine& engine, const std::string& name) {
  return std::ranges::any_of(engine.options(), [&](const OptionSpec& o) { return o.name == name; });
}

// The engine or algorithm names that declare option `name`.
std::vector<std::string> users_of(const Registry& registry, const std::string& name) {
  for (const Registry::Declared& declared : registry.options())
    if (declared.spec.name == name) return declared.users;
  return {};
}

// An option's text as JSON: a number or a truth value where it reads as one.
nlohmann::json option_json(const std::string& value) {
  if (value == "true" || value == "false") return value == "true";
  std::uint64_t whole = 0;
  if (parse_unsigned(value, whole) == ParseStatus::ok) return whole;
  double real = 0;
  if (value.find_first_of("0123456789") != std::string::npos && parse_floating(value, real) == ParseStatus::ok)
    return real;
  return value;
}

}  // namespace

RunSpec resolve(const Registry& registry, RunSpec spec) {
  const Algorithm& algorithm = registry.algorithm(spec.algorithm);
  const Engine& engine = registry.engine(spec.engine);
  spec.algorithm = algorithm.name;
  check_engine_runs(registry, engine, algorithm);
  if (spec.ranks < 1) throw InputError("--ranks must be at least 1");
  if (spec.threads < 1) throw InputError("--threads must be at least 1");
  if (!engine.distributed() && spec.ranks > 1)
    throw InputError(
        fmt::format("--ranks {}: the {} engine runs on one rank; drop --ranks, or choose a distributed "
                    "engine (courier list shows them)",
                    spec.ranks, engine.name()));
  std::vector<OptionSpec> declared = engine.options();
  declared.insert(declared.end(), algorithm.options.begin(), algorithm.options.end());
  for (const auto& option : spec.options.all()) {
    const std::string& name = option.first;  // a plain name: lambdas capture no structured binding (clang < 16)
    if (std::ranges::any_of(declared, [&](const OptionSpec& o) { return o.name == name; })) continue;
    const std::vector<std::string> users = users_of(registry, name);
    if (users.empty()) throw InputError(fmt::format("--{}: no engine or algorithm takes this option", name));
    throw InputError(fmt::format("--{} is for {}: not for {} on the {} engine", name, listing(users, "and"),
                                 algorithm.name, engine.name()));
  }
  for (const OptionSpec& option : algorithm.options) {
    if (option.engines.empty() || std::ranges::find(option.engines, engine.name()) != option.engines.end() ||
        declares(engine, option.name))  // the engine's own option of that name (la's --direction)
      continue;
    if (!spec.options.has(option.name)) continue;
    std::vector<std::string> takers = option.engines;
    for (const auto& other : registry.engines())
      if (other->runs(algorithm) && declares(*other, option.name)) takers.emplace_back(other->name());
    throw InputError(fmt::format("--{} is for {}: not for {} on the {} engine; drop it, or use --engine {}",
                                 option.name, listing(users_of(registry, option.name), "and"), algorithm.name,
                                 engine.name(), listing(takers, "or --engine")));
  }
  for (const OptionSpec& option : declared) {
    if (!option.engines.empty() && std::ranges::find(option.engines, engine.name()) == option.engines.end())
      continue;  // another engine's: no fallback either
    if (!spec.options.has(option.name)) {
      if (option.fallback.empty()) continue;
      spec.options.set(option.name, option.fallback);
    }
    check_option(option, spec.options.text(option.name));
  }
  return spec;
}

RunResult run(const Registry& registry, const RunSpec& asked, const Launch& launch) {
  RunResult result;
  result.spec = resolve(registry, asked);
  RunSpec& spec = result.spec;
  const Algorithm& algorithm = registry.algorithm(spec.algorithm);
  const Engine& engine = registry.engine(spec.engine);
  if (launch.under_mpi()) spec.ranks = launch.ranks();
  EngineRun done;
  try {
    engine.check(algorithm, spec, launch);
  } catch (const InputError& error) {
    if (launch.under_mpi()) throw dist::LoadError(error.what());  // every rank agrees: rank 0 speaks
    throw;
  }
  // The machine is read once a process (hwloc reads /sys: milliseconds), before any engine's clock
  // starts: the engines place their threads by it.
  (void)Machine::of_this_process();
  if (launch.under_mpi()) {
    try {
      done = engine.run(algorithm, spec, launch);
    } catch (const dist::LoadError&) {
      throw;  // every rank failed alike (a bad input); MPI finalises normally
    } catch (const Cancelled&) {
      throw;  // every rank stopped in the same round
    } catch (const std::exception& e) {
      // One rank failed while others may wait for it in a collective: end the whole run.
      fmt::print(stderr, "courier: error (rank {} of {}): {}\n", launch.rank(), launch.ranks(), e.what());
      std::fflush(stderr);
      abort_run_if_distributed();
      throw;
    }
  } else {
    done = engine.run(algorithm, spec, launch);
  }
  if (!launch.speaker()) {
    result.speaker = false;
    return result;
  }
  widen(done.output.values);  // the clock has stopped: readers see 64-bit integers only
  result.values = std::move(done.output.values);
  done.output.values = Values{};
  result.vertices = done.vertices;
  result.edges = done.edges;
  result.run_seconds = done.run_seconds;
  result.phases = std::move(done.phases);
  result.stats = std::move(done.stats);
  result.description = std::move(done.description);
  Output output{std::move(result.values), std::move(done.output.facts)};
  result.summary = algorithm.summarise(output, done.request, done.edges);
  if (spec.verify) {
    // Checking needs the whole graph: only here, only on rank 0, only when asked.
    Timer timer;
    const graph::Csr whole = done.whole_graph ? graph::Csr() : graph::load_graph(spec.graph, spec.load);
    const graph::Csr& csr = done.whole_graph ? *done.whole_graph : whole;
    result.verification = algorithm.verify(csr, done.request, output, done.is_reference);
    result.phases.push_back({"verify", "verify", timer.lap()});
  }
  result.values = std::move(output.values);
  return result;
}

RunResult run(const Registry& registry, const RunSpec& spec) {
  const Launch launch = Launch::detect(registry.engine(spec.engine).distributed());
  return run(registry, spec, launch);
}

nlohmann::json RunResult::to_json() const {
  nlohmann::json times = nlohmann::json::object();
  for (const Phase& phase : phases) times[phase.name] = phase.seconds;
  times["run"] = run_seconds;
  nlohmann::json options = {{"symmetrize", spec.load.symmetrize},
                            {"drop_self_loops", spec.load.drop_self_loops},
                            {"dedupe", spec.load.dedupe},
                            {"weights", spec.load.weights},
                            {"seed", spec.load.seed},
                            {"base", spec.load.read.base},
                            {"ranks", spec.ranks},
                            {"threads", spec.threads}};
  for (const auto& [name, value] : spec.options.all()) options[name] = option_json(value);
  nlohmann::json doc = {
      {"command", "run"},
      {"algorithm", spec.algorithm},
      {"graph", spec.graph},
      {"engine", spec.engine},
      {"vertices", vertices},
      {"edges", edges},
      {"summary", summary.json},
      {"times", std::move(times)},
      {"engine_stats", stats ? stats->to_json() : nlohmann::json::object()},
      {"options", std::move(options)},
  };
  if (verification) doc["verification"] = verification->mismatch.empty() ? "PASS" : "FAIL";
  return doc;
}

}  // namespace courier::harness
