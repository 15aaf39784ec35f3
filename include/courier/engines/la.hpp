#pragma once
// The `la` engine: graph algorithms as iterative sparse matrix-vector products over semirings,
// in Graphite's MPI*X model (paper 003; la/). Every rank reads its own part of the graph, sends
// each edge to the global thread that owns its tile (2DT-Staggered, la/grid.hpp), and runs the
// algorithm's Program in the matrix computing model (la/model.hpp) with one persistent team of
// threads, each a communication endpoint. The leaders' segments are gathered to rank 0. Ranks
// are threads of this process on the local transport, or the processes of an MPI launcher.
// Options: units (threads: MPI*X; processes: the MPI+X mode), placement (staggered, cyclic),
// activity-filter, computation-filter, endpoints (courier, or the raw-MPI baseline), direction
// (auto, push, pull: for bfs), sampling (cc), pin.
#include <algorithm>
#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include "courier/harness/engine.hpp"
#include "courier/la/model.hpp"

namespace courier::engines {

// What an la kernel gets on each rank.
struct LaContext {
  const la::Matrix& matrix;
  comm::Runtime& runtime;
  sync::Channel& channel;
  bool filter_activity;
  std::vector<unsigned> pus;  // one per thread to pin them to, or empty
  unsigned tile_threads = 1;  // > 1: the MPI+X mode, these threads forked and joined per tile
  la::Messages messages = la::Messages::endpoints;
  la::Direction direction = la::Direction::automatic;  // for programs that can pull (la/model.hpp)
};

// What it hands back: the values of the segments this rank leads, in segment order, and facts
// alike on every rank.
struct LaOutput {
  harness::Values values;
  std::any facts;
  la::ModelStats stats;
};

struct LaKernel : harness::Kernel {
  enum class Weights { ignored, any, integers };  // integers: uint32 weights required
  std::function<LaOutput(const LaContext&, const harness::Request&)> run;
  Weights weights = Weights::ignored;  // whether the tiles carry the edges' weights
  bool both_directions = false;        // every edge also reversed (labels over the undirected graph)
  bool reversed = false;               // every edge turned around: y[u] combines over u's out-edges
  bool filters_computation = false;    // the program says when it needs the sinks (la/model.hpp)
  bool pulls = false;                  // the program can pull: the tiles are kept by rows too
  bool samples = false;                // the program runs on samples first: the tiles keep them
  bool sums_by_rows = false;           // stationary, summing every in-neighbour: tiles kept by rows only
};

// Runs `program` in the matrix computing model on this rank; `facts` makes the output's facts from
// the model once it has run.
template <class Program, class Facts>
LaOutput run_program(const LaContext& context, const Program& program, Facts&& facts) {
  la::Model<Program> model(context.matrix, context.runtime, context.channel, context.pus, program,
                           context.filter_activity, context.tile_threads, context.messages, context.direction);
  model.run();
  using V = typename Program::V;
  using Stored = std::conditional_t<std::is_floating_point_v<V>, double, std::uint64_t>;
  const la::Grid& grid = context.matrix.grid();
  std::size_t size = 0;
  for (unsigned k = 0; k < grid.size(); ++k)
    if (grid.rank_of(grid.leader(k)) == context.matrix.rank()) size += model.values(k).size();
  std::vector<Stored> mine(size);
  auto to = mine.begin();
  for (unsigned k = 0; k < grid.size(); ++k)
    if (grid.rank_of(grid.leader(k)) == context.matrix.rank())
      to = std::transform(model.values(k).begin(), model.values(k).end(), to,
                          [](const V& v) { return static_cast<Stored>(v); });
  return LaOutput{std::move(mine), facts(model), model.stats()};
}

// Typed statistics of an la run (rank 0's view).
struct LaStats : harness::EngineStats {
  unsigned ranks = 1, threads = 1, grid = 1;
  std::uint64_t nonzeros = 0, tile_bytes = 0;  // over all ranks
  la::ModelStats model;                        // messages and bytes over all ranks
  std::string tile_map;
  std::vector<std::string> placement;  // per rank: the PUs its threads were pinned to
  double load_seconds = 0, partition_seconds = 0;
  nlohmann::json to_json() const override;
  std::string describe(bool verbose) const override;
};

std::shared_ptr<const harness::Engine> la_engine();

}  // namespace courier::engines
