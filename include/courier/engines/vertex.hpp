#pragma once
// The `vertex` engine: the graph partitioned over ranks (every rank reads its own part, no rank
// holds the whole graph) and the algorithm run as a distributed vertex program (vertex/, sync/),
// its values gathered to rank 0. Ranks are threads of this process on the local transport, talking
// through the lci channel, or the processes of an MPI launcher with --channel lci|mpi-probe|mpi-rma.
// Options: policy, channel (also --comm), progress, pin.
#include <functional>
#include <memory>
#include <string>

#include "courier/dist/distributed_load.hpp"
#include "courier/vertex/engine.hpp"
#include "courier/harness/engine.hpp"

namespace courier::engines {

// How the vertex engine runs one algorithm: on every rank, on that rank's engine; the values are
// this rank's masters' (local ids 0..masters-1), which the engine gathers.
struct VertexKernel : harness::Kernel {
  using Run = std::function<harness::Output(vertex::Engine&, const harness::Request&)>;
  explicit VertexKernel(Run run, bool integer_weights = false) : run(std::move(run)), integer_weights(integer_weights) {}
  Run run;
  bool integer_weights;  // needs uint32 edge weights
};

// Typed statistics of a vertex-engine run (rank 0's view, combined over ranks).
struct VertexStats : harness::EngineStats {
  vertex::RunStats run;
  dist::PartitionQuality quality;
  double load_seconds = 0;
  double partition_seconds = 0;
  std::string partition_note;  // how a partitioned .csr was used (dist::DistributedGraph::note)
  // Memory: the partitions' structures (summed over ranks), the edges they are counted per (the
  // graph's, as loaded), and the run's peak resident memory summed over ranks (the process's, when
  // the ranks are its threads), taken before --verify loads the whole graph.
  dist::GraphBytes bytes;
  std::uint64_t edges = 0;
  std::uint64_t peak_resident_bytes = 0;
  std::string channel;
  bool progress_thread = false;  // channel lci: each rank's runtime has a progress server
  nlohmann::json to_json() const override;
  std::string describe(bool verbose) const override;
};

std::shared_ptr<const harness::Engine> vertex_engine();

}  // namespace courier::engines
