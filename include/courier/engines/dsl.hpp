#pragma once
// The `dsl` engine: algorithms written in Courier's graph language (dsl/programs/*.sp), compiled by
// courierc at build time, run on the vertex engine's partitioned graph through the same channels.
// The graph is partitioned as the program needs (dsl/runtime/layout.hpp): every master holds its
// out-edges, its in-edges, or both. `--generation naive` runs the code StarPlat's original
// distributed backend would make instead of the optimised one, to measure what paper 004's
// analyses give. Options: channel (also --comm), progress, pin (as the vertex engine), generation.
#include <functional>
#include <memory>
#include <string>

#include "courier/dist/distributed_load.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/harness/engine.hpp"
#include "courier/vertex/stats.hpp"

namespace courier::engines {

// How the dsl engine runs one algorithm: on every rank, a generated program on the rank's
// rt::Graph; the values are this rank's masters' (local ids 0..masters-1), which the engine gathers.
struct DslKernel : harness::Kernel {
  using Run = std::function<harness::Output(dsl::rt::Graph&, const harness::Request&)>;
  DslKernel(dsl::rt::Needs needs, Run run, bool integer_weights = false)
      : needs(needs), run(std::move(run)), integer_weights(integer_weights) {}
  dsl::rt::Needs needs;  // the edges the program visits (its generated NAME_needs)
  Run run;
  bool integer_weights;  // needs uint32 edge weights
};

// Typed statistics of a dsl-engine run (rank 0's view; times are the largest of any rank).
struct DslStats : harness::EngineStats {
  vertex::RunStats run;
  dsl::rt::Phases phases;
  dist::PartitionQuality quality;
  double load_seconds = 0;
  double partition_seconds = 0;
  std::string channel;
  dsl::rt::Generation generation = dsl::rt::Generation::optimised;
  dsl::rt::Layout layout = dsl::rt::Layout::out;
  bool progress_thread = false;
  nlohmann::json to_json() const override;
  std::string describe(bool verbose) const override;
};

std::shared_ptr<const harness::Engine> dsl_engine();

}  // namespace courier::engines
