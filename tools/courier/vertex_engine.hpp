#pragma once
// The `vertex` engine: the graph partitioned over ranks and the algorithm run as a distributed
// vertex program (engine/ + algo/), its result gathered to rank 0 and summarised as the
// sequential engine's is. Without a launcher the ranks are threads of this process on the local
// transport, talking through the lci layer.
#include <string>

#include "courier/dist/partition_plan.hpp"
#include "courier/graph/load.hpp"
#include "launcher.hpp"
#include "run_result.hpp"

namespace courier::cli {

struct VertexEngineOptions {
  int ranks = 1;
  unsigned threads = 2;  // per rank, the rank's own thread included
  dist::Policy policy = dist::Policy::oec;
  std::string comm = "lci";
  // --comm lci: auto (a progress thread per rank only when the node has a hardware thread to
  // spare for it), thread, or explicit (the waiting threads progress); see sync/progress_mode.hpp.
  std::string progress = "auto";
  bool pin = true;  // pin each rank's threads where the machine allows (core/placement.hpp)
};

struct VertexRun {
  RunResult result;
  nlohmann::json stats;  // rounds, compute / sync seconds, messages, bytes, partition quality
  graph::vertex_t vertices = 0;
  std::uint64_t edges = 0;       // of the graph as loaded (before tc's and kcore's undirected form)
  double load_seconds = 0;       // reading the parts (max over ranks)
  double partition_seconds = 0;  // transforms, degrees, plan, shuffle, local graphs (max over ranks)
  double run_seconds = 0;
  bool progress_thread = false;  // --comm lci: each rank's runtime has its progress server
};

// Every rank reads its own part of GRAPH (a file or generator spec) and the edges go to their
// owners (dist::load_distributed): no rank holds the whole graph. Load failures are agreed: every
// rank throws dist::LoadError with the same message.
//
// Without a launcher: engine.ranks ranks as threads of this process.
VertexRun run_vertex(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                     const RunOptions& options, const VertexEngineOptions& engine);
#ifdef COURIER_HAVE_MPI
// Under a launcher: this process is rank mpi.rank() of mpi.ranks(). The result and statistics are
// complete on rank 0 only.
VertexRun run_vertex_mpi(const std::string& algorithm, const std::string& graph, const graph::LoadOptions& load,
                         const RunOptions& options, const VertexEngineOptions& engine, const MpiSession& mpi);
#endif

}  // namespace courier::cli
