#pragma once
// harness::run: the one way to run an analysis, for the CLI, the benchmarks, a downstream C++
// program or a binding. It starts MPI under a launcher, lets the engine run the algorithm, checks
// the result when asked, and hands back values, summary, statistics and verdict.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "courier/harness/registry.hpp"
#include "courier/harness/spec.hpp"

namespace courier::harness {

struct RunResult {
  bool speaker = true;  // under MPI only rank 0 gets the rest; the others get speaker = false
  RunSpec spec;         // as resolved: the algorithm's name, every option's value
  Values values;        // one per vertex
  Summary summary;
  graph::vertex_t vertices = 0;
  std::uint64_t edges = 0;
  double run_seconds = 0;
  std::vector<Phase> phases;  // load, partition or setup, ..., verify
  std::shared_ptr<const EngineStats> stats;
  std::string description;
  std::optional<Verdict> verification;  // when spec.verify

  bool passed() const { return !verification || verification->mismatch.empty(); }
  // What `courier run --json` writes.
  nlohmann::json to_json() const;
};

// The spec with the algorithm's canonical name and every option the algorithm and the engine
// declare given a value (its default when unset), each checked. InputError for an unknown
// algorithm or engine, a bad value, or an option neither of them declares.
RunSpec resolve(const Registry& registry, RunSpec spec);

// Runs `spec` on `launch`'s ranks. Under an MPI launcher every process calls it: a bad input
// throws dist::LoadError alike on every rank (rank 0 speaks for them); a failure of one rank alone
// ends the whole run (MPI_Abort), as it does with ranks as threads (launch.hpp).
RunResult run(const Registry& registry, const RunSpec& spec, const Launch& launch);
// The same on the launch the engine calls for: MPI for the call under a launcher, else threads.
RunResult run(const Registry& registry, const RunSpec& spec);

}  // namespace courier::harness
